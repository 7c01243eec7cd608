import { withDeadline } from '../deadline.js';
import { type CallContext, type DeviceHandle, type Driver, type DevicesChange, NotesMemo, type SourceNote } from '../driver.js';
import { ToolError } from '../errors.js';
import type { DeviceInfo } from '../types.js';

/** One place devices come from: an adb server, a networked WebDriverAgent. */
export interface DeviceSource {
  name: string;
  /** For messages, e.g. "adb server 10.0.0.5:5037". */
  where: string;
  /** Must throw when the source cannot be reached: an empty list means "reachable, no devices". */
  driver: Driver;
  /**
   * Devices known before the source ever answers (a `--wda` phone: its id is the name given to it),
   * so that a source down from the start still lists them offline with the reason (SPEC §10).
   */
  expected?: DeviceInfo[];
}

export interface SourceSetOptions {
  /** Deadline of one source's listing; a slower source is reported down, the others are not kept waiting. */
  listTimeoutMs?: number;
  /** First retry delay after a failure; doubles up to maxRetryMs. */
  firstRetryMs?: number;
  maxRetryMs?: number;
}

/** What /api/health and the docs show per source. */
export interface SourceStatus {
  name: string;
  where: string;
  ok: boolean;
  devices: number;
  error?: string;
  failures: number;
}

interface Health {
  ok: boolean;
  error?: string;
  failures: number;
  retryAt: number;
  /** Devices of the last listing that succeeded (the source's own ids): listed offline while it is down. */
  known: DeviceInfo[];
  pending?: Promise<void>;
  timer?: NodeJS.Timeout;
}

interface Route {
  source: DeviceSource;
  local: string;
}

/** How long a listing waits for a source that was down when it started (see listDevices). */
const DOWN_SOURCE_WAIT_MS = 250;

/**
 * Several device sources as one driver. Each source is listed in parallel under its own deadline;
 * one that fails keeps its last devices in the list as offline with the reason, is retried with
 * backoff in the background, and its devices come back by themselves (as a devices change) when it
 * answers again. Ids reported by more than one source become `id@source`.
 */
export class SourceSet implements Driver {
  readonly name = 'sources';
  private readonly health = new Map<DeviceSource, Health>();
  private routes = new Map<string, Route>();
  private clashes = new Map<string, string[]>();
  /** `serial@source` → the id that device is listed by now. */
  private listedAs = new Map<string, string>();
  private published = new Map<string, string>();
  private readonly publishedNotes = new NotesMemo();
  private readonly listeners = new Set<(change: DevicesChange) => void>();
  private unwatch: (() => void)[] = [];
  private readonly listTimeoutMs: number;
  private readonly firstRetryMs: number;
  private readonly maxRetryMs: number;

  constructor(
    private readonly sources: DeviceSource[],
    options: SourceSetOptions = {},
  ) {
    this.listTimeoutMs = options.listTimeoutMs ?? 5000;
    this.firstRetryMs = options.firstRetryMs ?? 500;
    this.maxRetryMs = options.maxRetryMs ?? 30_000;
    for (const s of sources) this.health.set(s, { ok: true, failures: 0, retryAt: 0, known: s.expected ?? [] });
  }

  async listDevices(_ctx: CallContext): Promise<DeviceInfo[]> {
    // Each source has its own deadline, so the caller's (longer) one never decides for a slow source.
    // A source already known to be down is waited for only briefly: its retry (up to that deadline)
    // would otherwise hold up every other source's devices each time it falls due (SPEC §10). One that
    // answers again at once is listed at once; a slow retry goes on and announces its devices itself.
    await Promise.all(
      this.sources.map((s) => {
        if (this.health.get(s)!.ok) return this.refresh(s, false);
        const retry = this.refresh(s, false).then(() => void this.publish());
        return Promise.race([retry, new Promise<void>((done) => setTimeout(done, DOWN_SOURCE_WAIT_MS).unref())]);
      }),
    );
    return this.publish();
  }

  async open(id: string, ctx: CallContext): Promise<DeviceHandle | undefined> {
    let route = this.route(id);
    if (!route) {
      await this.listDevices(ctx);
      route = this.route(id);
    }
    if (!route) {
      const clash = this.clashes.get(id);
      if (clash) throw new ToolError('DEVICE_NOT_FOUND', `device id ${id} is reported by several sources; use one of ${clash.join(', ')}`);
      return undefined;
    }
    const { source, local } = route;
    const h = this.health.get(source)!;
    if (!h.ok) {
      throw new ToolError('DEVICE_NOT_FOUND', `device ${id} is on source ${source.name} (${source.where}), which is unreachable: ${h.error}; its devices come back by themselves once it answers again`);
    }
    const handle = await source.driver.open(local, ctx);
    if (!handle) return undefined;
    return handle.info.id === id && handle.info.source === source.name ? handle : renamed(handle, { ...handle.info, id, source: source.name });
  }

  watch(listener: (change: DevicesChange) => void): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      for (const s of this.sources) {
        const off = s.driver.watch?.(() => void this.refresh(s, true).then(() => this.publish()));
        if (off) this.unwatch.push(off);
      }
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopWatching();
    };
  }

  status(): SourceStatus[] {
    return this.sources.map((s) => {
      const h = this.health.get(s)!;
      return { name: s.name, where: s.where, ok: h.ok, devices: h.known.length, failures: h.failures, ...(h.error ? { error: h.error } : {}) };
    });
  }

  problems(): SourceNote[] {
    return this.status()
      .filter((s) => !s.ok)
      .map((s) => ({ source: `source ${s.name}`, text: s.error ?? `${s.where} did not answer` }));
  }

  async close(): Promise<void> {
    this.stopWatching();
    await Promise.all(this.sources.map((s) => s.driver.close()));
  }

  private stopWatching(): void {
    this.unwatch.forEach((off) => off());
    this.unwatch = [];
    for (const h of this.health.values()) clearTimeout(h.timer);
  }

  /** The listed device an id names, by the route open() takes: `serial@name` of one listed bare included. */
  resolveId(id: string): { listed: string; stable: string } | undefined {
    const route = this.route(id);
    if (!route) return undefined;
    const stable = `${route.local}@${route.source.name}`;
    const listed = this.listedAs.get(stable);
    return listed === undefined ? undefined : { listed, stable };
  }

  /** The one resolution of a public id to its source, shared by open() and resolveId(). */
  private route(id: string): Route | undefined {
    return this.routes.get(id) ?? this.explicitRoute(id);
  }

  /** `serial@name` names its source even before a listing (e.g. from a script that knows its lab). */
  private explicitRoute(id: string): Route | undefined {
    const at = id.lastIndexOf('@');
    if (at <= 0) return undefined;
    const source = this.sources.find((s) => s.name === id.slice(at + 1));
    return source && { source, local: id.slice(0, at) };
  }

  /** Lists one source unless it is down and its retry time has not come (force: a hot-plug event or the retry timer). */
  private refresh(source: DeviceSource, force: boolean): Promise<void> {
    const h = this.health.get(source)!;
    if (h.pending) return h.pending;
    if (!force && !h.ok && performance.now() < h.retryAt) return Promise.resolve();
    h.pending = withDeadline(this.listTimeoutMs, `listing the devices of source ${source.name} (${source.where})`, (signal) => source.driver.listDevices({ signal }))
      .then(
        (devices) => {
          h.ok = true;
          h.error = undefined;
          h.failures = 0;
          h.known = devices;
        },
        (err: unknown) => {
          h.ok = false;
          h.error = err instanceof Error ? err.message : String(err);
          const delay = Math.min(this.maxRetryMs, this.firstRetryMs * 2 ** h.failures);
          h.failures++;
          h.retryAt = performance.now() + delay;
          clearTimeout(h.timer);
          // Nobody would list again to notice the return: retry in the background while someone watches.
          if (this.listeners.size) h.timer = setTimeout(() => void this.refresh(source, true).then(() => this.publish()), delay).unref();
        },
      )
      .finally(() => {
        h.pending = undefined;
      });
    return h.pending;
  }

  /** The combined listing with public ids; tells watchers what changed since the last one. */
  private publish(): DeviceInfo[] {
    const entries = this.sources.flatMap((source) => {
      const h = this.health.get(source)!;
      return h.known.map((info) => ({ source, info: h.ok ? info : this.offline(source, info, h) }));
    });
    const count = new Map<string, number>();
    for (const e of entries) count.set(e.info.id, (count.get(e.info.id) ?? 0) + 1);
    const routes = new Map<string, Route>();
    const clashes = new Map<string, string[]>();
    const listedAs = new Map<string, string>();
    const devices = entries.map(({ source, info }) => {
      const id = (count.get(info.id) ?? 0) > 1 ? `${info.id}@${source.name}` : info.id;
      if (id !== info.id) clashes.set(info.id, [...(clashes.get(info.id) ?? []), id]);
      routes.set(id, { source, local: info.id });
      listedAs.set(`${info.id}@${source.name}`, id);
      return { ...info, id, source: source.name };
    });
    this.routes = routes;
    this.clashes = clashes;
    this.listedAs = listedAs;
    this.announce(devices);
    return devices;
  }

  private offline(source: DeviceSource, info: DeviceInfo, h: Health): DeviceInfo {
    return { ...info, state: 'offline', message: `source ${source.name} (${source.where}) is unreachable: ${h.error}; retried with backoff, the device returns by itself` };
  }

  private announce(devices: DeviceInfo[]): void {
    const next = new Map(devices.map((d) => [d.id, `${d.state ?? 'ready'}|${d.model}|${d.version}`]));
    const removed = [...this.published.keys()].filter((id) => next.get(id) !== this.published.get(id));
    const added = devices.filter((d) => this.published.get(d.id) !== next.get(d.id));
    this.published = next;
    // A source without devices that stops or starts answering changes no device, only the notes.
    const noted = this.publishedNotes.changed(this.problems());
    if (!removed.length && !added.length && !noted) return;
    for (const l of this.listeners) l({ added, removed });
  }
}

/** The source's handle under the public id (`serial@name` when the serial clashes). */
function renamed(handle: DeviceHandle, info: DeviceInfo): DeviceHandle {
  return new Proxy(handle, {
    get: (target, prop) => {
      if (prop === 'info') return info;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
