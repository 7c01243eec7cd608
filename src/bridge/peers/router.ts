import { randomUUID } from 'node:crypto';
import type { DeviceIds, DeviceOwner } from '../../engine/device-ids.js';
import { failure, type ToolFailure } from '../../engine/errors.js';
import { findTool } from '../../engine/tools/index.js';
import { RpcError, type ValidParamsOf } from '../../protocol/index.js';
import type { Connection } from '../connection.js';
import type { Session } from '../sessions.js';
import { Peer } from './peer.js';
import { PeerSessions } from './peer-sessions.js';
import { FrameRelay, type RelayStats } from './relay.js';
import { asListed, beforeDeadline, renameIds, what, withDevice, withListedMessage } from './forwarded-call.js';
import { PeerLostError, PeerRefusedError, PeerTimeoutError, RpcLink } from './rpc-link.js';

/** What routing needs of a method call (the bridge's MethodContext has it); kept narrow so peers/ does not import the registry. */
export interface RouteContext {
  readonly session: Session;
  /** The socket the call came on: the session may have moved to another one (a resume) while the call was out. */
  readonly connection: Connection<Session>;
  afterResponse(fn: () => void): void;
  /** Aborts when the caller cancels the request (requests.cancel): a forwarded one is cancelled on the peer too. */
  readonly signal?: AbortSignal;
}

/** Methods that act on one device and go to the peer that has it, as they are. */
const DEVICE_METHODS = new Set(['activity.recent', 'verbs.run', 'scenarios.run', 'devices.lock', 'devices.unlock', 'agent.assert', 'recording.start', 'recording.stop', 'recording.adopt', 'recording.discard', 'elements.describe', 'input.touch', 'input.key']);
/**
 * Methods whose length is the work's, not one device call's (a verb waits for its target, a run
 * lasts its steps): no deadline of their own; the link's liveness ping still ends them when the
 * peer stops answering.
 */
const LONG_METHODS = new Set(['verbs.run', 'scenarios.run', 'agent.assert']);

/** What the router needs of the engine: who answers for a listed id, and how a peer's id is listed. */
export interface PeerIds {
  ownerOf(id: string): Promise<DeviceOwner | undefined>;
  readonly ids: Pick<DeviceIds, 'publicId'>;
}

/** A peer's device as the caller named it (`listed`, maybe `id@peer`) and as the peer knows it (`remote`). */
export interface PeerDevice {
  peer: Peer;
  remote: string;
  listed: string;
}

export interface RouterOptions {
  /** The deadline of one call (serve --timeout), counted from its arrival here. */
  callTimeoutMs: number;
  /** Per-session links: liveness ping interval and connect deadline (RpcLinkOptions). */
  pingMs?: number;
  connectTimeoutMs?: number;
}

/**
 * Sends what concerns a peer's device to that peer: tools, verbs, scenario runs, locks and
 * recordings over a link of the caller's own (so the peer's locks and activity tell sessions
 * apart, and its progress notifications reach only the caller), frames and element events through
 * the shared relay. Everything else stays here.
 */
export class PeerRouter {
  private readonly relays = new Map<Peer, FrameRelay>();
  private readonly onPeers: PeerSessions;
  /** This bridge among others (devices.list `bridges`): how a cycle of --peer flags is recognised. */
  private readonly instance = randomUUID();

  constructor(
    readonly peers: Peer[],
    server: string,
    log: (line: string) => void,
    private readonly engine: PeerIds,
    private readonly options: RouterOptions = { callTimeoutMs: 30_000 },
  ) {
    this.onPeers = new PeerSessions(server, options, (peer, remote) => this.listedId(peer, remote), (peer, remote) => this.relays.get(peer)?.participants(remote) ?? new Set());
    for (const p of peers) {
      this.relays.set(p, new FrameRelay(p, log, (remote) => this.listedId(p, remote), (params) => this.onPeers.ownSessions(p, params) as Record<string, unknown>, this.options.callTimeoutMs));
      p.attachTo(this.instance);
    }
  }

  /** This bridge and every bridge its peers' devices come from (devices.list `bridges`). */
  reaches(): string[] {
    return [...new Set([this.instance, ...this.peers.flatMap((p) => p.reaches())])];
  }

  /** The id a peer's device is listed by here (`id@peer` when another source reports `id` too). */
  listedId(peer: Peer, remote: string): string {
    return this.engine.ids.publicId(peer, remote);
  }

  /**
   * The peer and its own id for a device id as listed here, undefined for the bridge's own devices;
   * a DEVICE_NOT_FOUND failure for a bare id that several peers report (each listed it as `id@peer`).
   */
  async onPeer(device: string): Promise<PeerDevice | ToolFailure | undefined> {
    const owner = await this.engine.ownerOf(device);
    if (!owner) return undefined;
    if ('ambiguous' in owner) return failure('DEVICE_NOT_FOUND', `device id ${device} is reported by several peer bridges; use one of ${owner.ambiguous.join(', ')}`);
    const peer = this.peers.find((p) => p === owner.driver);
    return peer && { peer, remote: owner.id, listed: device };
  }

  /**
   * A promise of the answer when the call may concern a peer's device (`local` answers it when it
   * turns out to be the bridge's own), else undefined (handled here as usual).
   */
  route(method: string, params: Record<string, unknown>, ctx: RouteContext, local: () => unknown): Promise<unknown> | undefined {
    if (method === 'devices.unsubscribe') {
      const sub = ctx.session.subscriptions.get(String(params.subscription));
      for (const relay of this.relays.values()) {
        if (sub && relay.owns(sub)) {
          relay.unsubscribe(sub);
          return Promise.resolve({});
        }
      }
      return undefined;
    }
    if (method === 'scenarios.cancel') {
      const runs = this.onPeers.runs(ctx.session);
      if (typeof params.run === 'string') {
        const peer = runs?.get(params.run);
        return peer && this.forward(peer, method, params, ctx);
      }
      const peers = [...new Set(runs?.values() ?? [])];
      return peers.length ? this.cancelEverywhere(peers, ctx, local) : undefined;
    }
    const device = method === 'tools.call' ? (params.parameters as { device?: unknown } | undefined)?.device : DEVICE_METHODS.has(method) || method === 'devices.subscribe' ? params.device : undefined;
    if (typeof device !== 'string' || !this.mayBeOnPeer(device)) return undefined;
    return this.onPeer(device).then((target) => {
      if (!target) return local();
      if ('status' in target) return target;
      if (method === 'devices.subscribe') return this.subscribe(target, params as ValidParamsOf<'devices.subscribe'>, ctx);
      return this.forward(target, method, withDevice(method, params, target.remote), ctx);
    });
  }

  /**
   * scenarios.cancel without a run: the session's runs here and on every peer it runs on. A peer
   * that does not answer makes the whole call a failure that says what was cancelled: "cancelled
   * [a, b]" would tell a CI clean-up step that nothing else is running.
   */
  private async cancelEverywhere(peers: Peer[], ctx: RouteContext, local: () => unknown): Promise<unknown> {
    const answers = await Promise.all([Promise.resolve().then(local), ...peers.map((p) => this.forward(p, 'scenarios.cancel', {}, ctx))]);
    const cancelled: string[] = [];
    const silent: string[] = [];
    answers.forEach((answer, i) => {
      const list = (answer as { cancelled?: unknown } | null)?.cancelled;
      if (Array.isArray(list)) cancelled.push(...list.map(String));
      else silent.push(i === 0 ? 'this bridge' : `${peers[i - 1].where} (${(answer as { message?: string } | null)?.message ?? 'no answer'})`);
    });
    if (!silent.length) return { cancelled };
    return failure('DEVICE_NOT_FOUND', `cancelled ${cancelled.length ? cancelled.join(', ') : 'nothing'}; could not ask ${silent.join('; ')}: runs there may still be going; call scenarios.cancel again once it answers`);
  }

  /** Cheap first look, so that calls on the bridge's own devices take no detour: a peer lists the id, or it names a peer. */
  private mayBeOnPeer(device: string): boolean {
    const at = device.lastIndexOf('@');
    return this.peers.some((p) => p.owns(device) || (at > 0 && p.name === device.slice(at + 1)));
  }

  /**
   * devices.lock on the peer for the caller's own link (a lease taken through this aggregator). A
   * device the caller already holds there is not leased again: the peer would answer with the
   * caller's own lock, and `run --devices any:android,any:android` would get one phone twice.
   */
  lockOnPeer(target: PeerDevice, ctx: RouteContext): Promise<unknown> {
    if (this.onPeers.held(ctx.session).holdsLock(target.peer, target.remote)) {
      return Promise.resolve(failure('PERMISSION_DENIED', `device ${target.listed} is already locked by this session`));
    }
    return this.forward(target, 'devices.lock', { device: target.remote, takeover: false }, ctx);
  }

  /** Per peer: whether it is connected (else why not: a peer never reached has no devices to show it by) and its frame relay's counts. */
  stats(): Record<string, RelayStats & { up: boolean; error?: string }> {
    return Object.fromEntries(
      [...this.relays].map(([p, r]) => [p.name, { up: p.up, ...(p.whyDown ? { error: p.whyDown } : {}), ...r.stats }]),
    );
  }

  resumeSession(session: Session): void {
    for (const relay of this.relays.values()) relay.resumeSession(session);
  }

  /** The session's socket dropped: its locks and fingers on peers go now, as local ones do. */
  detachSession(session: Session): void {
    this.onPeers.detach(session);
  }

  /** Cancels the session's fingers on peers (only the one on `only` when given). */
  liftFingers(session: Session, only?: { peer: Peer; device: string }): void {
    this.onPeers.liftFingers(session, only);
  }

  dropSession(session: Session): void {
    for (const relay of this.relays.values()) relay.dropSession(session);
    this.onPeers.drop(session);
  }

  private async subscribe(target: PeerDevice, params: ValidParamsOf<'devices.subscribe'>, ctx: RouteContext): Promise<unknown> {
    const outcome = await this.relays.get(target.peer)!.subscribe(ctx.session, params, target.remote);
    if ('status' in outcome) return outcome;
    ctx.afterResponse(outcome.start);
    return outcome.sub.info();
  }

  private async forward(target: PeerDevice | Peer, method: string, params: Record<string, unknown>, ctx: RouteContext): Promise<unknown> {
    const peer = target instanceof Peer ? target : target.peer;
    const down = target instanceof Peer ? undefined : this.knownDown(target, ctx.session);
    if (down) return down;
    // Messages here name the device as the caller did: the peer's own id may be another phone here.
    const label = target instanceof Peer ? what(method, params) : what(method, withDevice(method, params, target.listed));
    const arrived = performance.now();
    const deadline = this.deadlineOf(method, params);
    let link: RpcLink;
    try {
      const opening = this.onPeers.link(peer, ctx.session);
      link = await (deadline === undefined ? opening : beforeDeadline(opening, deadline, `connecting to it took longer than the call's deadline of ${deadline} ms`));
    } catch (err) {
      if (err instanceof PeerTimeoutError) return failure('TIMEOUT', `${label}: ${peer.where} did not answer in time (${err.message}); nothing was sent to it, so the call will not run there`);
      // Waiting does not bring these devices back: the tokens must match first.
      if (err instanceof PeerRefusedError) return failure('DEVICE_NOT_FOUND', `the device is on ${peer.where}, which refuses this bridge: ${err.message}; give this bridge the peer's token (then restart it), or start the peer with this one`);
      return failure('DEVICE_NOT_FOUND', `the device is on ${peer.where}, which could not be reached: ${(err as Error).message}; its devices come back by themselves when it answers again`);
    }
    const left = deadline === undefined ? undefined : deadline - (performance.now() - arrived);
    // Connecting took the whole deadline: the call was never sent, so it cannot run later.
    if (left !== undefined && left <= 0) return failure('TIMEOUT', `${label}: did not start within ${deadline} ms: connecting to ${peer.where} took that long; nothing was sent to the peer`);
    const sent = performance.now();
    // A session that ended while connecting has no entry any more; nothing of it is kept then.
    const held = this.onPeers.held(ctx.session);
    const device = String(params.device);
    if (method === 'scenarios.run') held.runStarted(peer, device);
    try {
      const result = await link.request(method, params, left, ctx.signal);
      held.noteResult(peer, method, params, result);
      return target instanceof Peer ? result : withListedMessage(this.onPeers.ownSessions(peer, asListed(result, target)), this.renames(target));
    } catch (err) {
      const code = (err as { rpcCode?: number }).rpcCode;
      if (code !== undefined) throw new RpcError(code, target instanceof Peer ? (err as Error).message : renameIds((err as Error).message, this.renames(target)));
      if (err instanceof PeerTimeoutError) {
        held.noteTimedOut(peer, method, params);
        return this.timedOut(peer, link, method, params, err, sent, label);
      }
      // "Could not be reached" would tell a CI job or agent that nothing happened, yet the peer may
      // have run the request (or part of a scenario) before it went away.
      if (err instanceof PeerLostError) {
        return { ...failure('DEVICE_NOT_FOUND', `${label}: the connection to ${peer.where} was lost while the call was out${err.reason ? ` (${err.reason})` : ''}; it may have run there, fully or in part: check the device before repeating it. Its devices come back by themselves when the peer answers again`), may_have_run: true };
      }
      return failure('DEVICE_NOT_FOUND', `the device is on ${peer.where}, which could not be reached: ${(err as Error).message}; its devices come back by themselves when it answers again`);
    } finally {
      if (method === 'scenarios.run') held.runEnded(peer, device);
      // The call's socket stopped being the session's while the call was out. Dropped: the holder
      // left (a lock just taken, a run that kept its lease, a finger put down). Replaced by a resume:
      // a finger this call put down belongs to the old socket's drag, which is over; locks stay.
      if (!ctx.session.ended && ctx.session.connection !== ctx.connection) {
        if (!ctx.session.connection) this.detachSession(ctx.session);
        else if (method === 'input.touch') this.liftFingers(ctx.session, { peer, device });
      }
    }
  }

  /**
   * A device of a peer known to be down (listed offline, with the reason) and no link of the
   * session's own to it: DEVICE_NOT_FOUND at once, as for an offline adb or --wda device. Opening a
   * link would wait its connect deadline first on a frozen peer (one that accepts the TCP connection
   * and never answers), and nothing would run there anyway. Not while the peer first connects (no
   * reason yet): that call waits for it.
   */
  private knownDown(target: PeerDevice, session: Session): ToolFailure | undefined {
    const { peer } = target;
    const why = peer.whyDown;
    if (peer.up || why === undefined || this.onPeers.hasLink(session, peer)) return undefined;
    if (peer.link.refusedStatus !== undefined) {
      return failure('DEVICE_NOT_FOUND', `device ${target.listed} is on ${peer.where}, which refuses this bridge: ${why}; give this bridge the peer's token (then restart it), or start the peer with this one`);
    }
    return failure('DEVICE_NOT_FOUND', `device ${target.listed} is offline: it is on ${peer.where}, which is down (${why}); nothing was sent to it. Its devices come back by themselves when it answers again (devices.changed says so)`);
  }

  /**
   * The peer's ids that are listed otherwise here (`id@peer`), the call's device among them (also an
   * id the peer does not list: its "not found" names it): how the peer's messages are read here.
   */
  private renames(target: PeerDevice): Map<string, string> {
    const out = new Map<string, string>();
    for (const id of target.peer.ids()) {
      const listed = this.listedId(target.peer, id);
      if (listed !== id) out.set(id, listed);
    }
    if (target.remote !== target.listed) out.set(target.remote, target.listed);
    // "locked by session s-…": the peer's id of a session here is that session's id here.
    for (const [remote, session] of this.onPeers.remoteIds(target.peer)) out.set(remote, session.id);
    return out;
  }

  /** The call's own deadline here: a tool's (an install takes longer), else --timeout; none for verbs and runs. */
  private deadlineOf(method: string, params: Record<string, unknown>): number | undefined {
    if (LONG_METHODS.has(method)) return undefined;
    if (method === 'tools.call') {
      const tool = findTool(String(params.tool));
      return (tool && !('global' in tool) ? tool.timeoutMs : undefined) ?? this.options.callTimeoutMs;
    }
    return this.options.callTimeoutMs;
  }

  /**
   * A call the peer did not answer in time: TIMEOUT, saying that it may still run there. When the
   * peer has said nothing at all since the request went out (no answer, no pong), it is most likely
   * stopped with the request unread in its socket: cutting this session's link then keeps it from
   * running on resume (a bridge does not run requests read from a connection already gone), and
   * ends whatever the session held there (a lock) when the peer reads the close.
   */
  private timedOut(peer: Peer, link: RpcLink, method: string, params: Record<string, unknown>, err: PeerTimeoutError, sent: number, label: string): unknown {
    const silent = link.lastHeard < sent;
    if (!err.unresponsive && silent) link.terminate(`${peer.where} said nothing for the whole deadline of a call`);
    const why = err.unresponsive ? err.message : `${peer.where} did not answer within ${this.deadlineOf(method, params)} ms`;
    return {
      ...failure(
        'TIMEOUT',
        `${label}: ${why}. ${silent || err.unresponsive ? 'The peer looks stopped or frozen; the connection to it was cut, so a request it has not read yet is not run when it recovers, but one it already read may still run then' : 'The peer answers otherwise, so the call may still complete there'}: check the device before repeating a mutating call`,
      ),
      may_have_run: true,
    };
  }
}
