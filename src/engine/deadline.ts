import type { CallContext } from './driver.js';
import { ToolError } from './errors.js';

/**
 * Runs `work` with an AbortSignal that fires at the deadline (given too, in performance.now() time),
 * and rejects with TIMEOUT then even if the work ignores the signal (see `untilDeadline`).
 */
export async function withDeadline<T>(ms: number, what: string, work: (signal: AbortSignal, deadline: number) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const deadline = performance.now() + ms;
  const timer = setTimeout(() => controller.abort(new ToolError('TIMEOUT', `${what} did not finish within ${ms} ms`)), ms);
  try {
    // Two turns: the work may end in an untilDeadline of its own (the device scheduler's), whose account takes one.
    return await untilDeadline(controller.signal, work(controller.signal, deadline), 2);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A deadline's TIMEOUT with what the work was still waiting for when it fired ("WebDriverAgent had
 * not answered GET /source"): a driver that hears the abort throws this instead of the bare reason.
 */
export class ExplainedTimeout extends ToolError {
  constructor(
    readonly explains: ToolError,
    detail: string,
  ) {
    super('TIMEOUT', `${explains.message}; ${detail}`, explains.settled);
    this.name = 'ExplainedTimeout';
  }
}

/** The abort's reason with `detail` when it is a deadline's TIMEOUT, else the reason as it is. */
export function explainAbort(reason: unknown, detail: string): unknown {
  return reason instanceof ToolError && reason.code === 'TIMEOUT' && !(reason instanceof ExplainedTimeout) ? new ExplainedTimeout(reason, detail) : reason;
}

/**
 * Settles with `work`, or rejects with the signal's reason once it aborts, even if the work goes on.
 * Not at once: the work heard the abort too, and a driver may have said what it was still waiting
 * for (ExplainedTimeout of that reason) within `turns` turns of the event loop; that account is used then.
 */
export function untilDeadline<T>(signal: AbortSignal, work: Promise<T>, turns = 1): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    let aborted = false;
    let account: unknown;
    const after = (left: number): void => {
      setImmediate(() => (left > 1 && account === undefined ? after(left - 1) : reject((account ?? signal.reason) as Error)));
    };
    const onAbort = () => {
      aborted = true;
      after(turns);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        if (aborted) return;
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        if (aborted) {
          if (e instanceof ExplainedTimeout && e.explains === signal.reason) account = e;
          return;
        }
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}

/** Settles with `work`, or rejects with the signal's reason as soon as it aborts (the work may go on). */
export function untilAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}

/**
 * Waits `ms`, or rejects with the signal's reason (the call's deadline) as soon as it aborts, not
 * with the AbortError of node:timers/promises, so a wait cut short says why like the work around it.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** Milliseconds until the call's deadline; Infinity for a call without one. */
export function timeLeft(ctx: CallContext): number {
  return ctx.deadline === undefined ? Infinity : ctx.deadline - performance.now();
}

/**
 * AbortSignal.timeout for use inside AbortSignal.any. Node 20 keeps a timeout signal alive only
 * through a weak reference from its timer, and AbortSignal.any's composite holds its sources
 * weakly too: after a garbage collection such a timeout never fires (seen as an install whose
 * give-up margin never came). Here the timer holds the controller, so the signal lives until then.
 */
export function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms).unref();
  return controller.signal;
}
