import http from 'node:http';
import { explainAbort } from '../../deadline.js';
import { ToolError } from '../../errors.js';
import { SharedRun } from './shared-run.js';

/** Why a route may take long: XCTest snapshots the element tree for these. */
const slowRoute = (path: string): string =>
  /\/(source|elements?|element\/[^/]+\/elements?)$/.test(path) ? ' (XCTest snapshots the whole element tree for it, which takes long on a huge or animating screen)' : '';

/**
 * A WebDriverAgent URL as given, without a trailing slash: WDA answers at its root, yet a proxy may serve it under a
 * path (http://gateway:8080/iphone1), every route then under that path.
 */
export function withPath(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * An error WebDriverAgent reported. WDA answers every route with {value, sessionId}; on failure
 * value is {error, message, traceback} with W3C error names such as "invalid session id" (404),
 * "invalid element state" (400), "unknown error" (500)
 * (appium/WebDriverAgent WebDriverAgentLib/Routing/FBResponsePayload.m and FBCommandStatus.m).
 */
export class WdaError extends Error {
  constructor(
    readonly error: string,
    readonly detail: string,
    readonly httpStatus: number,
  ) {
    super(`WebDriverAgent: ${error}${detail ? `: ${detail}` : ''}`);
    this.name = 'WdaError';
  }
}

export interface WdaClientOptions {
  /** Who the client talks for, used in messages ("simulator 1234…"). */
  deviceLabel: string;
  /** How to get WebDriverAgent running, quoted when nothing answers. */
  startHint: string;
  /** Per-request ceiling when the caller gives no signal. */
  requestTimeoutMs?: number;
}

interface Envelope {
  value?: unknown;
  sessionId?: string | null;
  /** WDA before the W3C protocol (2019): 0 success, else a JSON Wire error code, all with HTTP 200. */
  status?: unknown;
}

/**
 * JSON Wire status codes of WDA before W3C (FBCommandStatus.h before appium/WebDriverAgent 5d6f1bf) and
 * the W3C error names they became. Those builds answered errors with HTTP 200, {status: code, value: message}.
 */
const LEGACY_STATUS: Record<number, string> = {
  1: 'unsupported operation',
  6: 'invalid session id',
  7: 'no such element',
  9: 'unknown command',
  10: 'stale element reference',
  11: 'element not visible',
  12: 'invalid element state',
  13: 'unknown error',
  15: 'invalid argument',
  21: 'timeout',
  26: 'unexpected alert open',
  27: 'no such alert',
  29: 'invalid coordinates',
  32: 'invalid selector',
  33: 'session not created',
  405: 'unknown method',
  888: 'invalid element state',
  889: 'invalid element state',
};

/**
 * The JSON Wire status as its W3C name. Those builds answered a route they lacked with status 1 (Unsupported) and
 * "Unhandled endpoint: …" (FBUnknownCommands.m), never 9: that is what W3C builds call "unknown command". An app crash
 * (889) and a deadlock (888) became "invalid element state" (FBExceptionHandler.m).
 */
function legacyError(status: number, detail: string): string {
  if (status === 1 && /^Unhandled endpoint/.test(detail)) return 'unknown command';
  return LEGACY_STATUS[status] ?? 'unknown error';
}

const SESSION_GONE = 'invalid session id';

/** HTTP statuses a gateway answers with when the server behind it (here WDA) refused, failed or timed out. */
const GATEWAY_FAILURES = new Set([502, 503, 504]);

/**
 * Requests that change nothing, or change it to the same end state when sent twice. Only these are
 * re-sent after a connection reset, because a reset can come after WDA already acted: a tap or
 * typed text sent again would happen twice.
 */
export function isRepeatable(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD' || method === 'DELETE') return true;
  return method === 'POST' && /^(\/session\/[^/]+)?\/(session|elements?|orientation)$/.test(path.split('?')[0]) || path === '/session';
}

/**
 * Nothing usable answered at the WDA URL. `sent` is false when the request surely never left
 * (connection refused); `staleSocket` marks a reset on a kept-alive socket, the usual sign of a WDA restart.
 */
export class WdaUnreachableError extends ToolError {
  constructor(
    message: string,
    readonly sent: boolean,
    readonly staleSocket: boolean,
  ) {
    super('UNSUPPORTED', message);
  }
}

/**
 * FBSession.activeApplication: a session opened with a bundleId (Appium's, which we adopt) whose app
 * stopped behind WDA's back (simctl, `ios kill`, a crash) fails every route that looks at the app with
 * FBApplicationCrashedException, answered as "invalid element state" (FBExceptionHandler.m), until that
 * app runs again. A session of our own tests no app and never answers this.
 */
function testedAppGone(err: WdaError): boolean {
  return err.error === 'invalid element state' && /application under test with bundle id .* is not running, possibly crashed/.test(err.message);
}

/**
 * One WebDriverAgent endpoint: keep-alive connections and one long-lived session, opened on first
 * use and opened again once, transparently, when WDA restarted and no longer knows the session id.
 * Opening a session per call (as other tools do) costs hundreds of milliseconds each time.
 */
export class WdaClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  private sessionId: string | undefined;
  /** The session WDA last said it no longer knows: never adopted again (a /status sent before it ended may still name it). */
  private goneSessionId: string | undefined;
  private creating: SharedRun<string> | undefined;
  /** The server answered a request as WebDriverAgent does (a JSON envelope, 2xx) at least once. */
  private spokeWda = false;
  /** Sessions opened or adopted so far: a new one may be a restarted (or updated) WebDriverAgent. */
  sessionsOpened = 0;

  constructor(
    readonly baseUrl: string,
    private readonly options: WdaClientOptions,
  ) {}

  /** GET /status: WDA's readiness document; answers without a session. */
  status(signal?: AbortSignal): Promise<unknown> {
    return this.call('GET', '/status', undefined, signal);
  }

  /** A route outside any session. */
  async call(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    return (await this.send(method, path, body, signal)).value;
  }

  /**
   * A route under /session/:id, re-creating the session once if WDA no longer knows it, or if it is a
   * session we adopted whose app under test stopped (testedAppGone): WDA refuses such a session every
   * in-session route until that app runs again, before acting on the request, so the retry is safe.
   */
  async sessionCall(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const id = await this.session(signal);
    try {
      return (await this.send(method, `/session/${id}${path}`, body, signal)).value;
    } catch (err) {
      if (!(err instanceof WdaError) || (err.error !== SESSION_GONE && !testedAppGone(err))) throw err;
      if (this.sessionId === id) this.sessionId = undefined;
      this.goneSessionId = id;
      const fresh = await this.session(signal);
      return (await this.send(method, `/session/${fresh}${path}`, body, signal)).value;
    }
  }

  /**
   * A route under the open session, if there is one, without re-creating it: undefined when no
   * session is open or the call fails. For reads sent beside another session call, which alone
   * re-creates a session WDA lost (two calls re-creating it at once made two sessions).
   */
  async openSessionCall(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    if (!this.sessionId) return undefined;
    try {
      return (await this.send(method, `/session/${this.sessionId}${path}`, body, signal)).value;
    } catch {
      return undefined;
    }
  }

  close(): void {
    this.agent.destroy();
  }

  /** Callers at once share one opening, each within its own deadline (shared-run.ts): one giving up fails no other. */
  private session(signal?: AbortSignal): Promise<string> {
    if (this.sessionId) return Promise.resolve(this.sessionId);
    if (!this.creating || this.creating.abandoned) {
      const opening: SharedRun<string> = new SharedRun((shared) =>
        this.openSession(shared).finally(() => {
          if (this.creating === opening) this.creating = undefined;
        }),
      );
      this.creating = opening;
    }
    return this.creating.wait(signal);
  }

  /**
   * WDA keeps one session, and POST /session first kills the one open (FBSessionCommands.m
   * handleCreateSession), terminating that session's app unless the shouldTerminateApp its own
   * client chose is off: ours cannot prevent it, as our capabilities are applied only after the
   * kill. So a session another client (Appium) keeps open is used as it is: every WDA answer names
   * the open session (FBResponsePayload.m), /status included. Only without one is ours created.
   */
  private async openSession(signal?: AbortSignal): Promise<string> {
    const open = (await this.send('GET', '/status', undefined, signal)).sessionId;
    if (typeof open === 'string' && open && open !== this.goneSessionId) {
      this.sessionsOpened++;
      return (this.sessionId = open);
    }
    // W3C new-session body; no bundleId so WDA attaches to whatever app is in front, and a later
    // client's session that replaces ours has no app of ours to terminate.
    const reply = await this.send('POST', '/session', { capabilities: { alwaysMatch: {}, firstMatch: [{}] } }, signal);
    const value = reply.value as { sessionId?: unknown } | null | undefined;
    const id = typeof value?.sessionId === 'string' ? value.sessionId : reply.sessionId;
    if (typeof id !== 'string' || !id) throw new ToolError('INTERNAL', `WebDriverAgent at ${this.baseUrl} created a session without an id for ${this.options.deviceLabel}`);
    this.sessionsOpened++;
    this.sessionId = id;
    return id;
  }

  private async send(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<Envelope> {
    try {
      return await this.request(method, path, body, signal);
    } catch (err) {
      // A kept-alive socket that WDA closed (e.g. it restarted) fails on first write: retry once on a new socket,
      // but only what is safe to repeat — the reset may also have come after WDA acted on the request.
      if (err instanceof WdaUnreachableError && err.staleSocket && isRepeatable(method, path)) {
        // The other idle sockets are from before the restart too: the retry would take one of them.
        this.dropIdleSockets();
        return this.request(method, path, body, signal);
      }
      throw err;
    }
  }

  private dropIdleSockets(): void {
    for (const sockets of Object.values(this.agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  }

  private request(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<Envelope> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason ?? new ToolError('TIMEOUT', `${method} ${path} was cancelled`));
        return;
      }
      const url = new URL(`${this.baseUrl.replace(/\/+$/, '')}${path}`);
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = http.request(url, {
        method,
        agent: this.agent,
        signal,
        headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
        timeout: this.options.requestTimeoutMs ?? 60_000,
      });
      req.on('timeout', () => req.destroy(new ToolError('TIMEOUT', `WebDriverAgent at ${this.baseUrl} did not answer ${method} ${url.pathname} in time for ${this.options.deviceLabel}`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (signal?.aborted) return reject(signal.reason === undefined ? err : explainAbort(signal.reason, `WebDriverAgent at ${this.baseUrl} had not answered ${method} ${url.pathname} by then${slowRoute(url.pathname)}`));
        if (err instanceof ToolError) return reject(err);
        reject(this.unreachable(err, req.reusedSocket && err.code === 'ECONNRESET'));
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => reject(this.unreachable(err, false)));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let envelope: Envelope;
          try {
            envelope = JSON.parse(text) as Envelope;
          } catch {
            if (res.statusCode !== undefined && GATEWAY_FAILURES.has(res.statusCode)) return reject(this.proxyFailed(res.statusCode, method, url.pathname));
            if (this.routeNotFound(res.statusCode)) return reject(new WdaError('unknown command', `HTTP ${res.statusCode} with a page of its own: ${JSON.stringify(text.slice(0, 120))}`, res.statusCode ?? 0));
            return reject(new ToolError('INTERNAL', `${this.baseUrl} answered ${method} ${url.pathname} with something that is not WebDriverAgent JSON (HTTP ${res.statusCode}): ${JSON.stringify(text.slice(0, 120))}; is another server using this port?`));
          }
          const value = envelope?.value as { error?: unknown; message?: unknown } | null | undefined;
          const legacy = envelope?.status;
          if (typeof legacy === 'number' && legacy !== 0) {
            const detail = typeof envelope.value === 'string' ? envelope.value : typeof value?.message === 'string' ? value.message : JSON.stringify(envelope.value ?? null);
            return reject(new WdaError(legacyError(legacy, detail), `${detail} (status ${legacy})`, res.statusCode ?? 0));
          }
          if (value && typeof value === 'object' && typeof value.error === 'string') {
            return reject(new WdaError(value.error, typeof value.message === 'string' ? value.message : '', res.statusCode ?? 0));
          }
          if (this.routeNotFound(res.statusCode)) return reject(new WdaError('unknown command', `HTTP ${res.statusCode} without a WebDriverAgent error: ${JSON.stringify(text.slice(0, 120))}`, res.statusCode ?? 0));
          if ((res.statusCode ?? 500) >= 400) return reject(new WdaError('unknown error', `HTTP ${res.statusCode}`, res.statusCode ?? 0));
          this.spokeWda = true;
          resolve(envelope);
        });
      });
      req.end(payload);
    });
  }

  /**
   * A 404 or 405 without WDA's own error, from a server that has answered as WebDriverAgent before: an emulation of
   * WDA built on a web framework answers a route it lacks with the framework's default (Express's "Cannot GET /x"
   * page, Fastify's JSON), where WDA itself answers "unknown command". From a server that never answered as WDA it
   * stays "not WebDriverAgent" (another server on the port).
   */
  private routeNotFound(status: number | undefined): boolean {
    return (status === 404 || status === 405) && this.spokeWda;
  }

  /**
   * A proxy between us and WDA (nginx, a device farm's gateway) answers in WDA's stead, with a page of its own, when
   * WDA behind it is not running or not answering. Whether the request reached WDA before that cannot be told.
   */
  private proxyFailed(status: number, method: string, path: string): WdaUnreachableError {
    const what = `${status} ${http.STATUS_CODES[status] ?? ''}`.trim();
    return new WdaUnreachableError(
      `WebDriverAgent is not answering for ${this.options.deviceLabel}: ${this.baseUrl} answered ${method} ${path} with HTTP ${what} and a page that is not WebDriverAgent's, as a proxy in front of WebDriverAgent does when WebDriverAgent behind it is not running or does not answer. ${this.options.startHint}`,
      true,
      false,
    );
  }

  private unreachable(err: NodeJS.ErrnoException, staleSocket: boolean): WdaUnreachableError {
    const refused = err.code === 'ECONNREFUSED';
    const why = refused ? 'nothing answers' : `the connection failed (${err.code ?? err.message})`;
    return new WdaUnreachableError(`WebDriverAgent is not running for ${this.options.deviceLabel}: ${why} at ${this.baseUrl}. ${this.options.startHint}`, !refused, staleSocket);
  }
}
