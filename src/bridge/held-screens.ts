import type { PixelTracker, Screen } from './frame-encoding.js';

/** A screen the frame pipeline captured, with what decides when its buffers go back. */
export interface Capture extends Screen {
  /** Fingerprint of an encoded capture (raw captures are compared byte for byte instead). */
  hash?: string;
  /** Deliveries reading this capture now. */
  users: number;
  /** Halving or decoding passes reading the raw capture now. */
  rawReaders: number;
  /** The raw capture went back to the driver (only halved or decoded pixels are read after that). */
  rawReleased: boolean;
  /** No longer the current screen: its buffers go back once the last delivery is done. */
  retired: boolean;
}

/**
 * The screens of one frame pipeline not yet given back (the current one and retired ones still
 * being encoded), with the bytes of their pixels and encodings, filled in as they are made.
 */
export class HeldScreens {
  private readonly bytesOf = new Map<Capture, number>();

  get count(): number {
    return this.bytesOf.size;
  }

  get bytes(): number {
    let total = 0;
    for (const bytes of this.bytesOf.values()) total += bytes;
    return total;
  }

  hold(cap: Capture): void {
    this.bytesOf.set(cap, cap.image.raw?.data.length ?? cap.image.encoded?.length ?? 0);
  }

  /** `cap` is no longer the current screen. */
  retire(cap: Capture): void {
    cap.retired = true;
    this.releaseRaw(cap);
    this.giveBack(cap);
  }

  /** Runs one delivery of `cap`: its buffers stay until the last delivery reading it is done. */
  async using(cap: Capture, delivery: () => Promise<void>): Promise<void> {
    cap.users++;
    try {
      await delivery();
    } finally {
      cap.users--;
      this.giveBack(cap);
    }
  }

  /** Counts what `cap`'s halving and decoding make, and gives its raw capture back once they are done. */
  rawTracker(cap: Capture): PixelTracker {
    return {
      fromRaw: (pixels) => {
        cap.rawReaders++;
        const done = () => {
          cap.rawReaders--;
          this.releaseRaw(cap);
        };
        pixels.then((p) => {
          this.countBytes(cap, p.data.length);
          done();
        }, done);
        return pixels;
      },
    };
  }

  countBytes(cap: Capture, bytes: number): void {
    const before = this.bytesOf.get(cap);
    if (before !== undefined) this.bytesOf.set(cap, before + bytes);
  }

  /**
   * A retired screen nobody encodes any more gives its buffers back: the raw capture to the
   * driver (its slot then serves a later screen), halved pixels to the downscaler's pool.
   */
  private giveBack(cap: Capture): void {
    if (!cap.retired || cap.users > 0 || !this.bytesOf.has(cap)) return;
    this.bytesOf.delete(cap);
    if (!cap.rawReleased) cap.image.raw?.release?.();
    void cap.halved?.then((p) => p.release(), () => undefined);
    cap.pixels = undefined;
    cap.halved = undefined;
  }

  /**
   * A retired RGBA screen whose halving and decoding are done gives its raw capture back before its
   * encodings finish: they read the smaller halved or RGB copy, and the driver gets its ~10 MB
   * slot back for the next screen a frame or two earlier.
   */
  private releaseRaw(cap: Capture): void {
    if (!cap.retired || cap.rawReaders > 0 || cap.rawReleased || cap.image.raw?.channels !== 4 || !this.bytesOf.has(cap)) return;
    cap.rawReleased = true;
    cap.image.raw.release?.();
    this.countBytes(cap, -cap.image.raw.data.length);
  }
}
