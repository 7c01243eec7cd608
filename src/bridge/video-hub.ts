import type { VideoPacket, VideoStream } from '../engine/driver.js';
import { encodeFramePrefix, type FrameHeader } from '../protocol/index.js';
import { dueIn, markSent } from './frame-pacing.js';
import { GopCache } from './gop-cache.js';
import type { Subscription } from './sessions.js';
import type { VideoSettings, VideoStats } from './video-settings.js';

/** Where a video subscriber's frames come from now. */
export type VideoRoute = { live: VideoStream } | { live?: undefined; reason: string };

export interface DeviceVideoHooks {
  /** Opens the device's stream (throws with the reason when it cannot). */
  open(maxFps: number): Promise<VideoStream>;
  /** Tells the hub a subscriber's source changed: video is live, or it must poll screenshots. */
  route(sub: Subscription, route: VideoRoute): void;
  /** The device's screen size in device pixels (frame headers carry it for mapping taps). */
  deviceSize(): { width: number; height: number };
  /** The stream stopped with nobody subscribed (grace over, or it was not running): nothing of the device's video is left. */
  unused?(): void;
  log(line: string): void;
}

/** A JPEG video subscriber's newest picture not sent yet, whether one is in its socket, and the timer sending it when due. */
interface Pace {
  packet?: VideoPacket;
  inFlight: boolean;
  timer?: NodeJS.Timeout;
}

/** Key frame requests closer together than this are folded into one (each restarts the encoder). */
const KEY_REQUEST_GAP_MS = 500;

/**
 * The live video of one device, shared by all its video subscribers: one device stream however many
 * watch, a GOP cache so a joiner's first message decodes on its own, per-subscriber skipping to the
 * next key frame when a socket falls behind, and, when video cannot start or breaks, a route to
 * screenshots for everyone plus a retry with backoff.
 */
export class DeviceVideo {
  private readonly subs = new Set<Subscription>();
  private readonly cache: GopCache;
  private readonly counters = { starts: 0, failures: 0, packets: 0, bytes: 0, sent: 0, skipped: 0, unchanged: 0, keyRequests: 0 };
  /** The frame rate the stream was opened with or last set to. */
  private maxFps = 0;
  /** JPEG streams: each subscriber's newest picture not sent yet, and the timer sending it when due (its maxFps). */
  private readonly paced = new Map<Subscription, Pace>();
  private state: VideoStats['state'] = 'idle';
  private stream?: VideoStream;
  private reason = '';
  private starting?: Promise<void>;
  private retryTimer?: NodeJS.Timeout;
  private retryMs: number;
  private graceTimer?: NodeJS.Timeout;
  private lastKeyRequest = Number.NEGATIVE_INFINITY;
  private seq = 0;
  /** Each packet's place in the stream (frame headers' `seq`; a gap means skipped frames). */
  private readonly seqOf = new WeakMap<VideoPacket, number>();
  /** The seq of the newest packet each subscriber was sent. */
  private readonly sentSeq = new WeakMap<Subscription, number>();
  private closed = false;

  constructor(
    readonly device: string,
    private readonly hooks: DeviceVideoHooks,
    private readonly settings: VideoSettings,
  ) {
    this.cache = new GopCache(settings.gopCacheBytes);
    this.retryMs = settings.retryMs;
  }

  get size(): number {
    return this.subs.size;
  }

  get live(): boolean {
    return this.state === 'live';
  }

  has(sub: Subscription): boolean {
    return this.subs.has(sub);
  }

  stats(): VideoStats {
    return { state: this.state, ...this.counters, maxFps: this.maxFps, cacheBytes: this.cache.bytes, ...(this.state === 'down' ? { reason: this.reason } : {}) };
  }

  /** Adds a subscriber and routes it once known: video, or screenshots with the reason (after at most startTimeoutMs). */
  async add(sub: Subscription): Promise<void> {
    clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.subs.add(sub);
    if (this.state === 'idle') this.start();
    if (this.state === 'starting') {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.settings.startTimeoutMs)));
      await Promise.race([this.starting, timeout]);
      clearTimeout(timer);
    }
    if (!this.subs.has(sub)) return;
    this.retune();
    if (this.state === 'live' && this.stream) this.hooks.route(sub, { live: this.stream });
    else if (this.state === 'down') this.hooks.route(sub, { reason: this.reason });
    else this.hooks.route(sub, { reason: `video did not start within ${this.settings.startTimeoutMs / 1000} s; screenshots until it does` });
  }

  remove(sub: Subscription): void {
    if (!this.subs.delete(sub)) return;
    clearTimeout(this.paced.get(sub)?.timer);
    this.paced.delete(sub);
    if (this.subs.size > 0) {
      this.retune();
      return;
    }
    if (this.state !== 'live' && this.state !== 'starting') {
      this.idle();
      return;
    }
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      if (this.subs.size === 0) this.idle();
    }, this.settings.graceMs);
  }

  /**
   * Starts sending to a subscriber routed to video: the cached group first, so it decodes at once.
   * Nothing it was already sent goes again (seq never goes back): one that has had part of the group
   * gets the rest if it missed none of it, else it waits for a key frame, asked for now.
   */
  prime(sub: Subscription): void {
    if (!this.subs.has(sub) || this.state !== 'live') return;
    const group = this.cache.snapshot();
    const had = this.sentSeq.get(sub) ?? 0;
    const from = this.seqOf.get(group[0]) ?? 0;
    if (group.length > 0 && had < from) {
      sub.needsKey = true;
      for (const packet of group) this.sendTo(sub, packet, true);
    } else if (group.length > 0 && !sub.needsKey) {
      for (const packet of group) if ((this.seqOf.get(packet) ?? 0) > had) this.sendTo(sub, packet, true);
    } else {
      sub.needsKey = true;
      this.requestKey();
    }
  }

  /**
   * A session back on a new socket, whose last frames may have died with the old one. A JPEG
   * subscriber gets the newest picture again (as screenshots do). An H.264 one cannot be sent just the
   * newest frame (a delta needs those before it), nor the group again (seq would go back and it would
   * show the last seconds twice): it gets the next key frame, asked of the encoder now, and on from there.
   */
  resume(sub: Subscription): void {
    if (!this.subs.has(sub) || this.state !== 'live') return;
    const newest = this.cache.snapshot().at(-1);
    if (this.codec === 'jpeg') {
      if (newest) this.sendTo(sub, newest, true);
      return;
    }
    sub.needsKey = true;
    this.prime(sub);
  }

  /** Video that is down (the device was away) is tried again at once, with the backoff back at its start. */
  retryNow(): void {
    if (this.state !== 'down' || this.closed || this.subs.size === 0) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.retryMs = this.settings.retryMs;
    this.start();
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.subs.clear();
    await this.idle();
  }

  private start(): void {
    this.state = 'starting';
    this.counters.starts++;
    const maxFps = this.wantedFps();
    this.starting = this.hooks.open(maxFps).then(
      (stream) => {
        if (this.closed || this.subs.size === 0 || this.state !== 'starting') {
          void stream.close().catch(() => {});
          if (this.state === 'starting') this.state = 'idle';
          return;
        }
        this.stream = stream;
        this.state = 'live';
        this.maxFps = maxFps;
        this.retryMs = this.settings.retryMs;
        this.clearPictures();
        this.hooks.log(`video of ${this.device}: ${stream.source} ${stream.codec} live`);
        for (const sub of this.subs) {
          sub.needsKey = true;
          this.hooks.route(sub, { live: stream });
        }
        void this.pump(stream);
      },
      (err: unknown) => {
        if (this.state === 'starting') this.down(`video could not start: ${(err as Error).message}`);
      },
    );
  }

  private async pump(stream: VideoStream): Promise<void> {
    let failure = 'the device ended the video stream';
    try {
      for await (const packet of stream.packets()) {
        if (stream !== this.stream) return;
        this.onPacket(packet);
      }
    } catch (err) {
      failure = `the video stream broke: ${(err as Error).message}`;
    }
    if (stream !== this.stream) return;
    this.stream = undefined;
    void stream.close().catch(() => {});
    this.down(failure);
  }

  private down(reason: string): void {
    this.state = 'down';
    this.reason = reason;
    this.counters.failures++;
    this.clearPictures();
    this.hooks.log(`video of ${this.device}: ${reason}; screenshots until a retry in ${Math.round(this.retryMs / 1000)} s`);
    for (const sub of this.subs) this.hooks.route(sub, { reason });
    if (this.subs.size === 0 || this.closed) {
      void this.idle();
      return;
    }
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.subs.size > 0 && !this.closed && this.state === 'down') this.start();
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, this.settings.retryMaxMs);
  }

  private async idle(): Promise<void> {
    clearTimeout(this.retryTimer);
    clearTimeout(this.graceTimer);
    this.retryTimer = this.graceTimer = undefined;
    const stream = this.stream;
    this.stream = undefined;
    this.state = 'idle';
    this.retryMs = this.settings.retryMs;
    this.clearPictures();
    if (this.subs.size === 0 && !this.closed) this.hooks.unused?.();
    if (stream) await stream.close().catch((err: unknown) => this.hooks.log(`video of ${this.device}: closing failed: ${(err as Error).message}`));
  }

  private onPacket(packet: VideoPacket): void {
    this.counters.packets++;
    this.counters.bytes += packet.data.length;
    if (this.codec === 'jpeg') {
      // WDA sends a picture per tick whether or not the screen changed: a still screen is not news
      // (no new seq, nothing sent), as with screenshots. The cache holds just this one picture.
      if (this.cache.snapshot()[0]?.data.equals(packet.data)) {
        this.counters.unchanged++;
        return;
      }
    }
    if (!this.cache.push(packet)) this.requestKey();
    if (packet.config) return;
    this.seqOf.set(packet, ++this.seq);
    for (const sub of this.subs) this.sendTo(sub, packet, false);
  }

  /**
   * Sends one packet unless the subscriber would get a picture it cannot decode: after any skip it
   * waits for the next key frame. `burst` (the cached group for a joiner) ignores the socket budget.
   */
  private sendTo(sub: Subscription, packet: VideoPacket, burst: boolean): void {
    const conn = sub.session.connection;
    if (!sub.delivering || !conn?.open) {
      sub.needsKey = true;
      return;
    }
    if (this.codec === 'jpeg') {
      const pace = this.paced.get(sub) ?? { inFlight: false };
      pace.packet = packet;
      this.paced.set(sub, pace);
      this.flushPicture(sub);
      return;
    }
    const behind = !burst && conn.bufferedAmount > this.settings.maxQueuedBytes;
    if (behind || (sub.needsKey && !packet.key)) {
      if (behind && !packet.key && !sub.needsKey) this.requestKey();
      sub.needsKey = true;
      this.counters.skipped++;
      return;
    }
    sub.needsKey = false;
    this.sent(sub, packet);
    const [head, config] = this.frame(sub, packet);
    conn.sendBinary(config ? Buffer.concat([head, config]) : head, () => {}, packet.data);
  }

  /**
   * Sends a subscriber's newest JPEG picture once its maxFps allows and its last one left the socket,
   * as the screenshot pipeline does (FramePipeline.flush): one device stream at the fastest
   * subscriber's rate, each subscriber at its own. A waiting picture is replaced by a newer one.
   */
  private flushPicture(sub: Subscription): void {
    const pace = this.paced.get(sub);
    const conn = sub.session.connection;
    if (!pace?.packet || pace.inFlight || !this.subs.has(sub) || !sub.delivering || !conn?.open) return;
    const now = performance.now();
    const wait = dueIn(sub, now);
    if (wait > 1) {
      pace.timer ??= setTimeout(() => {
        pace.timer = undefined;
        this.flushPicture(sub);
      }, wait);
      return;
    }
    const packet = pace.packet;
    pace.packet = undefined;
    pace.inFlight = true;
    markSent(sub, now);
    this.sent(sub, packet);
    // Head and picture as two fragments of one message: every subscriber's shares WDA's bytes.
    conn.sendBinary(this.frame(sub, packet)[0], (err) => {
      pace.inFlight = false;
      if (!err) this.flushPicture(sub);
    }, packet.data);
  }

  /** The message's head, and the codec configuration to put between it and the packet (before a key frame). */
  private frame(sub: Subscription, packet: VideoPacket): [Uint8Array, Buffer?] {
    const config = this.cache.configFor(packet);
    const device = this.hooks.deviceSize();
    // A rotated device streams rotated video before the bridge re-reads its size.
    const turned = packet.width > packet.height !== device.width > device.height;
    const header: FrameHeader = {
      subscription: sub.id,
      device: this.device,
      seq: this.seqOf.get(packet) ?? this.seq,
      width: packet.width,
      height: packet.height,
      format: this.codec,
      captured_at: packet.capturedAt,
      device_width: turned ? device.height : device.width,
      device_height: turned ? device.width : device.height,
    };
    if (header.format === 'h264') {
      header.key = packet.key;
      header.config = config !== undefined;
    }
    return [encodeFramePrefix(header), config?.data];
  }

  private sent(sub: Subscription, packet: VideoPacket): void {
    this.counters.sent++;
    this.sentSeq.set(sub, this.seqOf.get(packet) ?? this.seq);
  }

  private get codec(): VideoStream['codec'] {
    return this.stream?.codec ?? 'h264';
  }

  /** The fastest subscriber's maxFps: what the device is asked for. */
  private wantedFps(): number {
    let fps = 1;
    for (const sub of this.subs) fps = Math.max(fps, sub.screen?.maxFps ?? 1);
    return fps;
  }

  /**
   * Follows the fastest subscriber's maxFps on a stream that can change its rate in place (WDA's
   * MJPEG): a 1 fps agent that subscribed first no longer holds every later viewer at 1 fps.
   * Streams that cannot (scrcpy) keep the rate they were opened with.
   */
  private retune(): void {
    const stream = this.stream;
    const fps = this.wantedFps();
    if (this.state !== 'live' || !stream?.setMaxFps || fps === this.maxFps) return;
    this.maxFps = fps;
    stream.setMaxFps(fps).catch((err: unknown) => this.hooks.log(`video of ${this.device}: could not set its frame rate to ${fps}: ${(err as Error).message}`));
  }

  private clearPictures(): void {
    this.cache.clear();
    for (const pace of this.paced.values()) clearTimeout(pace.timer);
    this.paced.clear();
  }

  private requestKey(): void {
    const now = performance.now();
    if (!this.stream?.requestKeyFrame || now - this.lastKeyRequest < KEY_REQUEST_GAP_MS) return;
    this.lastKeyRequest = now;
    this.counters.keyRequests++;
    this.stream.requestKeyFrame();
  }
}
