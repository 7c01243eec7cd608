import { WdaClient } from './wda-client.js';

/**
 * Where a device's WebDriverAgent answers, plus whatever must happen first (a usbmuxd relay to a phone,
 * starting the runner). `ready` runs once; after a failure the next call tries again.
 */
export class WdaEndpoint {
  private readying: Promise<void> | undefined;

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
    this.readying ??= this.prepare(signal).catch((err: unknown) => {
      this.readying = undefined;
      throw err;
    });
    return this.readying;
  }

  /**
   * After the endpoint stopped answering: runs `prepare` again where that can re-establish the link.
   * Resolves true when it did (the caller may repeat its request), false when there is nothing to redo.
   */
  async recover(signal?: AbortSignal): Promise<boolean> {
    if (!this.relinkable || !this.readying) return false;
    const settled = await this.readying.then(() => true, () => false);
    if (!settled) return false;
    this.readying = undefined;
    await this.ready(signal);
    return true;
  }

  close(): void {
    this.current.close();
    this.cleanup();
  }
}
