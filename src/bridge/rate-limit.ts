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
    this.refill();
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }

  /** True when the whole burst is back: the client stayed below the rate long enough to regain it. */
  full(): boolean {
    this.refill();
    return this.tokens >= this.burst;
  }

  /** Milliseconds until `n` tokens are available. */
  retryAfterMs(n = 1): number {
    return Math.max(0, Math.ceil(((n - this.tokens) / this.perSecond) * 1000));
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }
}
