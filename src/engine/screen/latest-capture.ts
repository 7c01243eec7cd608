import type { ScreenCapture } from './capture.js';

/** How old a viewer's capture may be and still answer an agent's screenshot. */
export const DEFAULT_REUSE_MS = 200;

interface Entry {
  capture: ScreenCapture;
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
  private readonly epochs = new Map<string, number>();

  constructor(
    readonly maxAgeMs = DEFAULT_REUSE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The screen of `device` may have changed (or may be about to): nothing taken before counts. */
  invalidate(device: string): void {
    this.epochs.set(device, this.epoch(device) + 1);
    this.drop(device);
  }

  /** Call when a capture starts; pass the result to `store` when it ends. */
  begin(device: string): { epoch: number; startedAt: number } {
    return { epoch: this.epoch(device), startedAt: this.now() };
  }

  store(device: string, capture: ScreenCapture, started: { epoch: number; startedAt: number }): void {
    if (started.epoch !== this.epoch(device)) return;
    const current = this.entries.get(device);
    if (current && current.startedAt > started.startedAt) return;
    this.drop(device);
    const expiry = setTimeout(() => this.entries.get(device)?.expiry === expiry && this.entries.delete(device), this.maxAgeMs + 1).unref();
    this.entries.set(device, { capture, startedAt: started.startedAt, epoch: started.epoch, expiry });
    this.stats.stored++;
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
    return entry.capture;
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
  }

  private epoch(device: string): number {
    return this.epochs.get(device) ?? 0;
  }
}
