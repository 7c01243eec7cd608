import type { AdbDeviceClient } from './adb-client.js';

/** The line protocol of Android's `monkey --port` (MonkeySourceNetwork), as adbkit-monkey exposes it. */
interface MonkeyClient {
  send(commands: string[], callback: (err: Error | null, value: string | null) => void): void;
  end(): void;
  on(event: 'error' | 'end', listener: (...args: unknown[]) => void): void;
}

export const MONKEY_PORT = 1080;
const RETRY_AFTER_MS = 60_000;

/**
 * A persistent input injector: `monkey --port` keeps one JVM running on the device, so a tap is one
 * line over an open socket instead of a JVM start per `input` call (226–400 ms on phones).
 * `send` resolves false when the channel cannot be used, and the caller falls back to `input`.
 */
export class MonkeyChannel {
  private client: MonkeyClient | undefined;
  private opening: Promise<MonkeyClient | undefined> | undefined;
  private unavailableUntil = 0;

  constructor(private readonly device: AdbDeviceClient) {}

  async send(commands: string[], signal: AbortSignal): Promise<boolean> {
    const client = await this.open();
    if (!client || signal.aborted) return false;
    return new Promise<boolean>((resolve, reject) => {
      let left = commands.length;
      let failed: Error | undefined;
      const onAbort = () => {
        this.drop();
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      client.send(commands, (err) => {
        if (err) failed ??= err;
        if (--left > 0) return;
        signal.removeEventListener('abort', onAbort);
        if (failed) reject(new Error(`monkey refused ${JSON.stringify(commands.join('; '))}: ${failed.message}`));
        else resolve(true);
      });
    });
  }

  close(): void {
    this.drop();
  }

  private open(): Promise<MonkeyClient | undefined> {
    if (this.client) return Promise.resolve(this.client);
    if (Date.now() < this.unavailableUntil) return Promise.resolve(undefined);
    this.opening ??= Promise.resolve(this.device.openMonkey(MONKEY_PORT) as unknown as Promise<MonkeyClient>)
      .then((client) => {
        client.on('error', () => this.drop());
        client.on('end', () => this.drop());
        this.client = client;
        return client;
      })
      .catch(() => {
        this.unavailableUntil = Date.now() + RETRY_AFTER_MS;
        return undefined;
      })
      .finally(() => (this.opening = undefined));
    return this.opening;
  }

  private drop(): void {
    const client = this.client;
    this.client = undefined;
    try {
      client?.end();
    } catch {
      // Already closed by the device.
    }
  }
}
