import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { timeoutSignal } from '../../src/engine/deadline.js';

// A full collection on demand, without starting the test run with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A signal that gives up after `ms` or with the caller, built the way the drivers build theirs. */
function patience(caller: AbortSignal, timeout: (ms: number) => AbortSignal, ms: number): AbortSignal {
  return AbortSignal.any([caller, timeout(ms)]);
}

const abortedWithin = (signal: AbortSignal, ms: number) =>
  new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve(true)), { once: true });
  });

// With AbortSignal.timeout in its place (Node 20.20) this signal never aborts.
test('timeoutSignal inside AbortSignal.any still fires after a garbage collection', async () => {
  const signal = patience(new AbortController().signal, timeoutSignal, 100);
  // Collected a moment later, not while the new signals are still on this stack.
  await new Promise((resolve) => setTimeout(resolve, 10));
  gc();
  assert.ok(await abortedWithin(signal, 2000), 'the give-up time came');
  assert.is((signal.reason as Error).name, 'TimeoutError');
});

test.run();
