import { randomBytes } from 'node:crypto';
import type { EffectiveScreenOptions, FrameFormat, StreamSource, SubscriptionInfo } from '../protocol/index.js';
import type { EncodedFrame } from './frames.js';
import type { Session } from './sessions.js';

/** One `devices.subscribe`: what it wants, and its delivery state. */
export class Subscription {
  readonly id = `sub-${randomBytes(5).toString('hex')}`;

  // Frames: a single latest-frame slot; at most one frame in the socket at a time.
  slot?: EncodedFrame;
  inFlight = false;
  /** When the frame in flight was sent (performance.now()). */
  inFlightSince = 0;
  /** The last frame message's memory, reused for the next (frames.ts, messageFor). */
  sendBuffer?: Buffer;
  /** A send of `sendBuffer` has not completed yet. */
  sendBufferBusy = false;
  lastSentAt = Number.NEGATIVE_INFINITY;
  /** Set while a frame waits in the slot for the subscriber's maxFps interval to pass. */
  dueTimer?: NodeJS.Timeout;
  /** Seq of the newest frame this subscriber was given (slot or sent). */
  lastSeq = -1;

  /** Screen: where its frames come from now (the device's video or screenshots) and why not video. */
  stream?: { format: FrameFormat; source: StreamSource; fallbackReason?: string };
  /** Set once the subscribe answer went out: frames before it would name an unknown subscription. */
  delivering = false;
  /** Video: nothing is sent until the next key frame (just joined without one cached, or fell behind). */
  needsKey = true;

  /** Elements: false until this subscriber got its first (reset) snapshot. */
  primed = false;

  constructor(
    readonly session: Session,
    readonly device: string,
    readonly screen: EffectiveScreenOptions | undefined,
    readonly elements: boolean,
  ) {}

  get minIntervalMs(): number {
    return this.screen ? 1000 / this.screen.maxFps : Number.POSITIVE_INFINITY;
  }

  info(): SubscriptionInfo {
    const info: SubscriptionInfo = { subscription: this.id, device: this.device, elements: this.elements };
    if (this.screen) info.screen = { ...this.screen };
    if (this.stream) {
      info.format = this.stream.format;
      info.source = this.stream.source;
      if (this.stream.fallbackReason) info.fallback_reason = this.stream.fallbackReason;
    }
    return info;
  }
}
