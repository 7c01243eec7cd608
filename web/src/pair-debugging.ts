import type { BridgeClient } from '../../src/protocol/client.js';
import { isFailureResult, type DeviceLockParams, type LockInfo } from '../../src/protocol/methods.js';
import type { ActivityPanel } from './activity-panel.js';
import type { LockBadge } from './lock-badge.js';

/**
 * Pair debugging around the watched device: the history a late joiner missed (activity.recent),
 * the lock badge kept current from device.lock, and Take control / Release.
 */
export class PairDebugging {
  private device: string | undefined;

  constructor(
    private readonly client: BridgeClient,
    private readonly activity: ActivityPanel,
    private readonly badge: LockBadge,
    private readonly notice: (message: string) => void,
  ) {
    client.on('device.lock', (p) => this.onLock(p));
    // A new session (the old one expired, or the bridge restarted): what happened meanwhile was never
    // sent, and a restarted bridge numbers its entries from 1 again, so the old rows would be taken
    // for new entries with the same number. The feed starts over from the bridge's own history.
    client.onSession((e) => {
      if (e.initial || e.resumed) return;
      this.activity.clear();
      if (this.device) void this.watch(this.device);
    });
  }

  /** The page now watches this device (subscribed): fetch what it missed. */
  async watch(device: string | undefined): Promise<void> {
    this.device = device;
    if (!device) return this.badge.show(undefined);
    let recent;
    try {
      recent = await this.client.request('activity.recent', { device });
    } catch (err) {
      this.notice(`Could not fetch the recent activity of ${device}: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    if (device !== this.device) return;
    this.activity.history(recent.entries, this.client.session);
    this.showLock(recent.lock);
  }

  async takeControl(): Promise<void> {
    const device = this.device;
    if (!device) return;
    const result = await this.request(() => this.client.request('devices.lock', { device, takeover: true }));
    if (result && !isFailureResult(result) && device === this.device) this.showLock(result);
  }

  async release(): Promise<void> {
    const device = this.device;
    if (!device) return;
    const result = await this.request(() => this.client.request('devices.unlock', { device }));
    if (result && !isFailureResult(result) && device === this.device) this.showLock(null);
  }

  private async request<T>(call: () => Promise<T>): Promise<T | undefined> {
    try {
      const result = await call();
      if (isFailureResult(result)) this.notice(`${result.code}: ${result.message}`);
      return result;
    } catch (err) {
      this.notice(`Not done: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  private showLock(lock: LockInfo | null): void {
    this.badge.show(lock ? { holder: lock.holder, since: lock.since, mine: lock.holder.session === this.client.session } : { holder: null, mine: false });
  }

  private onLock(p: DeviceLockParams): void {
    if (p.device !== this.device) return;
    const me = this.client.session;
    this.badge.show({ holder: p.holder, ...(p.since ? { since: p.since } : {}), mine: p.holder?.session === me });
    if (p.holder && p.previous?.session === me && p.holder.session !== me) this.notice(`${p.holder.client ?? 'session'} ${p.holder.session.slice(0, 6)} took control of ${p.device}`);
    else if (!p.holder && p.reason && p.previous && p.previous.session !== me) this.notice(`${p.device} is unlocked: ${p.previous.client ?? 'its holder'} ${p.previous.session.slice(0, 6)} — ${p.reason}`);
  }
}
