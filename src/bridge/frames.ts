import { createHash } from 'node:crypto';
import { ToolError } from '../engine/errors.js';
import { encodeFramePrefix, type EffectiveScreenOptions, type FrameHeader } from '../protocol/index.js';
import type { EncodedFrame } from './encoded-frame.js';
import { encodeScreen, frameSpec, specKey } from './frame-encoding.js';
import { dueIn, markSent } from './frame-pacing.js';
import { HeldScreens, type Capture } from './held-screens.js';
import type { Subscription } from './sessions.js';
import type { ScreenCapture } from '../engine/screen/capture.js';

export interface FrameStats {
  captures: number;
  unchanged: number;
  encodes: number;
  errors: number;
  /** Screens held now (the current one, and older ones whose encodings still run). */
  heldScreens: number;
  /** Bytes of those screens' raw pixels, decoded/halved pixels and encoded frames. */
  heldBytes: number;
}

export interface FramePipelineHooks {
  /** Captures the screen (the bridge runs it in the device's queue). */
  capture(): Promise<ScreenCapture>;
  /** The device is gone; the hub ends the subscriptions. */
  onGone(reason: string): void;
  /** How long a frame may stay unsent before its subscriber counts as not reading. */
  stallMs: number;
  /** The subscriber stopped reading (its socket is full): the hub drops its connection. */
  onStalled(sub: Subscription): void;
  log(line: string): void;
}

/** Screens being decoded/encoded at once per device: enough to keep two cores busy. */
const MAX_DELIVERIES = 2;

/**
 * The screen of one device, shared by all its frame subscribers: one capture loop at the fastest
 * subscriber's maxFps, unchanged screens skipped by hash, each distinct (format, width, quality)
 * encoded once per screen. Each subscriber has one latest-frame slot and at most one frame in its
 * socket, so a slow reader only ever misses frames; it never delays the others or grows memory.
 * The loop stops when the last subscriber leaves.
 */
export class FramePipeline {
  private readonly counters = { captures: 0, unchanged: 0, encodes: 0, errors: 0 };
  private readonly subs = new Set<Subscription>();
  private current?: Capture;
  private readonly held = new HeldScreens();
  private encodings = new Map<string, Promise<EncodedFrame>>();
  private seq = 0;
  private loop?: Promise<void>;
  private wake?: () => void;
  /** When the latest capture started (performance.now()). */
  private lastCaptureAt = -Infinity;
  private readonly deliveries = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    readonly device: string,
    private readonly hooks: FramePipelineHooks,
  ) {}

  get size(): number {
    return this.subs.size;
  }

  get stats(): FrameStats {
    return { ...this.counters, heldScreens: this.held.count, heldBytes: this.held.bytes };
  }

  has(sub: Subscription): boolean {
    return this.subs.has(sub);
  }

  add(sub: Subscription): void {
    if (this.subs.has(sub)) return;
    // Back from video (or another pipeline): this pipeline's seqs start over.
    sub.lastSeq = -1;
    this.subs.add(sub);
    if (!this.loop) {
      this.stopped = false;
      this.loop = this.run().finally(() => {
        this.loop = undefined;
      });
    } else if (this.current) {
      // A late joiner gets the screen as it is now, without waiting for it to change.
      void this.deliverTo([sub]);
    }
    this.wake?.();
  }

  remove(sub: Subscription): void {
    this.subs.delete(sub);
    sub.slot = undefined;
    clearTimeout(sub.dueTimer);
    sub.dueTimer = undefined;
    if (this.subs.size === 0) this.wake?.();
  }

  /** Tries every subscriber's slot again (when sockets may have drained); drops those that stopped reading. */
  flushAll(): void {
    const now = performance.now();
    for (const sub of this.subs) {
      const conn = sub.session.connection;
      if (conn?.open && ((sub.inFlight && now - sub.inFlightSince > this.hooks.stallMs) || conn.readingLag(now) > this.hooks.stallMs)) {
        // The peer stopped reading (a frame left unsent, or a ping unanswered). Its frames cost
        // nothing more than a slot, but its kernel buffers and text notifications would grow until
        // the connection budget, and a viewer that far behind shows a stale screen anyway.
        this.hooks.onStalled(sub);
        continue;
      }
      this.flush(sub);
    }
  }

  /** After a resume: the last frame sent may have died with the old socket, so send the current screen again. */
  resend(sub: Subscription): void {
    if (!this.subs.has(sub)) return;
    sub.inFlight = false;
    sub.lastSeq = -1;
    if (sub.slot) this.flush(sub);
    else if (this.current) void this.deliverTo([sub]);
  }

  /**
   * Captures now instead of at the next tick (after an action, so viewers see it at once), unless
   * the last capture is less than the fastest subscriber's interval old: a capture sooner than
   * that cannot reach anyone sooner, it only replaces a frame waiting for its subscriber to be due.
   * An agent acting 40 times a second made 40 captures and encodes a second for viewers at 20 fps.
   */
  nudge(): void {
    if (performance.now() - this.lastCaptureAt >= this.intervalMs()) this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const sub of [...this.subs]) this.remove(sub);
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    let failures = 0;
    let due = performance.now();
    while (this.subs.size > 0 && !this.stopped) {
      const receiving = this.anyReceiver();
      if (!receiving && this.current && this.deliveries.size === 0) {
        // Nobody connected (sessions waiting to be resumed): hold no screen meanwhile; a resumed
        // subscriber gets the next capture.
        this.held.retire(this.current);
        this.current = undefined;
        this.encodings = new Map();
      }
      if (receiving) {
        try {
          // Not kept in a variable of this loop: a suspended async frame keeps its locals, which held
          // each device's last screen (~10 MB) alive for as long as the loop slept.
          const fresh = this.accept(await this.captured());
          failures = 0;
          if (fresh) {
            // Encoding overlaps with capturing the next screen, and with encoding the previous one
            // (sharp works on the libuv thread pool): at most MAX_DELIVERIES screens at a time.
            while (this.deliveries.size >= MAX_DELIVERIES) await Promise.race(this.deliveries);
            const delivery: Promise<void> = this.deliverTo([...this.subs]).finally(() => this.deliveries.delete(delivery));
            this.deliveries.add(delivery);
          }
        } catch (err) {
          this.counters.errors++;
          if (err instanceof ToolError && err.code === 'DEVICE_NOT_FOUND') {
            this.hooks.onGone(err.message);
            break;
          }
          if (failures++ === 0) this.hooks.log(`frames of ${this.device}: capture failed: ${(err as Error).message}`);
          await this.sleep(Math.min(5000, 250 * 2 ** failures));
          continue;
        }
      }
      this.flushAll();
      // Captures keep to a fixed schedule (each timer fires ~1 ms late, which from the previous
      // capture's start gave 29 instead of 30 a second); a slow capture is not made up for by a burst.
      const interval = this.intervalMs();
      const now = performance.now();
      due = Math.max(due + interval, now - interval / 2);
      await this.sleep(Math.max(0, due - now));
    }
    await Promise.all(this.deliveries);
    if (this.current) this.held.retire(this.current);
    this.current = undefined;
    this.encodings.clear();
  }

  private async captured(): Promise<ScreenCapture> {
    this.lastCaptureAt = performance.now();
    const shot = await this.hooks.capture();
    this.counters.captures++;
    return shot;
  }

  /** False when the screen did not change since the last capture. */
  private accept(image: ScreenCapture): boolean {
    const cur = this.current;
    const sameSize = cur !== undefined && cur.width === image.width && cur.height === image.height;
    let hash: string | undefined;
    let unchanged: boolean;
    if (image.raw) {
      // Byte comparison (memcmp, ~1 ms for 10 MB) beats hashing; the same buffer object again is
      // the driver's cached, unchanged screen (a returned buffer is the caller's, never rewritten).
      const before = cur?.image.raw;
      unchanged = sameSize && before !== undefined && (before.data === image.raw.data || before.data.equals(image.raw.data));
    } else {
      hash = createHash('md5').update(image.encoded).digest('hex');
      unchanged = sameSize && cur.hash === hash;
    }
    if (unchanged) {
      this.counters.unchanged++;
      // The driver's hold on this capture (even when it is the same buffer as the current one, that one has its own).
      image.raw?.release?.();
      return false;
    }
    const cap: Capture = { image, width: image.width, height: image.height, seq: ++this.seq, hash, capturedAt: Date.now(), users: 0, rawReaders: 0, rawReleased: false, retired: false };
    this.held.hold(cap);
    if (cur) this.held.retire(cur);
    this.current = cap;
    this.encodings = new Map();
    return true;
  }

  private encoded(cap: Capture, screen: EffectiveScreenOptions): Promise<EncodedFrame> {
    const spec = frameSpec(screen, cap.width);
    const key = specKey(spec);
    let job = cap === this.current ? this.encodings.get(key) : undefined;
    if (!job) {
      this.counters.encodes++;
      job = encodeScreen(cap, spec, this.held.rawTracker(cap));
      job.then((f) => this.held.countBytes(cap, f.bytes.length), () => undefined);
      if (cap === this.current) this.encodings.set(key, job);
    }
    return job;
  }

  private async deliverTo(subs: Subscription[]): Promise<void> {
    const cap = this.current;
    if (!cap) return;
    await this.held.using(cap, () => this.deliverCapture(cap, subs));
  }

  private async deliverCapture(cap: Capture, subs: Subscription[]): Promise<void> {
    const jobs: Promise<void>[] = [];
    for (const sub of subs) {
      // A session waiting to be resumed has nothing to send to: resend() gives it the screen when it is back.
      if (!sub.screen || sub.lastSeq >= cap.seq || !sub.session.connection?.open) continue;
      jobs.push(
        this.encoded(cap, sub.screen).then((frame) => {
          if (!this.subs.has(sub) || frame.seq <= sub.lastSeq) return;
          sub.slot = frame;
          sub.lastSeq = frame.seq;
          this.flush(sub);
        }),
      );
    }
    const results = await Promise.allSettled(jobs);
    for (const r of results) {
      if (r.status === 'rejected') {
        this.counters.errors++;
        this.hooks.log(`frames of ${this.device}: encoding failed: ${(r.reason as Error).message}`);
      }
    }
  }

  /** Sends the slot when the subscriber is due (maxFps), has nothing in flight, and its socket holds less than a frame. */
  private flush(sub: Subscription): void {
    const frame = sub.slot;
    if (!frame || sub.inFlight) return;
    const conn = sub.session.connection;
    if (!conn?.open) return;
    const now = performance.now();
    const wait = dueIn(sub, now);
    if (wait > 1) {
      // Not due yet (maxFps): send whatever is in the slot then, unless a newer frame comes first.
      sub.dueTimer ??= setTimeout(() => {
        sub.dueTimer = undefined;
        if (this.subs.has(sub)) this.flush(sub);
      }, wait);
      return;
    }
    if (conn.bufferedAmount > frame.bytes.length) return;
    sub.slot = undefined;
    sub.inFlight = true;
    sub.inFlightSince = now;
    markSent(sub, now);
    const header: FrameHeader = {
      subscription: sub.id,
      device: this.device,
      seq: frame.seq,
      width: frame.width,
      height: frame.height,
      format: frame.format,
      captured_at: frame.capturedAt,
      device_width: frame.deviceWidth,
      device_height: frame.deviceHeight,
    };
    // Head and image as two fragments of one message: every subscriber's message shares the one
    // encoded image (a copy per subscriber per frame was the garbage of hundreds of MB under load).
    conn.sendBinary(encodeFramePrefix(header), (err) => {
      sub.inFlight = false;
      if (!err && this.subs.has(sub)) this.flush(sub);
    }, frame.bytes);
  }

  private anyReceiver(): boolean {
    for (const sub of this.subs) if (sub.session.connection?.open) return true;
    return false;
  }

  /** The fastest connected subscriber's interval: one that dropped its socket sets no capture rate. */
  private intervalMs(): number {
    let ms = 1000;
    for (const sub of this.subs) if (sub.session.connection?.open) ms = Math.min(ms, sub.minIntervalMs);
    return ms;
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped || this.subs.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}
