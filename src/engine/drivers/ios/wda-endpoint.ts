import { WdaClient } from './wda-client.js';

/**
 * Where a device's WebDriverAgent answers, plus whatever must happen first (a go-ios port forward,
 * starting the runner). `ready` runs once; after a failure the next call tries again.
 */
export class WdaEndpoint {
  private readying: Promise<void> | undefined;

  constructor(
    private current: WdaClient,
    private readonly prepare: (signal?: AbortSignal) => Promise<void> = async () => {},
    private readonly cleanup: () => void = () => {},
  ) {}

  get client(): WdaClient {
    return this.current;
  }

  /** Points the endpoint at a new URL (a port forward chosen during `prepare`). */
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

  close(): void {
    this.current.close();
    this.cleanup();
  }
}
