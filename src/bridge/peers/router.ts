import { failure } from '../../engine/errors.js';
import { RpcError, type ValidParamsOf } from '../../protocol/index.js';
import type { Session } from '../sessions.js';
import type { Peer } from './peer.js';
import { FrameRelay, type RelayStats } from './relay.js';
import { RpcLink } from './rpc-link.js';

/** What routing needs of a method call (the bridge's MethodContext has it); kept narrow so peers/ does not import the registry. */
export interface RouteContext {
  readonly session: Session;
  afterResponse(fn: () => void): void;
}

/** Methods that act on one device and go to the peer that has it, as they are. */
const DEVICE_METHODS = new Set(['verbs.run', 'scenarios.run', 'devices.lock', 'devices.unlock', 'agent.assert', 'recording.start', 'recording.stop', 'elements.describe', 'input.touch', 'input.key']);

interface SessionLinks {
  links: Map<Peer, Promise<RpcLink>>;
  /** Scenario runs started through a peer (from scenario.progress), for scenarios.cancel. */
  runs: Map<string, Peer>;
}

/**
 * Sends what concerns a peer's device to that peer: tools, verbs, scenario runs, locks and
 * recordings over a link of the caller's own (so the peer's locks and activity tell sessions
 * apart, and its progress notifications reach only the caller), frames and element events through
 * the shared relay. Everything else stays here.
 */
export class PeerRouter {
  private readonly relays = new Map<Peer, FrameRelay>();
  private readonly sessions = new Map<Session, SessionLinks>();

  constructor(
    readonly peers: Peer[],
    private readonly server: string,
    log: (line: string) => void,
  ) {
    for (const p of peers) this.relays.set(p, new FrameRelay(p, log));
  }

  /** A promise of the answer when the call belongs to a peer, else undefined (handled here as usual). */
  route(method: string, params: Record<string, unknown>, ctx: RouteContext): Promise<unknown> | undefined {
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
      const peer = typeof params.run === 'string' ? this.sessions.get(ctx.session)?.runs.get(params.run) : undefined;
      return peer && this.forward(peer, method, params, ctx);
    }
    const device = method === 'tools.call' ? (params.parameters as { device?: unknown } | undefined)?.device : DEVICE_METHODS.has(method) || method === 'devices.subscribe' ? params.device : undefined;
    if (typeof device !== 'string') return undefined;
    const peer = this.peerOf(device);
    if (!peer) return undefined;
    if (method === 'devices.subscribe') return this.subscribe(peer, params as ValidParamsOf<'devices.subscribe'>, ctx);
    return this.forward(peer, method, params, ctx);
  }

  peerOf(device: string): Peer | undefined {
    return this.peers.find((p) => p.owns(device));
  }

  /** devices.lock on the peer for the caller's own link (a lease taken through this aggregator). */
  lockOnPeer(peer: Peer, device: string, ctx: RouteContext): Promise<unknown> {
    return this.forward(peer, 'devices.lock', { device, takeover: false }, ctx);
  }

  /** Per peer: whether it is connected (else why not: a peer never reached has no devices to show it by) and its frame relay's counts. */
  stats(): Record<string, RelayStats & { up: boolean; error?: string }> {
    return Object.fromEntries(
      [...this.relays].map(([p, r]) => [p.name, { up: p.up, ...(!p.up && p.link.lastError ? { error: p.link.lastError } : {}), ...r.stats }]),
    );
  }

  resumeSession(session: Session): void {
    for (const relay of this.relays.values()) relay.resumeSession(session);
  }

  dropSession(session: Session): void {
    for (const relay of this.relays.values()) relay.dropSession(session);
    const mine = this.sessions.get(session);
    this.sessions.delete(session);
    for (const link of mine?.links.values() ?? []) void link.then((l) => l.close(), () => undefined);
  }

  private async subscribe(peer: Peer, params: ValidParamsOf<'devices.subscribe'>, ctx: RouteContext): Promise<unknown> {
    const outcome = await this.relays.get(peer)!.subscribe(ctx.session, params);
    if ('status' in outcome) return outcome;
    ctx.afterResponse(outcome.start);
    return outcome.sub.info();
  }

  private async forward(peer: Peer, method: string, params: Record<string, unknown>, ctx: RouteContext): Promise<unknown> {
    let link: RpcLink;
    try {
      link = await this.link(peer, ctx.session);
      return await link.request(method, params);
    } catch (err) {
      const code = (err as { rpcCode?: number }).rpcCode;
      if (code !== undefined) throw new RpcError(code, (err as Error).message);
      return failure('DEVICE_NOT_FOUND', `the device is on ${peer.where}, which could not be reached: ${(err as Error).message}; its devices come back by themselves when it answers again`);
    }
  }

  /** The caller's own link to the peer, opened on first use and closed with its session. */
  private link(peer: Peer, session: Session): Promise<RpcLink> {
    let mine = this.sessions.get(session);
    if (!mine) {
      mine = { links: new Map(), runs: new Map() };
      this.sessions.set(session, mine);
    }
    const entry = mine;
    const known = entry.links.get(peer);
    if (known) return known;
    const link = new RpcLink({ url: peer.spec.url, token: peer.spec.token, client: `${session.client ?? session.id} via ${this.server}`, reconnect: false });
    link.onNotification((method, p) => {
      if (method === 'devices.changed') return;
      const run = (p as { type?: string; run_id?: string } | null) ?? {};
      if (method === 'scenario.progress' && run.type === 'started' && run.run_id) entry.runs.set(run.run_id, peer);
      session.notify(method, p);
    });
    // A dropped link is replaced on the next call; locks held on the peer went with its session.
    link.onState((s) => {
      if (s === 'closed' && entry.links.get(peer) === opened) entry.links.delete(peer);
    });
    const opened = link.start().then(() => link, (err: unknown) => {
      entry.links.delete(peer);
      link.close();
      throw err;
    });
    entry.links.set(peer, opened);
    return opened;
  }
}
