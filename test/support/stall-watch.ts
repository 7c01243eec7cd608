/**
 * Loaded into the test runner by `npm test` (node --import): when no test finishes for
 * MOBILEBRIDGE_STALL_MS, the run ends as a failure that says where it stopped, and the processes
 * the suite started are stopped, instead of a CI job that waits out its time limit in silence.
 * uvu writes a mark for every test it finishes, so output is progress.
 */
import { suiteProcesses } from './suite-processes.js';

const limitMs = Number(process.env.MOBILEBRIDGE_STALL_MS ?? 0);
// For the runner alone: a node process a test starts must not watch itself.
delete process.env.MOBILEBRIDGE_STALL_MS;

if (limitMs > 0) {
  let lastOutput = performance.now();
  let tail = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    lastOutput = performance.now();
    tail = (tail + String(chunk)).slice(-800);
    return write(chunk, ...rest);
  }) as typeof process.stdout.write;

  const check = setInterval(() => {
    if (performance.now() - lastOutput < limitMs) return;
    clearInterval(check);
    // uvu colours its output; the escapes would only garble the message.
    const plain = tail.replace(/\x1b\[[0-9;]*m/g, '');
    const stopped = suiteProcesses().map((p) => {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
      return `${p.pid}: ${p.argv.join(' ')}`;
    });
    process.stderr.write(
      `\nstall-watch: no test finished for ${limitMs / 1000} s, so the run is stopped as failed. Its output ended with:\n${plain}\n` +
        `still waiting on: ${process.getActiveResourcesInfo().join(', ') || 'nothing'}\n` +
        `processes of this suite stopped: ${stopped.length ? `\n${stopped.join('\n')}` : 'none'}\n`,
    );
    process.exit(1);
  }, Math.min(limitMs, 5_000));
  check.unref();
}
