import { Hono, type Context } from 'hono';
import { toFailure } from '../engine/errors.js';
import { PROTOCOL_VERSION } from '../protocol/index.js';
import { validateScenario } from './methods/scenarios.js';
import type { BridgeCore } from './registry.js';
import { accessPage, wantsPage } from './access-page.js';
import { readCappedBody } from './capped-body.js';
import { sizeTokens, type AddressBuckets, type TokenBucket } from './rate-limit.js';
import { envelope, undecodableReport } from '../validate/index.js';
import { decodeText } from '../validate/text-decode.js';
import { tokenCookie, type AccessPolicy } from './security.js';
import type { WrongTokenThrottle } from './token-throttle.js';
import { securityHeaders } from './security-headers.js';
import { viewer } from './viewer.js';

export interface HttpDeps {
  core: BridgeCore;
  policy: AccessPolicy;
  webRoot: string;
  maxBodyBytes: number;
  startedAt: number;
  stats(): Record<string, unknown>;
  throttle: WrongTokenThrottle;
  /** POST /api/validate's rate limit per client address (validating costs the event loop what a scenario's size says). */
  validateLimit: AddressBuckets;
}

/** The peer address under @hono/node-server (its `incoming` request); undefined under other adapters. */
function remoteAddress(c: Context): string | undefined {
  return (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
}

/** The method each API route answers, so another method gets 405 with `Allow` rather than a 404 that says the route does not exist. */
const API_ROUTES: [RegExp, string][] = [
  [/^\/api\/(health|devices)$/, 'GET'],
  [/^\/api\/validate$/, 'POST'],
  [/^\/api\/runs\/[^/]+\/screenshots\/[^/]+$/, 'GET'],
];
const allowedMethods = (path: string) => API_ROUTES.find(([re]) => re.test(path))?.[1];

/** The HTTP side (SPEC §6): viewer, health, devices, validation. Every request passes the SPEC §7 checks. */
export function createHttpApp(deps: HttpDeps): Hono {
  const { core, policy } = deps;
  const app = new Hono();

  app.use('*', securityHeaders());
  app.use('*', async (c, next) => {
    const verdict = deps.throttle.check(policy, { header: (name) => c.req.header(name), url: new URL(c.req.url) }, remoteAddress(c));
    if (!verdict.ok) {
      if (verdict.retryAfterS) c.header('Retry-After', String(verdict.retryAfterS));
      if (verdict.problem && wantsPage(c.req.method, c.req.path, c.req.header('accept'))) return c.html(accessPage(verdict.problem, verdict.message), verdict.status);
      const reason = verdict.problem ? { reason: verdict.problem } : {};
      const kind = verdict.status === 401 ? 'unauthorized' : verdict.status === 429 ? 'too_many_requests' : 'forbidden';
      return c.json({ ok: false, error: { kind, message: verdict.message, ...reason } }, verdict.status);
    }
    await next();
    // A browser that came with ?token= keeps it in a same-site cookie for the viewer's assets and socket.
    if (verdict.viaQuery && policy.token) c.res.headers.append('Set-Cookie', tokenCookie(policy.token));
  });

  app.get('/api/health', (c) =>
    c.json({
      ok: true,
      name: core.server.name,
      version: core.server.version,
      protocol: PROTOCOL_VERSION,
      uptime_s: Math.round((Date.now() - deps.startedAt) / 1000),
      ...deps.stats(),
    }),
  );

  // The listing devices.list answers: without its notes a source down from the start read as an empty lab.
  app.get('/api/devices', async (c) => {
    const devices = await core.engine.listDevices();
    const notes = core.engine.sourceProblems();
    return c.json({ devices, ...(notes.length ? { notes } : {}) });
  });

  /**
   * 429 for a validation the address's bucket cannot pay for: one token per request and one per
   * KiB beyond the first, as WebSocket messages pay, so one client cannot keep the event loop
   * validating while every session waits. `unread`: the body was not read, so the connection
   * cannot be reused.
   */
  const tooMany = (c: Context, bucket: TokenBucket, cost: number, unread: boolean) => {
    const retryMs = Math.max(1, bucket.retryAfterMs(cost));
    const { perSecond, burst } = deps.validateLimit;
    const message = `too many validations from ${remoteAddress(c) ?? 'this address'}: at most ${perSecond} per second (bursts of ${burst}), a body counting once more per KiB beyond its first (this one ${cost}); retry after ${retryMs} ms`;
    const headers: Record<string, string> = { 'retry-after': String(Math.ceil(retryMs / 1000)) };
    if (unread) headers.connection = 'close';
    return c.json({ ok: false, error: { kind: 'too_many_requests', reason: 'rate_limited', message, retry_after_ms: retryMs } }, 429, headers);
  };

  app.post('/api/validate', async (c) => {
    const bucket = deps.validateLimit.get(remoteAddress(c));
    const burst = deps.validateLimit.burst;
    // A declared size the bucket cannot pay for is refused before its body is read.
    const declared = Number(c.req.header('content-length') ?? 0);
    const declaredCost = 1 + sizeTokens(Number.isFinite(declared) ? Math.min(declared, deps.maxBodyBytes) : 0, burst);
    if (!bucket.has(declaredCost)) return tooMany(c, bucket, declaredCost, true);
    const body = await readCappedBody(c.req.raw, deps.maxBodyBytes);
    // The rest of the body stays unread, so the connection cannot be reused: say so.
    if (body === undefined) return c.json({ ok: false, error: { kind: 'invalid_input', message: `the body exceeds ${deps.maxBodyBytes} bytes` } }, 413, { connection: 'close' });
    const cost = 1 + sizeTokens(body.length, burst);
    if (!bucket.take(cost)) return tooMany(c, bucket, cost, false);
    const file = c.req.query('file') ?? '<request>';
    // Decoded as files are (UTF-16 taken, other non-UTF-8 refused), so a file POSTed as it is gets the CLI's verdict.
    const decoded = decodeText(body);
    if ('text' in decoded) return c.json(validateScenario(decoded.text, file));
    return c.json(envelope(undecodableReport(file, decoded, 'the body', 'send the scenario as UTF-8')));
  });

  // A step screenshot of a run started over this bridge (the viewer's Run shows them inline).
  app.get('/api/runs/:run/screenshots/:name', async (c) => {
    try {
      const png = await core.runFiles.screenshot(c.req.param('run'), c.req.param('name'));
      return c.body(new Uint8Array(png), 200, { 'content-type': 'image/png', 'cache-control': 'private, max-age=3600' });
    } catch (err) {
      const failure = toFailure(err);
      return c.json({ ok: false, error: { kind: 'not_found', message: failure.message } }, 404);
    }
  });

  app.all('/api/*', (c) => {
    const allow = allowedMethods(c.req.path);
    if (allow) return c.json({ ok: false, error: { kind: 'method_not_allowed', message: `${c.req.method} ${c.req.path} is not served; use ${allow} ${c.req.path}` } }, 405, { allow });
    return c.json({ ok: false, error: { kind: 'not_found', message: `no API route ${c.req.method} ${c.req.path}; see /api/health, /api/devices, POST /api/validate, GET /api/runs/<run_id>/screenshots/<step_id>.png` } }, 404);
  });

  app.get('/ws', (c) => c.text('This is the WebSocket endpoint: connect with a WebSocket client (JSON-RPC 2.0, see docs/protocol.md).', 426));

  app.use('*', viewer(deps.webRoot, core.server.version));

  app.notFound((c) => c.text(`not found: ${c.req.path}`, 404));
  app.onError((err, c) => {
    // The client closed the connection while its body was read (Node's "aborted"): not our fault,
    // nobody gets the answer, and a stack trace per impatient client would only bury real faults.
    if ((err as NodeJS.ErrnoException).code === 'ECONNRESET') {
      return c.json({ ok: false, error: { kind: 'invalid_input', message: 'the client closed the connection before its request arrived' } }, 400);
    }
    core.log(`bridge: HTTP ${c.req.method} ${c.req.path} failed: ${err.stack ?? err.message}`);
    return c.json({ ok: false, error: { kind: 'internal', message: 'internal error; the server log has details' } }, 500);
  });
  return app;
}
