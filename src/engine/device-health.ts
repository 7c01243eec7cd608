import type { DeviceInfo } from './types.js';

/**
 * Which devices stopped answering (issue 16): a device whose last call ran into its deadline is
 * listed as `not_responding` (with what hung and since when) until a call on it succeeds again, so
 * callers and viewers see why everything on it times out instead of guessing.
 */
export class DeviceHealth {
  private readonly hung = new Map<string, { what: string; since: number }>();

  timedOut(id: string, what: string): boolean {
    const fresh = !this.hung.has(id);
    if (fresh) this.hung.set(id, { what, since: Date.now() });
    return fresh;
  }

  /** What ran into its deadline on a device judged hung now; undefined while it answers. */
  hungOn(id: string): string | undefined {
    return this.hung.get(id)?.what;
  }

  answered(id: string): boolean {
    return this.hung.delete(id);
  }

  forget(id: string): void {
    this.hung.delete(id);
  }

  decorate(devices: DeviceInfo[]): DeviceInfo[] {
    return devices.map((d) => {
      const h = this.hung.get(d.id);
      if (!h || (d.state && d.state !== 'ready')) return d;
      return { ...d, state: 'not_responding', message: `not responding: ${h.what} did not finish in time (since ${new Date(h.since).toISOString()}); calls on it answer TIMEOUT until it answers again` };
    });
  }
}
