import { failure, isToolFailure, type ToolFailure } from '../../engine/errors.js';
import {
  SCREEN_DEFAULTS,
  type EffectiveScreenOptions,
  type ElementsChangedParams,
  type StreamChangedParams,
  type SubscriptionEndedParams,
  type SubscriptionPausedParams,
  type SubscriptionResumedParams,
  type ValidParamsOf,
} from '../../protocol/index.js';
import { SharedNotification } from '../outgoing.js';
import type { Session } from '../sessions.js';
import { Subscription } from '../sessions.js';
import type { Peer } from './peer.js';
import { RelayDelivery, type RelayedFrame as Message } from './relay-delivery.js';
import { RelayedElements } from './relayed-elements.js';
import { renameIds } from './forwarded-call.js';

/** One subscription on the peer, shared by every viewer here that asked for the same thing. */
interface Group {
  key: string;
  device: string;
  params: { device: string; screen?: Record<string, unknown>; elements: boolean };
  upstream?: string;
  subs: Set<Subscription>;
  /** Enough to start a new viewer: the last picture, or (video) the configuration and the frames since the key frame. */
  recent: Message[];
  elements?: RelayedElements;
  /** What the peer answered: the format frames really come in (SPEC §9), and from where. */
  stream?: Subscription['stream'];
  /** The subscription on the peer being made: whoever joins meanwhile waits for it and shares its fate. */
  ready: Promise<ToolFailure | undefined>;
}

const MAX_RECENT = 600;

export interface RelayStats {
  /** Frame messages received from the peer (each encoded once there). */
  received: number;
  /** Frame messages sent to viewers here. */
  sent: number;
  /** Subscriptions open on the peer now (one per device and screen options watched here), not ever made. */
  upstreamSubscriptions: number;
}

/**
 * Frames and element events of a peer's devices: one subscription on the peer per (device, screen
 * options) however many viewers here watch, its binary messages passed on with only the header's
 * subscription id rewritten (the image or video bytes are never decoded, so any format the peer
 * sends goes through). Survives the peer going away: viewers keep their subscriptions and the
 * relay subscribes again when the peer is back.
 */
/** Stands for "no answer in time" in the race against the peer's answer. */
const LATE = Symbol('late');

export class FrameRelay {
  private readonly groups = new Map<string, Group>();
  private readonly byUpstream = new Map<string, Group>();
  private readonly of = new Map<Subscription, Group[]>();
  private readonly delivery: RelayDelivery;
  /**
   * Frames for a peer subscription whose devices.subscribe answer we have not processed yet: ws hands
   * over the answer and the first frames of one TCP read back to back, before the answer's awaiter runs.
   */
  private readonly early = new Map<string, (() => void)[]>();
  private received = 0;
  /** Viewers told their frames stopped because the peer went down; told again when the peer is back. */
  private readonly paused = new Set<Subscription>();
  private subscribing = 0;

  constructor(
    private readonly peer: Peer,
    log: (line: string) => void,
    /** The id a device of the peer is listed by here (`id@peer` when it clashes). */
    private readonly listedId: (remote: string) => string,
    /** A device.lock / device.activity with the peer's ids of this bridge's sessions as this bridge's (PeerRouter.ownSessions). */
    private readonly ownSessions: (params: Record<string, unknown>) => Record<string, unknown> = (p) => p,
    /**
     * How long the peer may take to answer devices.subscribe (its own start of video included). A peer
     * that still answers pings keeps its link up, so without this a viewer's subscribe could wait forever.
     */
    private readonly subscribeTimeoutMs = 30_000,
  ) {
    this.delivery = new RelayDelivery(log);
    peer.link.onBinary((data) => this.onFrame(data));
    peer.link.onNotification((method, params) => this.onNotification(method, params));
    peer.link.onState((s, why) => {
      if (s !== 'open') {
        this.byUpstream.clear();
        for (const g of this.groups.values()) g.upstream = undefined;
      }
      if (s === 'down') this.pauseAll(why);
      // Closed for good (a cycle of --peer flags found on reconnect, or this bridge closing): nothing
      // resumes the paused subscriptions, so they end, with the reason.
      if (s === 'closed') for (const g of [...this.groups.values()]) this.endGroup(g, `${this.peer.where}, which has the device, is left out: ${this.peer.whyDown ?? why ?? 'its link was closed'}`);
    });
    peer.onReconnect(() => void this.resubscribeAll());
  }

  get stats(): RelayStats {
    return { received: this.received, sent: this.delivery.sent, upstreamSubscriptions: this.byUpstream.size };
  }

  owns(sub: Subscription): boolean {
    return this.of.has(sub);
  }

  /** Sessions watching a device (the peer's own id) through this relay (activity and lock events go to them). */
  participants(device: string): Set<Session> {
    const out = new Set<Session>();
    for (const g of this.groups.values()) if (g.device === device) for (const s of g.subs) out.add(s.session);
    return out;
  }

  /** `p.device` as listed here; `remote`, the peer's own id for it. */
  async subscribe(session: Session, p: ValidParamsOf<'devices.subscribe'>, remote: string): Promise<{ sub: Subscription; start(): void } | ToolFailure> {
    const screen: EffectiveScreenOptions | undefined = p.screen && {
      maxFps: p.screen.maxFps ?? SCREEN_DEFAULTS.maxFps,
      maxWidth: p.screen.maxWidth ?? null,
      format: p.screen.format ?? SCREEN_DEFAULTS.format,
      quality: p.screen.quality ?? SCREEN_DEFAULTS.quality,
    };
    const wanted: Group['params'][] = [];
    if (screen) {
      const { maxWidth, ...rest } = screen;
      wanted.push({ device: remote, screen: maxWidth === null ? rest : { ...rest, maxWidth }, elements: false });
    }
    if (p.elements) wanted.push({ device: remote, elements: true });
    if (!wanted.length) wanted.push({ device: remote, elements: false });
    const sub = new Subscription(session, p.device, screen, p.elements);
    const groups: Group[] = [];
    for (const params of wanted) {
      const group = await this.group(params);
      if (isToolFailure(group)) {
        for (const g of groups) this.leave(g, sub);
        return group;
      }
      group.subs.add(sub);
      groups.push(group);
    }
    if (session.ended) {
      for (const g of groups) this.leave(g, sub);
      return failure('INVALID_PARAMETER', 'the session ended while subscribing');
    }
    const shown = groups.find((g) => g.stream);
    if (shown && sub.screen) sub.stream = shown.stream;
    this.of.set(sub, groups);
    this.delivery.add(sub);
    session.subscriptions.set(sub.id, sub);
    return {
      sub,
      start: () => {
        if (!this.delivery.start(sub)) return;
        for (const g of groups) {
          for (const m of g.recent) this.delivery.deliver(sub, m);
          this.sendElementReset(sub, g);
        }
      },
    };
  }

  /** A resumed session: its element diffs were let go while it was away (Session.dropElementDiffs), so each element subscription starts over. */
  resumeSession(session: Session): void {
    for (const sub of session.subscriptions.values()) {
      if (!this.delivery.started(sub)) continue;
      for (const g of this.of.get(sub) ?? []) this.sendElementReset(sub, g);
    }
  }

  private sendElementReset(sub: Subscription, g: Group): void {
    const reset = g.elements?.reset(sub.id, sub.device);
    if (reset) sub.session.notify('elements.changed', reset);
  }

  unsubscribe(sub: Subscription): void {
    this.paused.delete(sub);
    sub.session.subscriptions.delete(sub.id);
    for (const g of this.of.get(sub) ?? []) this.leave(g, sub);
    this.of.delete(sub);
    this.delivery.remove(sub);
  }

  dropSession(session: Session): void {
    for (const sub of [...this.of.keys()]) if (sub.session === session) this.unsubscribe(sub);
  }

  private async group(params: Group['params']): Promise<Group | ToolFailure> {
    const key = JSON.stringify(params);
    for (;;) {
      let group = this.groups.get(key);
      if (!group) {
        const created: Group = { key, device: params.device, params, subs: new Set(), recent: [], ready: Promise.resolve(undefined), ...(params.elements ? { elements: new RelayedElements() } : {}) };
        this.groups.set(key, created);
        created.ready = this.subscribeUpstream(created).then((outcome) => {
          if (outcome && this.groups.get(key) === created) this.groups.delete(key);
          return outcome;
        });
        group = created;
      }
      // A viewer asking while another one's subscription on the peer is under way waits for it and
      // gets the same answer: joining at once, it would stay in a group dropped if the peer refuses.
      const failed = await group.ready;
      if (failed) return failed;
      // Still the group of these params (its last viewer did not leave while we waited): join it.
      if (this.groups.get(key) === group) return group;
    }
  }

  private async subscribeUpstream(group: Group): Promise<ToolFailure | undefined> {
    let result: unknown;
    this.subscribing++;
    const asked = this.peer.link.request('devices.subscribe', group.params);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<typeof LATE>((resolve) => (timer = setTimeout(() => resolve(LATE), this.subscribeTimeoutMs)));
    try {
      result = await Promise.race([asked, late]);
    } catch (err) {
      return failure('DEVICE_NOT_FOUND', `device ${this.listedId(group.device)} is on ${this.peer.where}, which did not answer: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
      this.subscribing--;
      if (!this.subscribing) queueMicrotask(() => this.subscribing || this.early.clear());
    }
    if (result === LATE) {
      // An answer after this opened a subscription on the peer that nobody here reads: close it then.
      asked.then(
        (answer) => {
          const id = (answer as { subscription?: unknown } | undefined)?.subscription;
          if (typeof id === 'string') void this.peer.link.request('devices.unsubscribe', { subscription: id }).catch(() => undefined);
        },
        () => undefined,
      );
      return failure(
        'TIMEOUT',
        `device ${this.listedId(group.device)} is on ${this.peer.where}, which answers but did not start its stream within ${this.subscribeTimeoutMs / 1000} s; that bridge or its phone may be stuck (its own viewer or log says more); subscribe again later`,
      );
    }
    if (isToolFailure(result)) return { ...result, message: this.named(group.device, result.message) };
    const answer = result as { subscription: string; format?: string; source?: string; fallback_reason?: string };
    const id = answer.subscription;
    if (answer.format && answer.source) {
      group.stream = { format: answer.format, source: answer.source, ...(answer.fallback_reason ? { fallbackReason: this.named(group.device, answer.fallback_reason) } : {}) } as Subscription['stream'];
    }
    if (!this.groups.has(group.key)) {
      void this.peer.link.request('devices.unsubscribe', { subscription: id }).catch(() => undefined);
      return undefined;
    }
    group.upstream = id;
    this.byUpstream.set(id, group);
    // Before any frame of the new subscription, as a local device coming back says so first.
    for (const sub of group.subs) {
      if (this.paused.delete(sub) && this.delivery.started(sub)) sub.session.notify('subscription.resumed', { subscription: sub.id, device: sub.device });
    }
    const early = this.early.get(id);
    this.early.delete(id);
    for (const replay of early ?? []) replay();
    return undefined;
  }

  private leave(group: Group, sub: Subscription): void {
    group.subs.delete(sub);
    if (group.subs.size) return;
    this.groups.delete(group.key);
    if (group.upstream) {
      this.byUpstream.delete(group.upstream);
      void this.peer.link.request('devices.unsubscribe', { subscription: group.upstream }).catch(() => undefined);
    }
  }

  private async resubscribeAll(): Promise<void> {
    for (const group of [...this.groups.values()]) {
      group.recent = [];
      if (group.elements) group.elements.primed = false;
      group.ready = this.subscribeUpstream(group);
      const outcome = await group.ready;
      if (outcome) this.endGroup(group, `${this.peer.where} came back without device ${this.listedId(group.device)}: ${outcome.message}`);
    }
  }

  /** The peer is down: viewers hear it as they would a local device going away, once however many reconnects fail. */
  private pauseAll(why: string | undefined): void {
    const reason = `${this.peer.where}, which has the device, is unreachable${why ? ` (${why})` : ''}; the subscription resumes by itself when it answers again`;
    for (const [sub] of this.of) {
      if (this.paused.has(sub)) continue;
      this.paused.add(sub);
      if (this.delivery.started(sub)) sub.session.notify('subscription.paused', { subscription: sub.id, device: sub.device, reason });
    }
  }

  private endGroup(group: Group, reason: string): void {
    for (const sub of [...group.subs]) {
      this.unsubscribe(sub);
      sub.session.notify('subscription.ended', { subscription: sub.id, device: sub.device, reason });
    }
  }

  private onFrame(data: Buffer): void {
    if (data.length < 4) return;
    const length = data.readUInt32BE(0);
    if (4 + length > data.length) return;
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(data.subarray(4, 4 + length).toString('utf8')) as Record<string, unknown>;
    } catch {
      return;
    }
    const group = this.byUpstream.get(String(header.subscription));
    if (!group) {
      this.keepEarly(String(header.subscription), () => this.onFrame(data));
      return;
    }
    this.received++;
    const message: Message = { data, header, body: data.subarray(4 + length) };
    if ('key' in header) {
      if (header.config || header.key) group.recent = header.config ? [message] : [...group.recent.filter((m) => m.header.config), message];
      else if (group.recent.length < MAX_RECENT) group.recent.push(message);
    } else group.recent = [message];
    for (const sub of group.subs) this.delivery.deliver(sub, message);
  }

  /** The peer's text about its device `remote` naming it as listed here: its bare id may be another phone here (`id@peer` then). */
  private named(remote: string, text: string): string {
    const listed = this.listedId(remote);
    return listed === remote ? text : renameIds(text, new Map([[remote, listed]]));
  }

  private keepEarly(id: string, replay: () => void): void {
    if (!this.subscribing) return;
    const list = this.early.get(id) ?? [];
    if (list.length < MAX_RECENT) list.push(replay);
    this.early.set(id, list);
    // Bounded: only the few subscriptions being answered right now can be early.
    if (this.early.size > 8) this.early.delete(this.early.keys().next().value!);
  }

  private onNotification(method: string, params: unknown): void {
    if (method === 'elements.changed') {
      const p = params as ElementsChangedParams;
      const group = this.byUpstream.get(p.subscription);
      if (!group) return this.keepEarly(p.subscription, () => this.onNotification(method, params));
      if (!group.elements) return;
      group.elements.apply(p);
      // Serialised once for all viewers of the shared subscription, each under its own id.
      const { subscription: _upstream, ...rest } = p;
      const shown = { ...rest, device: this.listedId(group.device) };
      let message: SharedNotification | undefined;
      for (const sub of group.subs) if (this.delivery.started(sub)) sub.session.notifyShared((message ??= new SharedNotification(method, shown, 'subscription')), sub.id);
    } else if (method === 'subscription.ended') {
      const p = params as SubscriptionEndedParams;
      const group = this.byUpstream.get(p.subscription);
      if (!group) return this.keepEarly(p.subscription, () => this.onNotification(method, params));
      this.byUpstream.delete(p.subscription);
      group.upstream = undefined;
      this.groups.delete(group.key);
      this.endGroup(group, this.named(group.device, p.reason));
    } else if (method === 'stream.changed' || method === 'subscription.paused' || method === 'subscription.resumed') {
      // Per-subscription news from the peer (format switched, device away and back): each viewer of the shared subscription hears it under its own id.
      const p = params as StreamChangedParams | SubscriptionPausedParams | SubscriptionResumedParams;
      const group = this.byUpstream.get(p.subscription);
      if (!group) return this.keepEarly(p.subscription, () => this.onNotification(method, params));
      if (method === 'stream.changed') {
        const c = p as StreamChangedParams;
        group.stream = { format: c.format, source: c.source, ...(c.fallback_reason ? { fallbackReason: this.named(group.device, c.fallback_reason) } : {}) } as Subscription['stream'];
        group.recent = [];
      }
      // A pause's reason and a format change's fallback reason name the device too.
      const text = 'reason' in p ? { reason: this.named(group.device, p.reason) } : 'fallback_reason' in p && p.fallback_reason ? { fallback_reason: this.named(group.device, p.fallback_reason) } : {};
      const told = { ...p, ...text };
      for (const sub of group.subs) {
        if (method === 'stream.changed' && sub.screen) sub.stream = group.stream;
        if (this.delivery.started(sub)) sub.session.notify(method, { ...told, subscription: sub.id, device: sub.device });
      }
    } else if (method === 'device.activity' || method === 'device.lock') {
      const device = (params as { device?: string }).device;
      if (typeof device !== 'string') return;
      const listed = this.listedId(device);
      const parameters = (params as { parameters?: unknown }).parameters;
      // The call's own parameters name the device too: the peer's bare id may be another phone here.
      const asCalled = typeof parameters === 'object' && parameters !== null && (parameters as { device?: unknown }).device === device ? { parameters: { ...parameters, device: listed } } : {};
      const message = new SharedNotification(method, this.ownSessions({ ...(params as Record<string, unknown>), device: listed, ...asCalled }));
      for (const s of this.participants(device)) s.notifyShared(message);
    }
  }
}
