import { isToolFailure } from '../../engine/errors.js';
import type { Peer } from './peer.js';

/**
 * What one of this bridge's sessions holds on peers: the devices it locked there and its scenario
 * runs in progress. The peer sees only the aggregator's link, which stays open while the caller's
 * socket is away, so the aggregator applies the local rule itself: a lock goes as soon as its
 * holder disconnects, except one that backs a running scenario, which goes when the run ends.
 */
export class HeldOnPeers {
  private readonly locks = new Map<string, Peer>();
  private readonly runs = new Map<string, number>();

  /** Notes what a forwarded call did to the session's locks. */
  noteResult(peer: Peer, method: string, device: string, result: unknown): void {
    if (isToolFailure(result)) return;
    if (method === 'devices.lock') this.locks.set(device, peer);
    else if (method === 'devices.unlock') this.locks.delete(device);
  }

  runStarted(device: string): void {
    this.runs.set(device, (this.runs.get(device) ?? 0) + 1);
  }

  runEnded(device: string): void {
    const left = (this.runs.get(device) ?? 1) - 1;
    if (left > 0) this.runs.set(device, left);
    else this.runs.delete(device);
  }

  /** The locks to give up now that the holder is gone: all but those of devices with a run in progress. */
  takeReleasable(): [string, Peer][] {
    const out = [...this.locks].filter(([device]) => !this.runs.has(device));
    for (const [device] of out) this.locks.delete(device);
    return out;
  }
}
