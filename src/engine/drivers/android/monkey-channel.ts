import { timeoutSignal, untilAborted } from '../../deadline.js';
import type { AdbDeviceClient } from './adb-client.js';

/** The line protocol of Android's `monkey --port` (MonkeySourceNetwork), as adbkit-monkey exposes it. */
interface MonkeyClient {
  /** The socket the lines go out on (adbkit-monkey's Client keeps it here). */
  readonly stream: { write(data: string): unknown };
  send(commands: string[], callback: (err: Error | null, value: string | null) => void): void;
  end(): void;
  on(event: 'error' | 'end', listener: (...args: unknown[]) => void): void;
  off?(event: 'error' | 'end', listener: (...args: unknown[]) => void): void;
}

export const MONKEY_PORT = 1080;
const RETRY_AFTER_MS = 60_000;
/**
 * Starting monkey is a JVM start and a port bind (1–2 s on phones). adbkit's openMonkey takes no
 * signal: on a device that stopped answering it never settles, and every later tap waited on it, so
 * the start is given up after this long and `input` does the work until the next try.
 */
const OPEN_TIMEOUT_MS = 5_000;

/**
 * The monkey answered OK and then went away before reaching the next line. Monkey replies OK as soon
 * as it has queued a command's events and injects them afterwards; phones that forbid injection
 * (Xiaomi/MIUI without "USB debugging (Security settings)") kill it with a SecurityException right
 * there, so the gesture did not happen.
 */
export class MonkeyDiedError extends Error {}

/** Harmless line sent after each gesture: monkey reads it only once the gesture's events were injected. */
const PROBE = 'sleep 0';

/**
 * A persistent input injector: `monkey --port` keeps one JVM running on the device, so a tap is one
 * line over an open socket instead of a JVM start per `input` call (226–400 ms on phones).
 * `send` resolves false when the channel cannot be used, and the caller falls back to `input`;
 * it rejects with MonkeyDiedError when the monkey died after accepting the gesture.
 */
export class MonkeyChannel {
  private client: MonkeyClient | undefined;
  private opening: Promise<MonkeyClient | undefined> | undefined;
  private unavailableUntil = 0;

  constructor(private readonly device: AdbDeviceClient) {}

  async send(commands: string[], signal: AbortSignal): Promise<boolean> {
    const client = await untilAborted(signal, this.open()).catch(() => undefined);
    if (!client || signal.aborted) return false;
    const lines = [...commands, PROBE];
    return new Promise<boolean>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        client.off?.('end', onGone);
        client.off?.('error', onGone);
        fn();
      };
      const onAbort = () => finish(() => {
        this.drop();
        reject(signal.reason);
      });
      // adbkit-monkey leaves pending callbacks unanswered when the channel ends: settle here instead.
      const onGone = () => finish(() => {
        this.markBroken();
        reject(new MonkeyDiedError(`monkey accepted ${JSON.stringify(commands.join('; '))} and then died before injecting it`));
      });
      signal.addEventListener('abort', onAbort, { once: true });
      client.on('end', onGone);
      client.on('error', onGone);
      // All lines go in one write. The adb server relays the monkey's answers with Nagle's algorithm
      // on, so an answer written while the previous one is unacknowledged would wait for our delayed
      // ACK (40 ms on Linux): each answer but the last is followed by an empty line, which carries
      // that ACK at once and which monkey reads without answering (MonkeySourceNetwork answers only
      // lines naming a command). One device round trip per gesture instead of one per line.
      let failed: Error | undefined;
      let left = lines.length;
      client.send(lines, (err) => {
        if (settled) return;
        if (err) failed ??= err;
        if (--left > 0) {
          client.stream.write('\n');
          return;
        }
        finish(() => (failed ? reject(new Error(`monkey refused ${JSON.stringify(commands.join('; '))}: ${failed.message}`)) : resolve(true)));
      });
    });
  }

  /** Stops using the channel for a while: the monkey died on us and would only die again. */
  private markBroken(): void {
    this.drop();
    this.unavailableUntil = Date.now() + RETRY_AFTER_MS;
  }

  close(): void {
    this.drop();
  }

  private open(): Promise<MonkeyClient | undefined> {
    if (this.client) return Promise.resolve(this.client);
    if (Date.now() < this.unavailableUntil) return Promise.resolve(undefined);
    this.opening ??= this.start().finally(() => (this.opening = undefined));
    return this.opening;
  }

  private async start(): Promise<MonkeyClient | undefined> {
    const opening = Promise.resolve(this.device.openMonkey(MONKEY_PORT) as unknown as Promise<MonkeyClient>);
    try {
      const client = await untilAborted(timeoutSignal(OPEN_TIMEOUT_MS), opening);
      client.on('error', () => this.drop());
      client.on('end', () => this.drop());
      this.client = client;
      return client;
    } catch {
      // Refused, or given up: one that opens after all is closed, it would only hold a monkey process on the phone.
      void opening.then((c) => c.end(), () => undefined);
      this.unavailableUntil = Date.now() + RETRY_AFTER_MS;
      return undefined;
    }
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
