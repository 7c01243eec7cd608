import type { BridgeClient } from '../../src/protocol/client.js';
import { isFailureResult, type LockInfo } from '../../src/protocol/methods.js';
import type { DeviceLockParams, LockPurpose } from '../../src/protocol/notifications.js';
import type { ActivityPanel } from './activity-panel.js';
import type { ControlNotice } from './control-notice.js';
import { who, type LockBadge } from './lock-badge.js';

/** How the notice's sentence ends when the connection dropped (ControlNotice.show). */
const DROPPED = ' when the connection dropped';

/**
 * Pair debugging around the watched device: the history a late joiner missed (activity.recent),
 * the lock badge kept current from device.lock, Take control / Release, and the notice when this
 * page loses a lock it held without releasing it.
 */
export class PairDebugging {
  private device: string | undefined;
  /** This page's session holds the watched device's lock, as last heard. */
  private mine = false;
  /** What the watched device's lock is for, as last heard (a run of this page's keeps its lock when the page looks elsewhere). */
  private purpose: LockPurpose | undefined;
  /**
   * The device whose lock this page held when its connection dropped. The bridge frees a lock as
   * soon as its holder's socket goes and a resumed session does not get it back, so after the
   * reconnect the page looks again rather than trust what it heard before the drop (the release
   * may also be among the notifications the bridge could not replay).
   */
  private heldAtDrop: string | undefined;

  constructor(
    private readonly client: BridgeClient,
    private readonly activity: ActivityPanel,
    private readonly badge: LockBadge,
    private readonly lost: ControlNotice,
    private readonly notice: (message: string) => void,
  ) {
    client.on('device.lock', (p) => this.onLock(p));
    client.onState((state) => {
      if (state === 'open') return;
      if (this.mine && this.device) this.heldAtDrop = this.device;
      this.badge.unknown();
    });
    client.onSession((e) => {
      if (e.initial) return;
      // A new session (the old one expired, or the bridge restarted): what happened meanwhile was never
      // sent, and a restarted bridge numbers its entries from 1 again, so the old rows would be taken
      // for new entries with the same number. The feed starts over from the bridge's own history.
      if (!e.resumed) this.activity.clear();
      // The badge said "unknown" while the bridge was away: ask who holds the device now.
      if (this.device) void this.watch(this.device, { history: !e.resumed });
    });
  }

  /** The page now watches this device (subscribed): fetch what it missed and who holds it. */
  async watch(device: string | undefined, { history = true } = {}): Promise<void> {
    if (device !== this.device) {
      // A lost lock is about the device it was lost on, not the one now shown.
      this.lost.hide();
      this.heldAtDrop = undefined;
      if (this.device && this.mine) this.releaseLeft(this.device, device);
      this.mine = false;
    }
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
    if (isFailureResult(recent)) {
      // The device went away between the listing and this look (DEVICE_NOT_FOUND): no history to show.
      this.notice(`No recent activity for ${device}: ${recent.message}`);
      return;
    }
    if (history) this.activity.history(recent.entries, this.client.session);
    this.showLock(recent.lock);
    // The bridge replays a resumed session's missed notifications before answering anything else, so a
    // release among them was handled already; this look settles the drop either way.
    if (this.heldAtDrop === device) {
      if (!this.mine) this.lost.show(device, DROPPED);
      this.heldAtDrop = undefined;
    }
  }

  async takeControl(): Promise<void> {
    const device = this.device;
    if (!device) return;
    // A takeover cancels the holder's scenario run, or takes the device from a leasing job: never by one unasked click.
    const warning = this.badge.takeoverWarning();
    if (warning && !confirm(warning)) return;
    const result = await this.request(() => this.client.request('devices.lock', { device, takeover: true }));
    if (result && !isFailureResult(result) && device === this.device) this.showLock(result);
  }

  /**
   * The user looks at another device: the lock of the one they leave goes, as closing a scrcpy window
   * or an Inspector session frees the phone; held on, it would block colleagues while this page shows
   * it nowhere. A run of this page's keeps its lock (it needs the device until it ends).
   */
  private releaseLeft(left: string, now: string | undefined): void {
    if (this.purpose?.kind === 'run') return this.notice(`Your scenario run keeps ${left} locked until it ends, also while you look at ${now ?? 'other screens'}.`);
    void this.client.request('devices.unlock', { device: left }).then(
      (r) => this.notice(isFailureResult(r) ? `Could not release ${left}: ${r.message}` : `Released ${left} (you held it) as you left it: others may act on it now.`),
      (err: unknown) => this.notice(`Could not release ${left}: ${err instanceof Error ? err.message : String(err)}. It is freed when this page closes.`),
    );
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
    this.show(lock ? { holder: lock.holder, since: lock.since, ...(lock.purpose ? { purpose: lock.purpose } : {}) } : { holder: null });
  }

  private show(lock: Pick<DeviceLockParams, 'holder' | 'since' | 'purpose'>): void {
    this.mine = lock.holder !== null && lock.holder.session === this.client.session;
    this.purpose = lock.holder ? lock.purpose : undefined;
    this.badge.show({ holder: lock.holder, ...(lock.since ? { since: lock.since } : {}), ...(lock.purpose ? { purpose: lock.purpose } : {}), mine: this.mine });
    if (!this.mine) return;
    this.lost.hide();
    this.heldAtDrop = undefined;
  }

  private onLock(p: DeviceLockParams): void {
    if (p.device !== this.device) return;
    const me = this.client.session;
    this.show(p);
    if (this.mine) return;
    if (p.previous?.session === me) {
      // Released by this page (Release, the end of its own run) says no reason; anything else took the lock from it.
      if (p.holder) this.lost.show(p.device, `: ${who(p.holder)} took it over`);
      else if (this.heldAtDrop === p.device) this.lost.show(p.device, DROPPED);
      else if (p.reason) this.lost.show(p.device, `: ${p.reason}`);
      return;
    }
    // A lock lost earlier moved on (released, taken by another): a notice still on screen must not say only who took it then.
    this.lost.lockMoved(p.device, p.holder && who(p.holder));
    if (!p.holder && p.reason && p.previous) this.notice(`${p.device} is unlocked: ${p.previous.client ?? 'its holder'} ${p.previous.session.slice(0, 6)} — ${p.reason}`);
  }
}
