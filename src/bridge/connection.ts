import WebSocket from 'ws';
import { TokenBucket } from './rate-limit.js';
import type { OutgoingText } from './outgoing.js';

export interface ConnectionLimits {
  /** Queued outgoing bytes beyond which the client counts as not reading; the socket is closed (the session survives). */
  maxBufferedBytes: number;
  ratePerSecond: number;
  rateBurst: number;
}

/**
 * One WebSocket. Carries a session (which outlives it when the socket drops), a rate limiter,
 * and the send paths: text with a back-pressure cut-off, binary frames with a completion callback.
 * The session's type is a parameter so that this module stays below sessions.ts (no import circle).
 */
export class Connection<S = unknown> {
  private static counter = 0;
  readonly id = ++Connection.counter;
  session!: S;
  readonly bucket: TokenBucket;
  /** Heartbeat: set by pong, cleared by each ping round. */
  alive = true;
  /** Rate-limited messages since the bucket was last full (RpcServer.admit says why not since the last accepted one). */
  refusedSinceFull = 0;
  /** Its session was resumed on another connection: nothing that still arrives here acts for the session. */
  replaced = false;
  private closing = false;
  /** When the ping now awaiting its pong was sent (readingLag). */
  private unansweredSince?: number;
  private lastProbe = -Infinity;

  constructor(
    readonly ws: WebSocket,
    private readonly limits: ConnectionLimits,
  ) {
    this.bucket = new TokenBucket(limits.ratePerSecond, limits.rateBurst);
  }

  get open(): boolean {
    return !this.closing && this.ws.readyState === WebSocket.OPEN;
  }

  /** A pong came: the peer read everything sent before the ping. */
  answered(): void {
    this.alive = true;
    this.unansweredSince = undefined;
  }

  /**
   * How long a ping has waited for its pong (0 when none is waiting), sending one at most every
   * `everyMs`. A pong comes only once the peer has read what was queued before the ping, so a
   * peer that stopped reading shows a lag that grows from its first unanswered ping, however many
   * megabytes the kernel's socket buffers absorb first (on loopback ~10 MB: 15–30 s of frames).
   */
  readingLag(now: number, everyMs = 1000): number {
    if (this.unansweredSince !== undefined) return now - this.unansweredSince;
    if (now - this.lastProbe >= everyMs && this.open) {
      this.unansweredSince = this.lastProbe = now;
      this.ws.ping();
    }
    return 0;
  }

  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }

  sendText(text: string): void {
    if (this.mayQueue()) this.ws.send(text);
  }

  /**
   * A message whose body is shared with other sessions: the head and the body go as two fragments
   * of one text message, so the shared body is never copied per session.
   */
  send(message: OutgoingText): void {
    if (!this.mayQueue()) return;
    const { head, body } = message;
    if (body === undefined) this.ws.send(head);
    else if (head === '') this.ws.send(body, { binary: false });
    else {
      this.ws.send(head, { fin: false });
      this.ws.send(body, { binary: false, fin: true });
    }
  }

  private mayQueue(): boolean {
    if (!this.open) return false;
    if (this.ws.bufferedAmount > this.limits.maxBufferedBytes) {
      this.close(1008, 'client is not reading its messages; resume the session to catch up');
      return false;
    }
    return true;
  }

  /**
   * `done` runs once the bytes are handed to the operating system (or the socket failed). With a
   * `body`, `data` and `body` go as two fragments of one binary message: a body shared by many
   * sockets (a frame's image) is neither copied nor joined to its head per socket.
   */
  sendBinary(data: Uint8Array, done: (err?: Error) => void, body?: Uint8Array): void {
    if (!this.open) {
      done(new Error('connection closed'));
      return;
    }
    if (body === undefined) {
      this.ws.send(data, { binary: true }, done);
      return;
    }
    this.ws.send(data, { binary: true, fin: false });
    this.ws.send(body, { binary: true, fin: true }, done);
  }

  close(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close(code, reason.slice(0, 120));
    // A peer that stopped reading never answers the closing handshake.
    setTimeout(() => this.ws.terminate(), 2000).unref();
  }

  terminate(): void {
    this.closing = true;
    this.ws.terminate();
  }
}
