/** Frame rate and latency figures for the status bar. Pure: times are passed in (ms). */

export class RateMeter {
  private readonly times: number[] = [];

  constructor(private readonly windowMs = 1000) {}

  add(time: number): void {
    this.times.push(time);
    this.prune(time);
  }

  /** Events per second over the last window. */
  rate(now: number): number {
    this.prune(now);
    return (this.times.length * 1000) / this.windowMs;
  }

  private prune(now: number): void {
    while (this.times.length > 0 && this.times[0]! <= now - this.windowMs) this.times.shift();
  }
}

/** A latency that reacts within a few samples but does not jump on one outlier. */
export class SmoothedLatency {
  private value: number | undefined;

  constructor(private readonly weight = 0.25) {}

  add(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.value = this.value === undefined ? ms : this.value + this.weight * (ms - this.value);
  }

  get ms(): number | undefined {
    return this.value;
  }

  reset(): void {
    this.value = undefined;
  }
}

export function formatMs(ms: number | undefined): string {
  if (ms === undefined) return '–';
  return ms < 10 ? `${ms.toFixed(1)} ms` : `${Math.round(ms)} ms`;
}
