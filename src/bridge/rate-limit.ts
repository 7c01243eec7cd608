/** A token bucket: `burst` tokens at once, refilled at `perSecond`. One per connection (and one per address for POST /api/validate). */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(
    private readonly perSecond: number,
    readonly burst: number,
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

  /** True when `n` tokens are there now (taking none). */
  has(n: number): boolean {
    this.refill();
    return this.tokens >= n;
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

/** Bytes a message carries for its one token; each further KiB (or part of one) costs one more. */
export const BYTES_PER_TOKEN = 1024;

/**
 * The tokens a message of `bytes` costs beyond its first: one per KiB past the first KiB. Work
 * grows with size (parsing, validating a scenario), so a connection pays for what it makes the
 * bridge do, not only for how many messages it sends: at 1000 tokens/s that is 1 MiB/s of
 * messages. Capped so that the whole cost (with its first token) never exceeds the burst, or a
 * message could never be admitted.
 */
export function sizeTokens(bytes: number, burst: number): number {
  return Math.min(Math.max(0, Math.ceil((bytes - BYTES_PER_TOKEN) / BYTES_PER_TOKEN)), Math.max(0, burst - 1));
}

/** Addresses remembered at once by AddressBuckets; beyond, the oldest are forgotten (a flood from many addresses cannot grow memory). */
const MAX_ADDRESSES = 10_000;

/** One token bucket per client address (HTTP requests have no connection to hang one on). */
export class AddressBuckets {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    readonly perSecond: number,
    readonly burst: number,
  ) {}

  get(address: string | undefined): TokenBucket {
    const key = address ?? 'unknown';
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_ADDRESSES) this.buckets.delete(this.buckets.keys().next().value as string);
      this.buckets.set(key, (bucket = new TokenBucket(this.perSecond, this.burst)));
    }
    return bucket;
  }
}
