import { onAbort } from '../../abort-fanout.js';

/**
 * One run of work shared by every caller that waits on it (a WebDriverAgent start or session opened for a viewer's
 * video outside the device queue and for a tool call in it). Each waits within its own deadline; the run itself is
 * stopped only once every one of them gave up, so one caller's short deadline never becomes another's failure.
 */
export class SharedRun<T> {
  private readonly controller = new AbortController();
  private waiting = 0;
  readonly done: Promise<T>;

  constructor(run: (signal: AbortSignal) => Promise<T>) {
    this.done = run(this.controller.signal);
    this.done.catch(() => {});
  }

  get abandoned(): boolean {
    return this.controller.signal.aborted;
  }

  wait(signal?: AbortSignal): Promise<T> {
    if (!signal) {
      this.waiting = Infinity;
      return this.done;
    }
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    this.waiting++;
    return new Promise<T>((resolve, reject) => {
      const leave = onAbort(signal, () => {
        if (--this.waiting > 0) return reject(signal.reason as Error);
        // The last to give up stops the run, which then says what it was still waiting for (deadline.ts ExplainedTimeout).
        this.controller.abort(signal.reason);
      });
      this.done.then(
        (value) => {
          leave();
          resolve(value);
        },
        (err: unknown) => {
          leave();
          reject(err as Error);
        },
      );
    });
  }
}
