import type http from 'node:http';

import { knownRoute, LEGACY_CODES, toWdaFailure, unhandled, WdaFailure } from './wda-failure.js';
import { WDA_HEADERS, wdaJson } from './wda-documents.js';
import type { EmulatedWdaOptions, WdaFaults } from './wda-faults.js';
import type { WdaSessions } from './wda-sessions.js';
import { answerAsFramework, answerAsProxy, reshaped } from './wda-shapes.js';

/*
 * How a request reaches an emulated WDA's routes and how their answer goes back: the faults of what stands in
 * front of WDA (a proxy, a path prefix, a hang, a reset), the session id check of FBRoute.m, and the envelope of
 * the answer or the failure, W3C's or the legacy JSON Wire one. Apart from emulated-wda.ts, which holds the
 * routes themselves and the state they answer from.
 */

type Json = unknown;

/** What the request handling needs of the emulated WDA. */
export interface WdaRoutes {
  readonly faults: WdaFaults;
  /** Every request as "METHOD /path" (session ids replaced by :id), for assertions. */
  readonly requests: string[];
  readonly sessions: WdaSessions;
  readonly options: EmulatedWdaOptions;
  /** A build before 2024: its routing (RoutingHTTPServer) differs from 16.7.0's. */
  readonly older: boolean;
  route(method: string, path: string, url: URL, body: Record<string, unknown>, inSession: boolean): Promise<Json>;
}

/** One HTTP request to the emulated WDA, from its body to the answer; the route is the WDA's own. */
export async function handleWdaRequest(wda: WdaRoutes, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  if (wda.faults.proxyAnswers) return answerAsProxy(res, wda.faults.proxyAnswers);
  const prefix = wda.faults.pathPrefix;
  if (prefix && !req.url?.startsWith(`${prefix}/`)) return answerAsProxy(res, 404);
  const url = new URL((prefix ? req.url?.slice(prefix.length) : req.url) ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const method = req.method ?? 'GET';
  let body: Record<string, unknown> = {};
  try {
    body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
  } catch {
    // WDA treats an unreadable body as no arguments (FBWebServer.m).
  }
  let path = url.pathname;
  const m = /^\/session\/([^/]+)(\/.*)?$/.exec(path);
  wda.requests.push(`${method} ${m ? `/session/:id${m[2] ?? ''}` : path}`);
  if (wda.faults.hangOn?.test(wda.requests.at(-1)!)) return;
  if (wda.faults.slowOn?.request.test(wda.requests.at(-1)!)) await wda.faults.slowOn.until;
  try {
    if (wda.faults.onlyRoutes && !wda.faults.onlyRoutes.includes(routeName(method, m ? m[2] ?? '' : path, Boolean(m)))) {
      if (wda.faults.othersAs) return answerAsFramework(res, wda.faults.othersAs, method, url.pathname);
      throw unhandled(url, wda.older);
    }
    if (m) {
      path = m[2] ?? '';
      // FBWebServer.m registers FBUnknownCommands' catch-all (/*, withoutSession) last: a route WDA lacks is
      // "unknown command" whatever the session id; only a known one checks it (FBRoute.m decorateRequest).
      if (!knownRoute(method, path)) throw unhandled(url, wda.older);
      if (m[1] !== wda.sessions.id) throw new WdaFailure('invalid session id', 404, 'Session does not exist');
    }
    const value = reshaped(wda.faults, `${method} ${path}${url.search}`, await wda.route(method, path, url, body, Boolean(m)));
    const request = `${method} ${m ? `/session/:id${m[2] ?? ''}` : url.pathname}`;
    if (wda.faults.resetAfter?.test(request)) return void req.socket.destroy();
    send(res, 200, wda.options.legacy ? { value, sessionId: wda.sessions.id, status: 0 } : { value, sessionId: wda.sessions.id });
    wda.faults.afterAnswer?.(request);
  } catch (err) {
    const f = err instanceof WdaFailure ? err : toWdaFailure(err);
    // Before W3C (2019) FBResponseWithStatus answered HTTP 200 {value: message, sessionId, status: <JSON Wire code>}.
    if (wda.options.legacy) {
      // FBOrientationCommands.m then refused a rotation with FBCommandStatusRotationNotAllowed.
      const status = f.message === 'Unable To Rotate Device' ? 777 : (LEGACY_CODES[f.error] ?? 13);
      return send(res, 200, { value: f.message, sessionId: wda.sessions.id, status });
    }
    send(res, f.status, { value: { error: f.error, message: f.message, traceback: '' }, sessionId: wda.sessions.id });
  }
}

function send(res: http.ServerResponse, status: number, payload: Json): void {
  const text = wdaJson(payload);
  res.writeHead(status, { ...WDA_HEADERS, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A request as `onlyRoutes` names it: "GET /source" inside a session or out, "DELETE /session/:id" for ending one. */
function routeName(method: string, path: string, inSession: boolean): string {
  if (inSession && path === '') return `${method} /session/:id`;
  return `${method} ${path.replace(/^\/element\/(?!active$)[^/]+/, '/element/:uuid')}`;
}
