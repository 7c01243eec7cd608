import type { CallContext } from './driver.js';
import { ToolError } from './errors.js';

/**
 * Runs `work` with an AbortSignal that fires at the deadline (given too, in performance.now() time),
 * and rejects with TIMEOUT at that moment even if the work ignores the signal.
 */
export async function withDeadline<T>(ms: number, what: string, work: (signal: AbortSignal, deadline: number) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = performance.now() + ms;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new ToolError('TIMEOUT', `${what} did not finish within ${ms} ms`);
      controller.abort(err);
      reject(err);
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal, deadline), expired]);
  } finally {
    clearTimeout(timer);
  }
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
