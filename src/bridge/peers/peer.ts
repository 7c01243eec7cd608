import { type CallContext, type DeviceHandle, type Driver, type DevicesChange, NotesMemo, type SourceNote } from '../../engine/driver.js';
import type { DeviceInfo } from '../../engine/types.js';
import type { DevicesChangedParams } from '../../protocol/index.js';
import type { PeerSpec } from './peer-spec.js';
import { redact, RpcLink, type LinkState } from './rpc-link.js';

/**
 * Another bridge whose devices this one lists as its own (source = the peer's name). The shared
 * link keeps the peer's device list current from `devices.changed`; while the link is down its
 * devices stay listed offline with the reason, and a reconnect lists them as the peer has them.
 */
export class Peer implements Driver {
  readonly name: string;
  /** Its ids are the peer's: one that another source here reports too is listed as `id@name`. */
  readonly renameOnClash = true;
  readonly link: RpcLink;
  private devices = new Map<string, DeviceInfo>();
  /** The peer's own notes (its sources that do not answer), from its devices.list and devices.changed. */
  private remoteNotes: string[] = [];
  private readonly emittedNotes = new NotesMemo();
  private readonly listeners = new Set<(c: DevicesChange) => void>();
  private readonly reconnectListeners = new Set<() => void>();
  /** The aggregating bridge's own id, and the bridges the peer's devices come from (devices.list `bridges`). */
  private home?: string;
  private remoteBridges: string[] = [];
  /** Why the peer is left out for good: it lists this bridge's devices back (a cycle of --peer flags). */
  private loop?: string;

  constructor(
    readonly spec: PeerSpec,
    options: { client?: string; firstRetryMs?: number; maxRetryMs?: number; pingMs?: number; connectTimeoutMs?: number } = {},
  ) {
    this.name = spec.name;
    this.link = new RpcLink({ ...options, url: spec.url, token: spec.token, client: options.client ?? 'mobilebridge aggregator', reconnect: true });
    this.link.onState((s) => this.onState(s));
    this.link.onNotification((method, params) => {
      if (method === 'devices.changed') this.applyChange(params as DevicesChangedParams);
    });
    this.link.connect();
  }

  /** Called by the aggregating bridge with its own id: a peer that reaches it back is a cycle. */
  attachTo(instance: string): void {
    this.home = instance;
    this.checkLoop();
  }

  /** The bridges this peer's listed devices come from, itself included (empty while it is down or left out). */
  reaches(): string[] {
    return this.up && !this.loop ? this.remoteBridges : [];
  }

  /** Why it lists nothing, while it is down or left out (for the health). */
  get whyDown(): string | undefined {
    return this.loop ?? (this.up ? undefined : this.link.lastError);
  }

  get where(): string {
    return `peer bridge ${redact(this.spec.url)}`;
  }

  /** The ids the peer lists (its own ids), as last heard. */
  ids(): string[] {
    return [...this.devices.keys()];
  }

  owns(device: string): boolean {
    return this.devices.has(device);
  }

  async listDevices(_ctx: CallContext): Promise<DeviceInfo[]> {
    return [...this.devices.values()];
  }

  /** Calls, verbs, runs and frames of a peer's device go to the peer (bridge/peers/router.ts), not through a handle here. */
  async open(_id: string, _ctx: CallContext): Promise<DeviceHandle | undefined> {
    return undefined;
  }

  watch(listener: (change: DevicesChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** After each reconnect, once the device list is back (the frame relay re-subscribes then). */
  onReconnect(fn: () => void): () => void {
    this.reconnectListeners.add(fn);
    return () => this.reconnectListeners.delete(fn);
  }

  /** Connected, with its device list. */
  get up(): boolean {
    return this.link.state === 'open';
  }

  /**
   * While the link is down the peer has no devices: this says why (not while it first connects).
   * While it is up, the peer's own notes, so that a phone missing on another host is explained here too.
   */
  problems(): SourceNote[] {
    if (this.loop) return [{ source: `peer ${this.name}`, text: this.loop, final: true }];
    const why = this.link.lastError;
    if (this.up) return this.remoteNotes.map((note) => this.remote(note));
    if (why === undefined) return [];
    // A refusal (wrong token) is not a host that is down: say which, so nobody waits for it to answer.
    const refused = this.link.refusedStatus;
    if (refused === undefined) return [{ source: `peer ${this.name}`, text: `${this.where} is unreachable (${why})` }];
    // Only an auth status is about this bridge; another (404: a wrong path) is about the URL.
    const what = refused === 401 || refused === 403 || refused === 429 ? 'refuses this bridge' : 'answers, but not as a bridge at this URL';
    return [{ source: `peer ${this.name}`, text: `${this.where} ${what} (${why})`, fix: this.refusalFix(refused) }];
  }

  private refusalFix(status: number): string {
    const restart = 'then restart serve (a running bridge keeps the token it started with)';
    if (status === 401 || status === 403 || status === 429) {
      return `it lists no devices until it accepts this bridge's token, however long it is retried: give its token as --peer ${this.name}=ws://HOST:PORT?token=T (or --peer-token T / MOBILEBRIDGE_PEER_TOKEN for every peer without one), ${restart}`;
    }
    return `it lists no devices until the --peer URL names a running bridge: give it as --peer ${this.name}=ws://HOST:PORT, ${restart}`;
  }

  async close(): Promise<void> {
    this.link.close();
  }

  private onState(s: LinkState): void {
    if (s === 'open') {
      void this.link.request('devices.list', {}).then(
        (r) => {
          const answer = r as { devices?: DeviceInfo[]; notes?: string[]; bridges?: string[] };
          this.remoteBridges = answer.bridges ?? [];
          if (this.checkLoop()) return;
          const listed = (answer.devices ?? []).map((d) => this.own(d));
          const removed = [...this.devices.keys()];
          this.devices = new Map(listed.map((d) => [d.id, d]));
          this.remoteNotes = answer.notes ?? [];
          this.emit({ added: listed, removed });
          for (const l of this.reconnectListeners) l();
        },
        () => undefined,
      );
    } else {
      // SPEC §10: a source that is down keeps its devices listed, offline with the reason, as adb and
      // --wda sources do (until 2026-11-29 they vanished, and only a note said why).
      // Emitted with no devices too: the notes changed (serve logs the peer down from that).
      const removed = [...this.devices.keys()];
      const why = `peer ${this.name} (${this.where}) is unreachable${this.link.lastError ? `: ${this.link.lastError}` : ''}; it is retried with backoff and its devices return by themselves`;
      const offline = [...this.devices.values()].map((d) => ({ ...d, state: 'offline' as const, message: why }));
      this.devices = new Map(offline.map((d) => [d.id, d]));
      this.emit({ added: offline, removed });
    }
  }

  private applyChange(change: DevicesChangedParams): void {
    if (change.bridges) this.remoteBridges = change.bridges;
    if (this.checkLoop()) return;
    for (const id of change.removed) this.devices.delete(id);
    const added = change.added.map((d) => this.own(d));
    for (const d of added) this.devices.set(d.id, d);
    if (change.notes) this.remoteNotes = change.notes;
    this.emit({ added, removed: change.removed });
  }

  /**
   * The peer reaches this bridge back (a --peer to ourselves, or a cycle A → B → A): each side would
   * list the other's devices, its own among them, and nest the other's notes without end. The link
   * is closed for good, the peer's devices dropped, and the reason shown until a restart: which side
   * of a cycle should aggregate the other is for the admin to say.
   */
  private checkLoop(): boolean {
    if (this.loop) return true;
    if (!this.home || !this.remoteBridges.includes(this.home)) return false;
    this.loop = `${this.where} lists this bridge's own devices back: it is this bridge, or aggregates it through --peer (a cycle); its devices are left out. Remove the --peer that closes the cycle (or point it at the right host) and restart`;
    this.link.close();
    return true;
  }

  /** The peer's own source (its adb server's name) is kept in the message; here the source is the peer. */
  private own(d: DeviceInfo): DeviceInfo {
    return { ...d, source: this.name };
  }

  /** "source lab: why" from the peer becomes "peer lab2's source lab": the name says which host. */
  private remote(note: string): SourceNote {
    const colon = note.indexOf(': ');
    const via = `peer ${this.name}`;
    return colon > 0 ? { source: `${via}'s ${note.slice(0, colon)}`, text: note.slice(colon + 2), via } : { source: via, text: note, via };
  }

  /** Tells watchers of changed devices, and of changed problems() alone (Driver.watch). */
  private emit(change: DevicesChange): void {
    const noted = this.emittedNotes.changed(this.problems());
    if (!change.added.length && !change.removed.length && !noted) return;
    for (const l of this.listeners) l(change);
  }
}
