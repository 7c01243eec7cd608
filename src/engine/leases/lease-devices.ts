import type { Engine } from '../engine.js';
import type { DeviceInfo } from '../types.js';
import { FileLeases, LeaseTimeout, type Lease, type LeaseCandidate } from './file-leases.js';

/** `10m`, `90s`, `500ms`, `1h`, or a plain number of milliseconds. */
export function parseDuration(value: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m) throw new Error(`${flag} must be a duration such as 10m, 90s or 500ms (got ${JSON.stringify(value)})`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 'ms') as 'ms'];
  return Math.round(Number(m[1]) * unit);
}

/**
 * How devices.lease says a caller may wait longer, in the words of its protocol parameter; the CLI
 * finds it to say its own flag (--lease-timeout) instead.
 */
export const LEASE_WAIT_LONGER = 'raise timeout_ms to wait longer';
/** The protocol's way past a holder, in the bridge's lease refusal (the CLI says its own). */
export const LEASE_ASK_HOLDER = 'ask the holder to unlock it (devices.unlock) or take it over (devices.lock with takeover: true)';

/** `any`, `any:android`, `any:ios`: a device picked from the pool rather than named. */
export function isLeaseRequest(entry: string): boolean {
  return /^any(:|$)/.test(entry);
}

export interface LeaseRequestOptions {
  engine: Engine;
  stateDir: string;
  timeoutMs: number;
  /** Platform for a bare `any` (the scenario's); cross-platform takes either. */
  defaultPlatform: 'android' | 'ios' | 'cross-platform';
  signal?: AbortSignal;
  log(line: string): void;
}

const usable = (d: DeviceInfo) => d.state !== 'offline' && d.state !== 'unauthorized';

/**
 * Leases one device per entry: `any[:platform]` waits first-come, first-served for a free ready
 * device of that platform on any source; a named device waits until it is free. Leases are held
 * until released (or the process dies) so parallel CI jobs on one machine never share a phone.
 */
export async function leaseDevices(entries: string[], options: LeaseRequestOptions): Promise<Lease[]> {
  const leases = new FileLeases(options.stateDir);
  const taken: Lease[] = [];
  try {
    for (const entry of entries) {
      const platform = isLeaseRequest(entry) ? (entry.split(':')[1] || options.defaultPlatform) : undefined;
      if (platform !== undefined && !['android', 'ios', 'cross-platform'].includes(platform)) {
        throw new Error(`--devices ${entry}: the pool must be any:android or any:ios (or any for the scenario's platform)`);
      }
      const fits = (d: DeviceInfo) => usable(d) && (platform === 'cross-platform' || (platform === 'ios') === (d.os === 'iOS'));
      const mine = new Set(taken.map((l) => l.key));
      // A phone named twice (`x` and `x@lab`) is leased once; a second lock would wait on the first.
      if (platform === undefined && mine.has((await options.engine.lookupDevices()).key(entry))) continue;
      // Keyed as the engine resolves ids, so `x@lab` and `x` (one phone) share one lock file.
      const candidates = async (): Promise<LeaseCandidate[]> => {
        const lookup = await options.engine.lookupDevices();
        const ids = platform === undefined ? [entry] : lookup.devices.filter((d) => fits(d)).map((d) => d.id);
        const os = new Map(lookup.devices.map((d) => [d.id, d.os === 'iOS' ? ('ios' as const) : ('android' as const)]));
        return ids.map((device) => ({ device, key: lookup.key(device), platform: os.get(device) })).filter((c) => !mine.has(c.key));
      };
      const queue = platform ?? `device ${entry}`;
      const busy = async () => describeBusy(leases, await candidates(), queue);
      try {
        taken.push(await leases.wait({
          candidates,
          queue,
          wants: platform === undefined ? { key: (await options.engine.lookupDevices()).key(entry) } : { platform: platform as 'android' | 'ios' | 'cross-platform' },
          timeoutMs: options.timeoutMs,
          pollMs: 250,
          signal: options.signal,
          onWaiting: async () => options.log(`waiting up to ${Math.round(options.timeoutMs / 1000)} s for a free ${platform ? `${platform} device` : entry}, first come first served (${await busy()})`),
        }));
      } catch (err) {
        if (!(err instanceof LeaseTimeout)) throw err;
        if (options.timeoutMs <= 0) throw new LeaseTimeout(`no free ${platform ? `${platform} device` : entry}: ${await busy()}; pass --lease-timeout 10m to wait in line for one`);
        throw new LeaseTimeout(`${err.message}: ${await busy()}`);
      }
    }
    return taken;
  } catch (err) {
    for (const l of taken) l.release();
    throw err;
  }
}

function describeBusy(leases: FileLeases, candidates: LeaseCandidate[], queue: string): string {
  if (!candidates.length) return `no ready ${queue} device is connected`;
  const held = candidates.map(({ device, key }) => {
    const h = leases.holder(key);
    return h ? `${device} leased by pid ${h.pid} on ${h.host} since ${h.since}` : `${device} free`;
  });
  return `all busy: ${held.join('; ')}`;
}
