import { createHash } from 'node:crypto';
import { checkAccess, type AccessPolicy, type RequestFacts, type Verdict } from './security.js';

/** Wrong tokens an address may send per window before it is made to wait. */
export const WRONG_TOKENS_PER_WINDOW = 20;
const WINDOW_MS = 60_000;
/** Addresses remembered at once; beyond, the oldest are forgotten (a flood from many addresses cannot grow memory). */
const MAX_ADDRESSES = 10_000;

interface Misses {
  count: number;
  since: number;
  /** Hashes of the wrong cookies counted in this window: the same one again does not count. */
  cookies?: Set<string>;
}

/**
 * Guessing the token: every wrong token counts against the address it came from, and past
 * WRONG_TOKENS_PER_WINDOW in a minute that address is refused (429, even with the right token,
 * or the limit would be no limit) until the minute is over. A short token given to `serve` on a
 * network address could otherwise be tried at thousands of guesses a second.
 *
 * A wrong token sent only as the `mobilebridge_token` cookie counts once per window per value:
 * viewer tabs left open from a run with another token keep reconnecting with that cookie, and
 * counting each attempt let two of them lock the address out, the right token included. A guesser
 * who puts guesses in the cookie sends a new value each time, and each counts.
 */
export class WrongTokenThrottle {
  private readonly misses = new Map<string, Misses>();

  constructor(
    private readonly limit = WRONG_TOKENS_PER_WINDOW,
    private readonly windowMs = WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Token and Host checks (security.ts), refused early for an address that guessed too often. */
  check(policy: AccessPolicy, req: RequestFacts, address: string | undefined): Verdict {
    const key = address ?? 'unknown';
    const waitMs = this.blockedFor(key);
    if (policy.token && waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      return {
        ok: false,
        status: 429,
        problem: 'token_throttled',
        retryAfterS: seconds,
        message: `too many wrong tokens from ${key} (more than ${this.limit} in ${Math.round(this.windowMs / 1000)} s); wait ${seconds} s, then use the token given to mobilebridge serve --token (or MOBILEBRIDGE_TOKEN)`,
      };
    }
    const verdict = checkAccess(policy, req);
    if (!verdict.ok && verdict.problem === 'token_wrong') this.miss(key, verdict.cookieOnly);
    return verdict;
  }

  private blockedFor(key: string): number {
    const m = this.misses.get(key);
    if (!m) return 0;
    const left = m.since + this.windowMs - this.now();
    if (left <= 0) {
      this.misses.delete(key);
      return 0;
    }
    return m.count >= this.limit ? left : 0;
  }

  private miss(key: string, cookie: string | undefined): void {
    const seen = cookie === undefined ? undefined : createHash('sha256').update(cookie).digest('base64');
    const m = this.misses.get(key);
    if (m && this.now() - m.since < this.windowMs) {
      if (seen !== undefined) {
        if (m.cookies?.has(seen)) return;
        // Past the limit the address waits anyway: no need to remember more.
        if (m.count < this.limit) (m.cookies ??= new Set()).add(seen);
      }
      m.count++;
      return;
    }
    this.misses.delete(key);
    if (this.misses.size >= MAX_ADDRESSES) this.misses.delete(this.misses.keys().next().value as string);
    this.misses.set(key, { count: 1, since: this.now(), ...(seen !== undefined ? { cookies: new Set([seen]) } : {}) });
  }
}
