import { SharedRun } from './shared-run.js';
import { WdaClient } from './wda-client.js';

/**
 * Where a device's WebDriverAgent answers, plus whatever must happen first (a usbmuxd relay to a phone,
 * starting the runner). `ready` runs once; after a failure the next call tries again.
 */
export class WdaEndpoint {
  private readying: SharedRun<void> | undefined;
  /**
   * The last relink and the client whose broken link started it. Requests that were in flight on that client
   * when the phone went (a watcher's listing beside an agent's tap) fail one after another, in any order: they
   * all wait for this one relink and get its answer, instead of each starting its own and closing the relay
   * another had just opened.
   */
  private relink: { from: WdaClient; attempt: SharedRun<void> } | undefined;

  constructor(
    private current: WdaClient,
    private readonly prepare: (signal?: AbortSignal) => Promise<void> = async () => {},
    private readonly cleanup: () => void = () => {},
    /** Whether `prepare` can re-establish a link that broke after it worked (a usbmuxd relay to a phone). */
    private readonly relinkable = false,
  ) {}

  get client(): WdaClient {
    return this.current;
  }

  /** Points the endpoint at a new URL (a relay's port chosen during `prepare`). */
  use(client: WdaClient): void {
    if (client !== this.current) this.current.close();
    this.current = client;
  }

  ready(signal?: AbortSignal): Promise<void> {
    return this.attempt().wait(signal);
  }

  /** The run of `prepare` in progress or done; a fresh one after a failure, or once all its callers gave up. */
  private attempt(): SharedRun<void> {
    if (this.readying && !this.readying.abandoned) return this.readying;
    // An abandoned run may still be closing what it opened (a relay): the next starts after it settled.
    const before = this.readying?.done.catch(() => {});
    const attempt: SharedRun<void> = new SharedRun<void>(async (signal) => {
      await before;
      await this.prepare(signal).catch((err: unknown) => {
        if (this.readying === attempt) this.readying = undefined;
        throw err;
      });
    });
    this.readying = attempt;
    return attempt;
  }

  /**
   * After a request sent through `failed` found the endpoint not answering: runs `prepare` again where that can
   * re-establish the link, once for every request that failed on the same link. Resolves true when the link works
   * again (the caller may repeat its request), false when there is nothing to redo; rejects with why the relink failed.
   */
  async recover(failed: WdaClient, signal?: AbortSignal): Promise<boolean> {
    if (!this.relinkable) return false;
    if (this.relink?.from === failed) {
      // A later attempt (a call after this relink failed) is the newer answer; without one, this relink's stands.
      await (this.readying ?? this.relink.attempt).wait(signal);
      return true;
    }
    // Replaced since this request was sent (its client closed under it): the new link is the one to use.
    if (failed !== this.current) {
      await this.ready(signal);
      return true;
    }
    const settled = await this.readying?.done.then(() => true, () => false);
    if (!settled) return false;
    // Another request may have found the same link broken while this one waited.
    if (this.relink?.from !== failed) {
      this.readying = undefined;
      this.relink = { from: failed, attempt: this.attempt() };
    }
    await this.relink.attempt.wait(signal);
    return true;
  }

  close(): void {
    this.current.close();
    this.cleanup();
  }
}
