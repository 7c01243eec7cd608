import { onAbort } from './abort-fanout.js';
import { CallCancelled, failure, type ToolFailure } from './errors.js';

/** How long a running call may take to settle after its caller cancelled it. */
export const CANCEL_GRACE_MS = 2000;

/**
 * One device call's watch on its caller's cancel signal (DeviceScheduler.run). The caller's signal
 * may be shared by many calls (a bridge's shutdown signal), so it is watched through the fan-out.
 */
export class CancelWatch {
  /** Rejects with CallCancelled: at once while the call waits its turn, CANCEL_GRACE_MS later once it runs. */
  readonly given: Promise<never>;
  cancelled = false;
  private ran = false;
  private reject!: (err: Error) => void;
  private timer: NodeJS.Timeout | undefined;
  private readonly stop = new AbortController();
  private readonly unwatch: () => void;

  constructor(
    cancel: AbortSignal,
    private readonly label: string,
    private readonly device: string,
    running: () => boolean,
  ) {
    this.given = new Promise<never>((_, reject) => (this.reject = reject));
    // Only ever raced: a rejection nobody awaits any more is not an error.
    this.given.catch(() => undefined);
    const fire = () => {
      this.cancelled = true;
      this.ran = running();
      // Drivers word what they stopped with the reason ("installing … was stopped (cancelled by its caller)").
      this.stop.abort(new CallCancelled('cancelled by its caller', this.ran));
      if (this.ran) this.timer = setTimeout(() => this.reject(this.error()), CANCEL_GRACE_MS);
      else this.reject(this.error());
    };
    this.unwatch = cancel.aborted ? () => undefined : onAbort(cancel, fire);
    if (cancel.aborted) fire();
  }

  /** The signal the work gets: its deadline, or its caller's cancel. */
  signalWith(deadline: AbortSignal): AbortSignal {
    return AbortSignal.any([deadline, this.stop.signal]);
  }

  error(): CallCancelled {
    return this.ran
      ? new CallCancelled(`${this.label} was cancelled by its caller while it ran`, true)
      : new CallCancelled(`${this.label} was cancelled by its caller before it started: nothing was done on ${this.device}`, false);
  }

  dispose(): void {
    this.unwatch();
    clearTimeout(this.timer);
  }
}

/** What a cancelled tool call answers: whether it may have acted depends on whether it ran and what it does. */
export function cancelledFailure(err: CallCancelled, mutates: boolean): ToolFailure {
  if (!err.ran) return failure('INTERNAL', err.message);
  if (!mutates) return failure('INTERNAL', `${err.message}; it only reads, so nothing on the device changed`);
  return { ...failure('INTERNAL', `${err.message}; it may have acted on the device, fully or in part: look at the screen before repeating it`), may_have_run: true };
}
