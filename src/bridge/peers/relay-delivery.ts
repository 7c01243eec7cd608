import type { Subscription } from '../sessions.js';

/** One stored frame message as the peer sent it, and its parsed header. */
export interface RelayedFrame {
  data: Buffer;
  header: Record<string, unknown>;
  body: Buffer;
}

interface Delivery {
  started: boolean;
  inFlight: boolean;
  pending?: RelayedFrame;
  /** Video: skip to the next key frame (the viewer fell behind or just joined). */
  waitKey: boolean;
}

/** A viewer whose socket holds more than this gets video again from the next key frame. */
const MAX_BUFFERED = 8 * 1024 * 1024;

/**
 * Relayed frames on their way to each viewer here: nothing before the viewer's subscription has
 * started, video from a key frame on (again after falling behind), pictures one at a time with
 * only the newest waiting. The header is rewritten to the viewer's own subscription id; the
 * image or video bytes go out as the peer sent them.
 */
export class RelayDelivery {
  private readonly viewers = new Map<Subscription, Delivery>();
  sent = 0;

  constructor(private readonly log: (line: string) => void) {}

  add(sub: Subscription): void {
    this.viewers.set(sub, { started: false, inFlight: false, waitKey: false });
  }

  /** False for a viewer removed meanwhile. */
  start(sub: Subscription): boolean {
    const d = this.viewers.get(sub);
    if (d) d.started = true;
    return d !== undefined;
  }

  started(sub: Subscription): boolean {
    return this.viewers.get(sub)?.started === true;
  }

  remove(sub: Subscription): void {
    this.viewers.delete(sub);
  }

  deliver(sub: Subscription, message: RelayedFrame): void {
    const d = this.viewers.get(sub);
    const conn = sub.session.connection;
    if (!d?.started) return;
    const video = 'key' in message.header;
    if (!conn?.open) {
      d.waitKey = video;
      return;
    }
    if (video) {
      if (d.waitKey && !(message.header.key || message.header.config)) return;
      if (conn.bufferedAmount > MAX_BUFFERED) {
        d.waitKey = true;
        return;
      }
      d.waitKey = false;
      this.send(sub, message, () => undefined);
      return;
    }
    // Pictures: one in the socket at a time, the newest waits; a slow viewer sees fewer, never stale, frames.
    if (d.inFlight) {
      d.pending = message;
      return;
    }
    d.inFlight = true;
    this.send(sub, message, () => {
      d.inFlight = false;
      const next = d.pending;
      d.pending = undefined;
      if (next && this.viewers.get(sub) === d) this.deliver(sub, next);
    });
  }

  private send(sub: Subscription, message: RelayedFrame, done: () => void): void {
    const json = Buffer.from(JSON.stringify({ ...message.header, subscription: sub.id, device: sub.device }), 'utf8');
    const prefix = Buffer.allocUnsafe(4);
    prefix.writeUInt32BE(json.length, 0);
    this.sent++;
    sub.session.connection!.sendBinary(
      Buffer.concat([prefix, json]),
      (err) => {
        if (err) this.log(`bridge: frame to ${sub.session.id} failed: ${err.message}`);
        done();
      },
      message.body,
    );
  }
}
