/** A token bucket: `burst` messages at once, refilled at `perSecond`. One per connection. */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** Takes `n` tokens; false (taking nothing) when there are not enough. */
  take(n = 1): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }

  /** Milliseconds until `n` tokens are available. */
  retryAfterMs(n = 1): number {
    return Math.max(0, Math.ceil(((n - this.tokens) / this.perSecond) * 1000));
  }
}
