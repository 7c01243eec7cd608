import type { DevicesChange } from '../../driver.js';
import type { DeviceInfo } from '../../types.js';
import { listHostDevices, trackHostDevices, type AdbClient, type AdbEntry } from './adb-client.js';

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;
/**
 * The adb server's track-devices feed stays silent when a TCP device's connection dies (adb 29 retries
 * it after ~250 ms, then every 3 s, and removes it after ~60 s), while `host:devices` shows `offline`
 * at once, so the list is also polled this often while the feed is up. A poll the server does not
 * answer means it is unreachable although the feed's socket is open (a frozen host, a dropped route).
 */
const POLL_MS = 1000;
/** A poll, or the feed's request, that the server has not answered by then is given up (its socket closed). */
const POLL_TIMEOUT_MS = 5000;

/**
 * Hot-plug feed from the adb server's `host:track-devices`. When the server goes away (killed,
 * restarted, not started yet) every known device is reported removed and tracking restarts with
 * backoff; the new server's first list reports them added again.
 */
export class DeviceTracker {
  private readonly listeners = new Set<(change: DevicesChange) => void>();
  private known = new Map<string, string>();
  /** Closes the current feed, or gives up waiting for the server to accept it. */
  private feed: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private running = false;
  private generation = 0;
  /** Devices announced as not answering getprop: asked again at each poll, and announced again once they answer. */
  private readonly silent = new Map<string, AdbEntry>();
  private asking = false;

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
    this.feed?.abort();
    this.feed = undefined;
  }

  private start(): void {
    const generation = ++this.generation;
    const feed = new AbortController();
    this.feed = feed;
    // A server that accepts the connection but never answers is tried again later, like one that is down.
    const unanswered = setTimeout(() => feed.abort(), POLL_TIMEOUT_MS).unref();
    // Re-listing on each update and diffing ourselves also reports state changes (offline → device) as remove + add.
    trackHostDevices(this.client, feed.signal, () => void this.refresh(generation), () => this.lost(generation))
      .finally(() => clearTimeout(unanswered))
      .then(() => {
        this.retryMs = FIRST_RETRY_MS;
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
    this.feed?.abort();
    this.feed = undefined;
    this.apply([]);
    this.timer = setTimeout(() => this.start(), this.retryMs).unref();
    this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
  }

  private async refresh(generation: number): Promise<void> {
    const entries = await listHostDevices(this.client, AbortSignal.timeout(POLL_TIMEOUT_MS)).catch(() => undefined);
    if (generation !== this.generation) return;
    if (!entries) return this.lost(generation);
    await this.apply(entries);
    await this.askSilent(generation);
  }

  /** Devices that did not answer getprop when they appeared (busy), or still boot: announced again once they are ready. */
  private async askSilent(generation: number): Promise<void> {
    if (this.asking || this.silent.size === 0) return;
    this.asking = true;
    try {
      for (const [id, entry] of this.silent) {
        const info = await this.describe(entry).catch(() => undefined);
        if (!info || info.state !== 'ready' || generation !== this.generation || this.known.get(id) !== entry.type || !this.silent.has(id)) continue;
        this.silent.delete(id);
        for (const l of this.listeners) l({ added: [info], removed: [id] });
      }
    } finally {
      this.asking = false;
    }
  }

  private async apply(entries: AdbEntry[]): Promise<void> {
    const next = new Map(entries.map((e) => [e.id, e.type]));
    const removed = [...this.known.keys()].filter((id) => next.get(id) !== this.known.get(id));
    const addedEntries = entries.filter((e) => this.known.get(e.id) !== e.type);
    this.known = next;
    if (!removed.length && !addedEntries.length) return;
    this.onRemoved(removed);
    for (const id of removed) this.silent.delete(id);
    const added = await Promise.all(
      addedEntries.map((e) =>
        this.describe(e).then((info) => {
          if (e.type === 'device' && info.state !== 'ready') this.silent.set(e.id, e);
          return info;
        }, () => {
          this.silent.set(e.id, e);
          return { id: e.id, os: 'Android' as const, model: 'unknown', version: '', state: 'offline' as const, message: 'did not answer getprop yet (it may be booting or busy); asked again every second' };
        }),
      ),
    );
    const change: DevicesChange = { added, removed };
    for (const l of this.listeners) l(change);
  }
}
