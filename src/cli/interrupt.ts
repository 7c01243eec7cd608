import { constants } from 'node:os';
import { EXIT } from './command.js';

/** Signals that ask a process to stop: Ctrl-C, and what CI timeouts, job cancels, `docker stop` and a closed terminal send. */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** A command's Ctrl-C (and the other stop signals it asks for): `signal` aborts on the first (after `notice` on stderr); `dispose` stops listening. */
export interface Interrupt {
  signal: AbortSignal;
  /** The signal that cancelled; undefined while none came. */
  stoppedBy(): StopSignal | undefined;
  dispose(): void;
}

/** The shell's convention for a process ended by a signal (128 + its number); SIGINT's is EXIT.cancelled. */
export function signalExitCode(name: StopSignal): number {
  return name === 'SIGINT' ? EXIT.cancelled : 128 + constants.signals[name];
}

/**
 * The first stop signal cancels the command's work, which then finishes as cancelled and says so; a
 * second one quits at once (128 + its number), for work that does not stop. Without a listener,
 * Node ends at once on SIGTERM and SIGHUP, leaving whatever the work had half written.
 */
export function cancelOnInterrupt(notice: string, signals: StopSignal[] = ['SIGINT']): Interrupt {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  const onSignal = (name: StopSignal) => {
    if (received) process.exit(signalExitCode(name));
    received = name;
    process.stderr.write(`\n${notice}${name === 'SIGINT' ? '' : ` [${name} received]`}\n`);
    controller.abort();
  };
  for (const s of signals) process.on(s, onSignal);
  return {
    signal: controller.signal,
    stoppedBy: () => received,
    dispose: () => signals.forEach((s) => process.off(s, onSignal)),
  };
}
