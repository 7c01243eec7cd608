/**
 * agent.assert with timeout_ms keeps looking at the device until the check passes or the time is
 * up; a caller that gives up (requests.cancel) must stop it, and hear that it was cancelled, not
 * that the platform cannot do it.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { AgentSession } from '../../src/engine/agent/agent-session.js';
import { createEngine } from '../../src/engine/create.js';
import type { VerbClock } from '../../src/engine/verbs/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, sleep, testBridge } from './helpers.js';

const test = suite('agent.assert cancelled');

let bridge: Bridge;
test.before.each(async () => {
  ({ bridge } = await testBridge());
});
test.after.each(async () => {
  await bridge.close();
});

test('a waiting agent.assert stops when cancelled and answers CANCELLED, as verbs.run does', async () => {
  const c = await connectBridge(bridge.wsUrl, { client: 'asserter' });
  try {
    const controller = new AbortController();
    const never = { type: 'element_exists', element_description: 'the Purple unicorn', timeout_ms: 20_000 };
    const pending = c.requestRaw('agent.assert', { device: ANDROID, assertion: never }, controller.signal) as Promise<{ status: string; code?: string; message: string }>;
    // Give it time to be looking (the cancel of a request not yet started would find nothing to cancel).
    await sleep(300);
    controller.abort();
    const answer = await pending;
    assert.equal([answer.status, answer.code], ['error', 'CANCELLED'], JSON.stringify(answer));
    assert.is(answer.message, `the assertion on ${ANDROID} was cancelled by its caller; it was not recorded`);
    // The session goes on: the next check is answered.
    const next = (await c.requestRaw('agent.assert', { device: ANDROID, assertion: { type: 'element_not_exists', element_description: 'the Purple unicorn' } })) as { status: string };
    assert.is(next.status, 'passed', JSON.stringify(next));
  } finally {
    await c.close();
  }
});

test('the cancel reaches the wait between looks: the check stops there', async () => {
  const engine = createEngine({ virtual: {} });
  const controller = new AbortController();
  // A wait that only a cancel ends, cancelled as soon as it begins: without the signal it could only hang.
  const clock: VerbClock = {
    now: () => 0,
    sleep: (_ms, signal) => {
      if (!signal) return Promise.reject(new Error('the wait between looks was given no signal: no cancel could end it'));
      return new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        controller.abort();
      });
    },
  };
  const agent = new AgentSession(engine, 'agent-cancel', { clock });
  try {
    const err = await agent.assert(ANDROID, { type: 'element_exists', element_description: 'the Purple unicorn', timeout_ms: 20_000 } as never, controller.signal).then(
      (r) => r,
      (e: unknown) => e,
    );
    assert.instance(err, Error);
    assert.is((err as { code?: string }).code, 'CANCELLED', String(err));
  } finally {
    agent.close();
    await engine.close();
  }
});

test.run();
