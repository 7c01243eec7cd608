import { createHash } from 'node:crypto';
import { RecentMap } from '../recent-map.js';
import type { FittedCapture } from './capture.js';
import { scaleCapture, type ScaledShot, type ScaleOptions } from './scale.js';

/** Recent results kept: the screens an agent switches between, a few base64 images of ~60 KB each. */
const CAPACITY = 4;

/**
 * Scaled screenshots by the exact bytes they were made from. A device encodes the same pixels to
 * the same PNG, so an agent polling a screen that did not change (waiting for something, or
 * looking again after a tap that did nothing) gets the result of the same decode, scale and
 * encode without doing them again: 20–40 ms of decoding a 1080×2400 PNG saved for a hash of its
 * bytes (well under a millisecond for a screen's PNG). Every screenshot is still captured from the
 * device; only the host-side work on identical bytes is reused. Raw and already shrunk captures
 * are scaled each time: hashing 10 MB of pixels would cost about what their encode saves.
 */
export class ScaledMemo {
  private readonly entries = new RecentMap<string, ScaledShot>(CAPACITY);
  hits = 0;

  async scale(cap: FittedCapture, options: ScaleOptions = {}, compute = scaleCapture): Promise<ScaledShot> {
    if (!('encoded' in cap) || !cap.encoded) return compute(cap, options);
    const key = createHash('sha1')
      .update(`${cap.width}x${cap.height} ${options.format ?? ''} ${options.maxSize ?? ''} ${options.budget ?? ''}\0`)
      .update(cap.encoded)
      .digest('base64');
    const kept = this.entries.get(key);
    if (kept) {
      this.hits++;
      return { ...kept };
    }
    const shot = await compute(cap, options);
    this.entries.set(key, shot);
    return { ...shot };
  }
}
