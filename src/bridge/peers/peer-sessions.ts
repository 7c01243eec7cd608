import type { Session } from '../sessions.js';
import { HeldOnPeers } from './held-locks.js';
import type { Peer } from './peer.js';
import { RpcLink } from './rpc-link.js';

/** One of this bridge's sessions as the peers see it: a link of its own to each, its runs there, what it holds there. */
interface SessionOnPeers {
  links: Map<Peer, Promise<RpcLink>>;
  /** Scenario runs started through a peer (from scenario.progress), for scenarios.cancel. */
  runs: Map<string, Peer>;
  held: HeldOnPeers;
}

export interface PeerSessionsOptions {
  /** Deadline of the calls sent on their own (an unlock or a finger lifted for a holder that left). */
  callTimeoutMs: number;
  /** Per-session links: liveness ping interval and connect deadline (RpcLinkOptions). */
  pingMs?: number;
  connectTimeoutMs?: number;
}

/**
 * Each session of this bridge that acts on a peer's device has a link of its own to that peer, so
 * the peer's locks and activity tell this bridge's sessions apart and its progress notifications
 * reach only the caller. This keeps those links, what the sessions hold through them, and the
 * peer's ids of the sessions (so its answers name them as this bridge does).
 */
export class PeerSessions {
  private readonly sessions = new Map<Session, SessionOnPeers>();
  /** Per peer, the peer's session id of each open per-session link and the session here it belongs to. */
  private readonly remoteSessions = new Map<Peer, Map<string, Session>>();

  constructor(
    private readonly server: string,
    private readonly options: PeerSessionsOptions,
    /** The id a peer's device is listed by here. */
    private readonly listedId: (peer: Peer, remote: string) => string,
    /** Sessions watching a peer's device (its own id) through the shared frame link: they hear its lock news there. */
    private readonly watchers: (peer: Peer, remote: string) => Set<Session>,
  ) {}

  /** What the session holds on peers; a session that ended while a call was out gets a throwaway record. */
  held(session: Session): HeldOnPeers {
    return this.sessions.get(session)?.held ?? new HeldOnPeers();
  }

  runs(session: Session): Map<string, Peer> | undefined {
    return this.sessions.get(session)?.runs;
  }

  hasLink(session: Session, peer: Peer): boolean {
    return this.sessions.get(session)?.links.has(peer) === true;
  }

  /** The peer's session ids of this bridge's sessions, with this bridge's ids. */
  remoteIds(peer: Peer): ReadonlyMap<string, Session> {
    return this.remoteSessions.get(peer) ?? new Map();
  }

  /**
   * The session's socket dropped: its locks and fingers on peers go now, as local ones do
   * (docs/protocol.md, devices.lock and input.touch), not when its links close at the end of the
   * resume grace.
   */
  detach(session: Session): void {
    const mine = this.sessions.get(session);
    if (!mine) return;
    for (const { device, peer } of mine.held.takeReleasable()) this.tell(mine, peer, 'devices.unlock', { device });
    this.liftFingers(session);
  }

  /**
   * Cancels the session's fingers on peers (only the one on `only`, by the peer's own id, when given):
   * its socket dropped, or the session moved to a new socket and the old socket's drag is over.
   */
  liftFingers(session: Session, only?: { peer: Peer; device: string }): void {
    const mine = this.sessions.get(session);
    if (!mine) return;
    for (const { peer, device, x, y } of mine.held.takeFingers(only)) this.tell(mine, peer, 'input.touch', { device, action: 'cancel', x, y });
  }

  drop(session: Session): void {
    const mine = this.sessions.get(session);
    this.sessions.delete(session);
    for (const link of mine?.links.values() ?? []) void link.then((l) => l.close(), () => undefined);
  }

  /**
   * A peer's answer or notification with its ids of this bridge's sessions (the per-session links)
   * as this bridge's: a lock's `holder` and `previous`, an activity entry's `session`, activity.recent's
   * entries and lock. A client recognises its own lock and actions by its session id; other sessions
   * of the peer keep the peer's ids.
   */
  ownSessions(peer: Peer, value: unknown): unknown {
    const known = this.remoteSessions.get(peer);
    if (!known?.size || typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const swap = (p: unknown): unknown => {
      if (typeof p !== 'object' || p === null || Array.isArray(p)) return p;
      const session = (p as { session?: unknown }).session;
      const mine = typeof session === 'string' ? known.get(session) : undefined;
      return mine ? { ...p, session: mine.id } : p;
    };
    const r = swap(value) as Record<string, unknown>;
    const lock = r.lock as Record<string, unknown> | null | undefined;
    return {
      ...r,
      ...(r.holder ? { holder: swap(r.holder) } : {}),
      ...(r.previous ? { previous: swap(r.previous) } : {}),
      ...(lock && typeof lock === 'object' ? { lock: { ...lock, holder: swap(lock.holder) } } : {}),
      ...(Array.isArray(r.entries) ? { entries: r.entries.map(swap) } : {}),
    };
  }

  /** The caller's own link to the peer, opened on first use and closed with its session. */
  link(peer: Peer, session: Session): Promise<RpcLink> {
    let mine = this.sessions.get(session);
    if (!mine) {
      mine = { links: new Map(), runs: new Map(), held: new HeldOnPeers() };
      this.sessions.set(session, mine);
    }
    const entry = mine;
    const known = entry.links.get(peer);
    if (known) return known;
    const link = new RpcLink({
      url: peer.spec.url,
      token: peer.spec.token,
      client: `${session.client ?? session.id} via ${this.server}`,
      reconnect: false,
      pingMs: this.options.pingMs,
      connectTimeoutMs: this.options.connectTimeoutMs,
    });
    link.onNotification((method, p) => {
      if (method === 'devices.changed') return;
      const run = (p as { type?: string; run_id?: string } | null) ?? {};
      if (method === 'scenario.progress' && run.run_id) {
        if (run.type === 'started') entry.runs.set(run.run_id, peer);
        else if (run.type === 'finished') entry.runs.delete(run.run_id);
      }
      const device = (p as { device?: unknown } | null)?.device;
      // The peer tells a lock's holder and taker on their own links and every watcher on the shared
      // relay link. A session watching the device through the relay hears it there: the copy on this
      // link could arrive after a later change (a takeover after the unlock that followed it) and
      // leave the viewer showing a holder that has already left.
      if (method === 'device.lock' && typeof device === 'string' && this.watchers(peer, device).has(session)) return;
      session.notify(method, this.ownSessions(peer, typeof device === 'string' ? { ...(p as object), device: this.listedId(peer, device) } : p));
    });
    // A dropped link is replaced on the next call; locks held on the peer went with its session.
    link.onState((s) => {
      if (s !== 'closed') return;
      if (link.remoteSession && this.remoteSessions.get(peer)?.get(link.remoteSession) === session) this.remoteSessions.get(peer)!.delete(link.remoteSession);
      if (entry.links.get(peer) !== opened) return;
      entry.links.delete(peer);
      // The peer (restarted, crashed, cut as frozen) ended this session's locks with the link, and
      // says nothing about it: tell the holder, or it would drive on believing the device is its own.
      if (this.sessions.get(session) === entry) this.locksLost(session, peer, entry.held.takeLocksOn(peer), link.lastError);
    });
    const opened = link.start().then(
      () => {
        if (link.remoteSession && link.state === 'open') {
          const ids = this.remoteSessions.get(peer) ?? new Map<string, Session>();
          ids.set(link.remoteSession, session);
          this.remoteSessions.set(peer, ids);
        }
        return link;
      },
      (err: unknown) => {
        entry.links.delete(peer);
        link.close();
        throw err;
      },
    );
    entry.links.set(peer, opened);
    return opened;
  }

  /**
   * Told to the holder and to every session watching the device here. The peer said nothing (it is
   * gone, or its end of this link is), and its watchers hear lock news only from it: without this a
   * viewer keeps showing the holder, through the peer's return too, and a holder that watches the
   * device drops the copy on its own link (see link()) and would not hear it at all; further up a
   * chain of aggregators, this bridge's watchers are the next one's frame link.
   */
  private locksLost(session: Session, peer: Peer, devices: string[], why: string | undefined): void {
    for (const remote of devices) {
      const params = {
        device: this.listedId(peer, remote),
        holder: null,
        previous: session.participant,
        reason: `the connection to ${peer.where} was lost${why ? ` (${why})` : ''}, and the lock ended with it there; lock the device again once it is listed`,
      };
      for (const s of new Set([session, ...this.watchers(peer, remote)])) s.notify('device.lock', params);
    }
  }

  /** A call on the session's own link whose answer nobody waits for. */
  private tell(mine: SessionOnPeers, peer: Peer, method: string, params: Record<string, unknown>): void {
    void mine.links
      .get(peer)
      ?.then((link) => link.request(method, params, this.options.callTimeoutMs))
      .catch(() => undefined);
  }
}
