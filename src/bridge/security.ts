import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/**
 * SPEC §7 access rules, shared by every HTTP request and every WebSocket upgrade so that
 * both go through exactly one code path.
 */

export const TOKEN_COOKIE = 'mobilebridge_token';

export interface AccessPolicy {
  /** Required on every request when set. */
  token?: string;
  /** The bridge listens on a loopback address only. */
  loopback: boolean;
  /** Extra browser origins allowed to open the WebSocket, normalised by allowedOrigin ("*" allows any). */
  allowOrigins: readonly string[];
}

export type Verdict =
  | { ok: true; viaQuery: boolean }
  | {
      ok: false;
      status: 401 | 403 | 429;
      message: string;
      problem?: 'token_missing' | 'token_wrong' | 'token_throttled' | 'host';
      retryAfterS?: number;
      /**
       * A wrong token that came only as the `mobilebridge_token` cookie: most likely one left by an
       * earlier run with another token, which open viewer tabs keep sending. The throttle counts
       * it only the first time (token-throttle.ts), so stale tabs cannot lock the right token out.
       */
      cookieOnly?: string;
    };

/** The subset of a request the checks read; adapters exist for Hono and for Node's IncomingMessage. */
export interface RequestFacts {
  header(name: string): string | undefined;
  url: URL;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (h.startsWith('::ffff:')) return isLoopbackHost(h.slice(7));
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * Refuses to expose device control on the network without a token, and a token that can never
 * match (blank: a bearer header is trimmed, so only an exact ?token= of spaces would pass).
 */
export function bindProblem(host: string, token: string | undefined): string | undefined {
  if (token !== undefined && token !== '' && token.trim() === '') {
    return 'the token is only whitespace, which no client can send as a bearer token; pass a real secret with --token (or MOBILEBRIDGE_TOKEN), e.g. "$(openssl rand -hex 16)"';
  }
  if (isLoopbackHost(host) || token) return undefined;
  return (
    `refusing to listen on ${host} without a token: anyone who can reach it could drive your devices. ` +
    `Pass --token <secret> (or set MOBILEBRIDGE_TOKEN), or keep the default --host 127.0.0.1`
  );
}

/** Below this a token on a network address is guessable, even at 20 wrong tries a minute per address (token-throttle.ts). */
const STRONG_TOKEN_LENGTH = 16;

/** What `serve` says of a short token on a network address; undefined when there is nothing to say. */
export function weakTokenWarning(host: string, token: string | undefined): string | undefined {
  if (!token || isLoopbackHost(host) || token.length >= STRONG_TOKEN_LENGTH) return undefined;
  return `the token has ${token.length} characters and this bridge listens on the network: use ${STRONG_TOKEN_LENGTH} or more random ones, e.g. --token "$(openssl rand -hex 16)"`;
}

export function tokensEqual(given: string, expected: string): boolean {
  // Hash first so the comparison takes the same time whatever the lengths.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function cookieValue(cookieHeader: string | undefined, name: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * Host header check against DNS rebinding: without a token, a loopback bridge answers only
 * requests addressed to a loopback name, so a web page whose domain re-resolves to 127.0.0.1
 * cannot reach it.
 */
function hostProblem(policy: AccessPolicy, hostHeader: string | undefined): string | undefined {
  if (policy.token || !policy.loopback) return undefined;
  if (!hostHeader) return 'missing Host header';
  let hostname: string;
  try {
    hostname = new URL(`http://${hostHeader}`).hostname;
  } catch {
    return `malformed Host header ${JSON.stringify(hostHeader)}`;
  }
  if (isLoopbackHost(hostname)) return undefined;
  return `Host ${JSON.stringify(hostHeader)} is not a loopback name; this bridge answers only localhost / 127.0.0.1 unless started with --token`;
}

/** Token and Host checks for any request (HTTP or upgrade). */
export function checkAccess(policy: AccessPolicy, req: RequestFacts): Verdict {
  const host = hostProblem(policy, req.header('host'));
  if (host) return { ok: false, status: 403, message: host, problem: 'host' };
  if (!policy.token) return { ok: true, viaQuery: false };
  const auth = req.header('authorization');
  const bearer = auth && /^bearer\s+/i.test(auth) ? auth.replace(/^bearer\s+/i, '').trim() : undefined;
  const query = req.url.searchParams.get('token') ?? undefined;
  const cookie = cookieValue(req.header('cookie'), TOKEN_COOKIE);
  for (const [given, viaQuery] of [[bearer, false], [query, true], [cookie, false]] as const) {
    if (given !== undefined && tokensEqual(given, policy.token)) return { ok: true, viaQuery };
  }
  // Credentials in another scheme (Basic, a bare token) were an attempt: wrong, not missing.
  const otherScheme = auth !== undefined && bearer === undefined;
  const tried = auth !== undefined || query !== undefined || cookie !== undefined;
  return {
    ok: false,
    status: 401,
    problem: tried ? 'token_wrong' : 'token_missing',
    ...(cookie !== undefined && auth === undefined && query === undefined ? { cookieOnly: cookie } : {}),
    message: !tried
      ? 'this bridge requires a token: send "Authorization: Bearer <token>" or add ?token=<token> to the URL'
      : otherScheme && query === undefined && cookie === undefined
        ? 'the Authorization header must use the Bearer scheme: "Authorization: Bearer <token>", with the token given to mobilebridge serve --token (or MOBILEBRIDGE_TOKEN)'
        : 'the token does not match; use the one given to mobilebridge serve --token (or MOBILEBRIDGE_TOKEN)',
  };
}

/**
 * An origin in the form browsers send it (scheme://host[:port], lower case, the scheme's default
 * port left out, no path or trailing slash), so `--allow-origin http://localhost:5173/` or
 * `HTTP://Example.COM` match what a page there sends. Undefined when `value` is no URL with a host
 * (`null`, `file:///…`, a bare name). Schemes URL gives no origin of its own (`chrome-extension://id`)
 * keep scheme://host, as browsers send them.
 */
export function originOf(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  const origin = url.origin !== 'null' ? url.origin : url.host ? `${url.protocol}//${url.host}` : undefined;
  return origin?.toLowerCase();
}

/** An allowed origin (`--allow-origin`) as checkOrigin compares it; throws, saying why, when it is none. `*` stays. */
export function allowedOrigin(value: string): string {
  if (value.trim() === '*') return '*';
  const origin = originOf(value);
  if (origin === undefined) {
    throw new Error(
      `--allow-origin ${JSON.stringify(value)} is not an origin: give the page's scheme, host and port (e.g. http://localhost:5173), or "*" for any; ` +
        `pages that send Origin "null" (file://, sandboxed frames) cannot be allowed one by one`,
    );
  }
  return origin;
}

/**
 * Browser origin check for WebSocket upgrades. Non-browser clients send no Origin and pass;
 * a page may connect from the bridge's own origin or from one listed with --allow-origin.
 */
export function checkOrigin(policy: AccessPolicy, req: RequestFacts): Verdict {
  const origin = req.header('origin');
  if (origin === undefined) return { ok: true, viaQuery: false };
  // The allowed origins are normalised at start (allowedOrigin), the header here: a browser sends
  // the normal form, but the comparison does not depend on it.
  if (policy.allowOrigins.includes('*') || policy.allowOrigins.includes(originOf(origin) ?? origin.toLowerCase())) return { ok: true, viaQuery: false };
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  const host = req.header('host');
  if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && host && parsed.host === host.toLowerCase()) {
    return { ok: true, viaQuery: false };
  }
  return {
    ok: false,
    status: 403,
    message: `WebSocket connections from origin ${JSON.stringify(origin)} are not allowed; start the bridge with --allow-origin ${origin} to permit it`,
  };
}

export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`;
}
