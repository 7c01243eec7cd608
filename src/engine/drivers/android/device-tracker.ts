import type { DevicesChange } from '../../driver.js';
import type { DeviceInfo } from '../../types.js';
import type { AdbClient } from './adb-client.js';
import type { AdbEntry } from './device-list.js';

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;
/**
 * The adb server's track-devices feed stays silent when a TCP device's connection dies: it sends
 * `offline` only once the device reconnects (about 10 s later, or never). `host:devices` shows
 * `offline` at once, so the list is also polled this often while the feed is up.
 */
const POLL_MS = 1000;

/**
 * Hot-plug feed from the adb server's `host:track-devices`. When the server goes away (killed,
 * restarted, not started yet) every known device is reported removed and tracking restarts with
 * backoff; the new server's first list reports them added again.
 */
export class DeviceTracker {
  private readonly listeners = new Set<(change: DevicesChange) => void>();
  private known = new Map<string, string>();
  private tracker: { end(): unknown; on(event: string, fn: (...args: unknown[]) => void): unknown } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private running = false;
  private generation = 0;

  constructor(
    private readonly client: AdbClient,
    private readonly describe: (entry: AdbEntry) => Promise<DeviceInfo>,
    private readonly onRemoved: (ids: string[]) => void,
  ) {}

  subscribe(listener: (change: DevicesChange) => void): () => void {
    this.listeners.add(listener);
    if (!this.running) {
      this.running = true;
      this.start();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    this.running = false;
    this.generation++;
    clearTimeout(this.timer);
    clearInterval(this.poll);
    this.tracker?.end();
    this.tracker = undefined;
  }

  private start(): void {
    const generation = ++this.generation;
    Promise.resolve(this.client.trackDevices())
      .then((tracker) => {
        if (generation !== this.generation) return void tracker.end();
        this.tracker = tracker as unknown as typeof this.tracker;
        // A hot-plug feed must not keep a process (a CLI call, a test) alive on its own.
        (tracker as unknown as { command?: { connection?: { socket?: { unref(): void } } } }).command?.connection?.socket?.unref();
        this.retryMs = FIRST_RETRY_MS;
        // Re-listing on each event and diffing ourselves also reports state changes (offline → device) as remove + add.
        tracker.on('add', () => void this.refresh(generation));
        tracker.on('remove', () => void this.refresh(generation));
        tracker.on('change', () => void this.refresh(generation));
        tracker.on('end', () => this.lost(generation));
        tracker.on('error', () => this.lost(generation));
        void this.refresh(generation);
        clearInterval(this.poll);
        this.poll = setInterval(() => void this.refresh(generation), POLL_MS).unref();
      })
      .catch(() => this.lost(generation));
  }

  private lost(generation: number): void {
    if (generation !== this.generation || !this.running) return;
    this.generation++;
    clearInterval(this.poll);
    this.tracker = undefined;
    this.apply([]);
    this.timer = setTimeout(() => this.start(), this.retryMs).unref();
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }

  private async refresh(generation: number): Promise<void> {
    const entries = (await Promise.resolve(this.client.listDevices()).catch(() => undefined)) as AdbEntry[] | undefined;
    if (entries && generation === this.generation) await this.apply(entries);
  }

  private async apply(entries: AdbEntry[]): Promise<void> {
    const next = new Map(entries.map((e) => [e.id, e.type]));
    const removed = [...this.known.keys()].filter((id) => next.get(id) !== this.known.get(id));
    const addedEntries = entries.filter((e) => this.known.get(e.id) !== e.type);
    this.known = next;
    if (!removed.length && !addedEntries.length) return;
    this.onRemoved(removed);
    const added = await Promise.all(addedEntries.map((e) => this.describe(e).catch(() => ({ id: e.id, os: 'Android' as const, model: 'unknown', version: '', state: 'offline' as const, message: 'did not answer getprop; reconnect it' }))));
    const change: DevicesChange = { added, removed };
    for (const l of this.listeners) l(change);
  }
}
