import type { RawImage } from '../driver.js';
import { RecentMap } from '../recent-map.js';
import type { ScreenCapture } from './capture.js';

/** How old a viewer's capture may be and still answer an agent's screenshot. */
export const DEFAULT_REUSE_MS = 200;

/** Devices whose last change is remembered; more than a bridge drives, and a bound on mistyped or gone ids. */
export const REMEMBERED_DEVICES = 256;

/**
 * Holds on one raw capture shared by the frame loop, this cache and screenshot callers: the
 * driver's release (which lets it draw a later screen into the same pixel slot) runs once, after
 * the last of them let go, so a kept capture is never rewritten while someone may read it.
 */
class SharedHolds {
  private count = 1;

  constructor(private readonly releaseAll: () => void) {}

  /** The capture with a hold of its own, ended by its raw image's `release` (once). */
  lend(capture: ScreenCapture & { raw: RawImage }): ScreenCapture {
    this.count++;
    let done = false;
    const release = () => {
      if (done) return;
      done = true;
      this.end();
    };
    return { ...capture, raw: { ...capture.raw, release } };
  }

  end(): void {
    if (--this.count === 0) this.releaseAll();
  }
}

interface Entry {
  capture: ScreenCapture;
  /** The cache's own hold when the capture's pixels belong to a reusable slot. */
  holds?: SharedHolds;
  /** Drops the entry once too old, so a stopped frame loop leaves no 10 MB screen behind. */
  expiry: NodeJS.Timeout;
  /** When the capture started (performance.now()): its pixels are at least this old. */
  startedAt: number;
  epoch: number;
}

export interface LatestCaptureStats {
  /** Captures offered by the frame loop and kept. */
  stored: number;
  /** Screenshots answered from a kept capture instead of the device. */
  reused: number;
}

/**
 * Per device, the newest full capture the bridge's frame loop took, so an agent's screenshot
 * right after it need not capture again. Honest by construction: anything that may change the
 * screen (a mutating tool, any other work run on the device, a hold) starts a new epoch, and a
 * capture is only handed out while its epoch is current and it started at most `maxAgeMs` ago;
 * a capture that began before the latest change is never kept.
 */
export class LatestCaptures {
  readonly stats: LatestCaptureStats = { stored: 0, reused: 0 };
  private readonly entries = new Map<string, Entry>();
  /**
   * Per device, the clock value of its last change. One clock for all devices, so a forgotten
   * device can answer `floor`, the newest value ever forgotten: later than anything it was told, so a
   * capture begun before its last change still never counts (at worst a fresh one is not reused).
   */
  private readonly epochs = new RecentMap<string, number>(REMEMBERED_DEVICES);
  private clock = 0;
  private floor = 0;

  constructor(
    readonly maxAgeMs = DEFAULT_REUSE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The screen of `device` may have changed (or may be about to): nothing taken before counts. */
  invalidate(device: string): void {
    if (this.epochs.size === REMEMBERED_DEVICES && this.epochs.get(device) === undefined) {
      const oldest = this.epochs.keys().next().value!;
      this.floor = Math.max(this.floor, this.epochs.get(oldest)!);
      this.epochs.delete(oldest);
    }
    this.epochs.set(device, ++this.clock);
    this.drop(device);
  }

  /** Call when a capture starts; pass the result to `store` when it ends. */
  begin(device: string): { epoch: number; startedAt: number } {
    return { epoch: this.epoch(device), startedAt: this.now() };
  }

  /**
   * Keeps `capture` when it began in the current epoch and is the newest; returns the capture the
   * caller (the frame loop) goes on with, whose raw `release` now ends only the caller's hold.
   */
  store(device: string, capture: ScreenCapture, started: { epoch: number; startedAt: number }): ScreenCapture {
    if (started.epoch !== this.epoch(device)) return capture;
    const current = this.entries.get(device);
    if (current && current.startedAt > started.startedAt) return capture;
    this.drop(device);
    const driverRelease = capture.raw?.release;
    const holds = driverRelease ? new SharedHolds(() => driverRelease.call(capture.raw)) : undefined;
    const kept: ScreenCapture = capture.raw ? { ...capture, raw: { ...capture.raw, release: undefined } } : capture;
    const expiry = setTimeout(() => this.entries.get(device)?.expiry === expiry && this.drop(device), this.maxAgeMs + 1).unref();
    this.entries.set(device, { capture: kept, holds, startedAt: started.startedAt, epoch: started.epoch, expiry });
    this.stats.stored++;
    return holds && kept.raw ? holds.lend(kept as ScreenCapture & { raw: RawImage }) : capture;
  }

  /** The kept capture when it is still current and young enough, else undefined. */
  fresh(device: string): ScreenCapture | undefined {
    const entry = this.entries.get(device);
    if (!entry) return undefined;
    if (entry.epoch !== this.epoch(device) || this.now() - entry.startedAt > this.maxAgeMs) {
      this.drop(device);
      return undefined;
    }
    this.stats.reused++;
    return entry.holds && entry.capture.raw ? entry.holds.lend(entry.capture as ScreenCapture & { raw: RawImage }) : entry.capture;
  }

  /** Drops everything kept (engine close). */
  clear(): void {
    for (const device of [...this.entries.keys()]) this.drop(device);
  }

  private drop(device: string): void {
    const entry = this.entries.get(device);
    if (!entry) return;
    clearTimeout(entry.expiry);
    this.entries.delete(device);
    entry.holds?.end();
  }

  private epoch(device: string): number {
    return this.epochs.get(device) ?? this.floor;
  }
}
