import { isToolFailure } from '../../engine/errors.js';
import type { Peer } from './peer.js';

/** A finger one of this bridge's sessions has down on a peer's device, and where it was last. */
export interface FingerOnPeer {
  peer: Peer;
  x: number;
  y: number;
}

/** A device on a peer, keyed by both: two peers started the same way report the same ids. */
interface OnPeer {
  peer: Peer;
  device: string;
}

/** A lock on a peer; `unconfirmed`: its devices.lock got no answer in time, so the peer may or may not hold it. */
interface LockOnPeer extends OnPeer {
  unconfirmed?: true;
}
const keyOf = (peer: Peer, device: string) => `${device}\u0000${peer.name}`;

/**
 * What one of this bridge's sessions holds on peers: the devices it locked there, its scenario
 * runs in progress and its fingers down. The peer sees only the aggregator's link, which stays open
 * while the caller's socket is away, so the aggregator applies the local rule itself: a lock goes as
 * soon as its holder disconnects, except one that backs a running scenario, which goes when the run
 * ends; a finger is lifted as soon as its holder disconnects, or its session moves to another socket.
 */
export class HeldOnPeers {
  private readonly locks = new Map<string, LockOnPeer>();
  private readonly runs = new Map<string, number>();
  private readonly fingers = new Map<string, FingerOnPeer & OnPeer>();

  /** Notes what a forwarded call did to the session's locks and fingers (`params` as sent to the peer). */
  noteResult(peer: Peer, method: string, params: Record<string, unknown>, result: unknown): void {
    const device = String(params.device);
    if (method === 'input.touch') return this.noteTouch(peer, device, params, result);
    if (isToolFailure(result)) return;
    if (method === 'devices.lock') this.locks.set(keyOf(peer, device), { peer, device });
    else if (method === 'devices.unlock') this.locks.delete(keyOf(peer, device));
  }

  /**
   * Whether the session holds `device`'s lock on `peer`: the peer would grant it again, as its own. A
   * lock whose devices.lock timed out is not known to be held: the peer is asked again (a lease that
   * counted it as held waited its whole timeout for a device the peer may have given it, or that is free).
   */
  holdsLock(peer: Peer, device: string): boolean {
    const lock = this.locks.get(keyOf(peer, device));
    return lock !== undefined && !lock.unconfirmed;
  }

  private noteTouch(peer: Peer, device: string, params: Record<string, unknown>, result: unknown): void {
    const finger = { peer, device, x: Number(params.x), y: Number(params.y) };
    const key = keyOf(peer, device);
    // An up or cancel ends the peer's stream whatever it answers; a failed down put nothing down.
    if (params.action === 'up' || params.action === 'cancel') this.fingers.delete(key);
    else if (params.action === 'down' && !isToolFailure(result)) this.fingers.set(key, finger);
    else if (params.action === 'move' && this.fingers.has(key)) this.fingers.set(key, finger);
  }

  /**
   * A forwarded call the peer did not answer in time, which may have run there or still run. A down
   * counts as put down, so that the holder's drop cancels it on the peer rather than leaving it to
   * the peer's 15 s idle: a cancel with no finger of the caller's down changes nothing there (the
   * peer answers INVALID_PARAMETER, or PERMISSION_DENIED when another caller's finger is down). An
   * up or cancel that timed out keeps the finger for the same reason. A lock counts as taken, so the
   * drop unlocks it rather than leaving the device locked until the link is cut: an unlock of a lock
   * the caller does not hold changes nothing (released: false, or PERMISSION_DENIED for another's).
   */
  noteTimedOut(peer: Peer, method: string, params: Record<string, unknown>): void {
    const device = String(params.device);
    if (method === 'input.touch' && params.action === 'down') this.fingers.set(keyOf(peer, device), { peer, device, x: Number(params.x), y: Number(params.y) });
    else if (method === 'devices.lock') this.locks.set(keyOf(peer, device), { peer, device, unconfirmed: true });
  }

  runStarted(peer: Peer, device: string): void {
    const key = keyOf(peer, device);
    this.runs.set(key, (this.runs.get(key) ?? 0) + 1);
  }

  runEnded(peer: Peer, device: string): void {
    const key = keyOf(peer, device);
    const left = (this.runs.get(key) ?? 1) - 1;
    if (left > 0) this.runs.set(key, left);
    else this.runs.delete(key);
  }

  /** The locks to give up now that the holder is gone: all but those of devices with a run in progress. */
  takeReleasable(): OnPeer[] {
    const out = [...this.locks].filter(([key]) => !this.runs.has(key));
    for (const [key] of out) this.locks.delete(key);
    return out.map(([, lock]) => lock);
  }

  /** The locks held on `peer`, forgotten: the session's link to it was lost, and they ended with it there. */
  takeLocksOn(peer: Peer): string[] {
    const out = [...this.locks].filter(([, lock]) => lock.peer === peer);
    for (const [key] of out) this.locks.delete(key);
    return out.map(([, lock]) => lock.device);
  }

  /** The fingers to lift now that the holder is gone (or its socket's drag is over); only `device`'s on `peer` when given. */
  takeFingers(only?: OnPeer): (FingerOnPeer & OnPeer)[] {
    const out = [...this.fingers].filter(([key]) => only === undefined || key === keyOf(only.peer, only.device));
    for (const [key] of out) this.fingers.delete(key);
    return out.map(([, finger]) => finger);
  }
}
