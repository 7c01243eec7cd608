import type { ChildProcess } from 'node:child_process';

/**
 * The child's exit code once it has exited and what it wrote is read to the end. Node may emit
 * 'exit' while the stdio pipes still hold the last output (the docs say so), and a test that reads
 * stdout on 'exit' then sees a cut answer under load. 'close' alone would wait as long as a
 * grandchild keeps the pipes open, so the wait for the pipes is bounded by `drainMs`.
 */
export async function exitWithOutput(child: ChildProcess, drainMs = 5_000): Promise<number | null> {
  const streams = [child.stdout, child.stderr].filter((s) => s !== null);
  const drained = Promise.all(
    streams.map((s) => (s.readableEnded || s.destroyed ? undefined : new Promise<void>((r) => (s.once('end', r), s.once('close', r))))),
  );
  const code = child.exitCode !== null || child.signalCode !== null ? child.exitCode : await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([drained, new Promise((r) => (timer = setTimeout(r, drainMs)))]);
  clearTimeout(timer);
  return code;
}
