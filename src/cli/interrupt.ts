import { EXIT } from './command.js';

/** A command's Ctrl-C: `signal` aborts on the first (after `notice` on stderr); `dispose` stops listening. */
export interface Interrupt {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * The first Ctrl-C cancels the command's work, which then finishes as cancelled and says so; a
 * second one quits at once (exit 130), for work that does not stop.
 */
export function cancelOnInterrupt(notice: string): Interrupt {
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    if (++interrupts > 1) process.exit(EXIT.cancelled);
    process.stderr.write(`\n${notice}\n`);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => void process.off('SIGINT', onSigint) };
}
