import * as v from 'valibot';
import type WebSocket from 'ws';
import { ToolError, failure } from '../engine/errors.js';
import { meantHint } from '../engine/tools/meant-name.js';
import { callName, paramIssues, type ParamIssue } from '../engine/tools/params.js';
import { RequestEnvelopeSchema, RPC_ERRORS, RpcError, type RequestId, type RpcResponse } from '../protocol/index.js';
import type { Connection } from './connection.js';
import { isCarriedNumber, peekRequestId } from './message-limit.js';
import type { Session } from './sessions.js';
import type { BridgeCore, MethodContext, MethodRegistry } from './registry.js';
import { sizeTokens } from './rate-limit.js';

export interface RpcLimits {
  maxMessageBytes: number;
  maxBatch: number;
}

interface Outcome {
  response?: RpcResponse;
  after: (() => void)[];
}

function errorResponse(id: RequestId, code: number, message: string, data?: unknown): RpcResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

/** Marks a notification among a batch's ids: it is never answered, not even when refused. */
const NOTIFICATION = Symbol('notification');
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
// A number JSON cannot carry back (1e400 parses to Infinity, which serialises as null) is no id,
// nor an integer beyond 2^53 − 1: it parses rounded (9223372036854775808 comes back as
// 9223372036854776000), and a client whose parser keeps integers exact never matches its answer.
const isValidId = (x: unknown): x is RequestId => typeof x === 'string' || isCarriedNumber(x) || x === null;

/** Why a numeric id is refused, for its -32600. */
function idOutOfRange(id: number): string {
  const what = Number.isFinite(id) ? `an integer beyond ±${Number.MAX_SAFE_INTEGER} is out of range: it would come back rounded` : `${id} is out of range: the answer could not carry it back`;
  return ` (${what}; send ids as strings or smaller numbers)`;
}

/**
 * The device a request with bad params was for, when it names one that is not itself what was
 * wrong: a client driving several phones learns which of its requests failed, as the engine's
 * tools tell it ("input.touch on virtual-android-1: …"). A device id with whitespace or control
 * characters is not repeated: it would break the message's one line, and it is no device id.
 */
function namedDevice(params: Record<string, unknown>, issues: readonly ParamIssue[]): string | undefined {
  const device = params.device;
  if (typeof device !== 'string' || !/^[^\s\p{C}]+$/u.test(device)) return undefined;
  return issues.some((i) => i.path === 'device') ? undefined : device;
}

/** The top-level names a method's params object takes (valibot object schemas list their entries). */
function paramNames(schema: unknown): string[] {
  const entries = (schema as { entries?: Record<string, unknown> }).entries;
  return entries ? Object.keys(entries) : [];
}

const isUnknownName = (i: ParamIssue) => i.message.startsWith('unknown parameter') && !i.path.includes('.');

/** "unknown parameter "arguments"" → "… (did you mean "parameters"?)": MCP's word for tools.call's parameters. */
function withMeantNames(issues: ParamIssue[], schema: unknown): ParamIssue[] {
  const known = paramNames(schema);
  return issues.map((i) => (isUnknownName(i) ? { ...i, message: `${i.message}${meantHint(i.path, known)}` } : i));
}

/** What the method takes, once, after an unknown name: the client need not look it up. */
function takes(method: string, issues: readonly ParamIssue[], schema: unknown): string {
  if (!issues.some(isUnknownName)) return '';
  const known = paramNames(schema);
  return `; ${method} takes ${known.length ? known.map((k) => `"${k}"`).join(', ') : 'no parameters'}`;
}

function byteLength(data: WebSocket.RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}

/** The first bytes of a message (peekRequestId reads no further). */
function head(data: WebSocket.RawData): Buffer {
  if (!Array.isArray(data)) return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data, 0, Math.min(data.byteLength, 1024)) : data.subarray(0, 1024));
  const parts: Buffer[] = [];
  let n = 0;
  for (const b of data) {
    if (n >= 1024) break;
    parts.push(b);
    n += b.length;
  }
  return Buffer.concat(parts).subarray(0, 1024);
}

function toText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('utf8');
}

/**
 * JSON-RPC 2.0 over one WebSocket: size cap, rate limit, parse, envelope check, batches,
 * method lookup, params validation, and error mapping. A fault in one message answers that
 * message only; the connection and every other session carry on. No stack ever reaches a client.
 */
export class RpcServer {
  private readonly inflight = new Set<Promise<unknown>>();
  /** Requests with an id still running; the bridge's shutdown aborts them. */
  private readonly cancellable = new Set<AbortController>();
  shuttingDown = false;

  constructor(
    private readonly core: BridgeCore,
    private readonly registry: MethodRegistry,
    private readonly limits: RpcLimits,
  ) {
    // One listener for all of them: one per request made Node warn once more than ten were in flight.
    const shutdown = core.shutdownSignal;
    shutdown.addEventListener('abort', () => {
      for (const c of this.cancellable) c.abort(shutdown.reason);
    }, { once: true });
  }

  /** Resolves when every call in progress has answered (or after `timeoutMs`). */
  async drain(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    while (this.inflight.size > 0) {
      const done = await Promise.race([Promise.allSettled([...this.inflight]).then(() => false), timeout.then(() => true)]);
      if (done) break;
    }
    clearTimeout(timer);
  }

  handle(conn: Connection<Session>, data: WebSocket.RawData, isBinary: boolean): void {
    if (isBinary) {
      if (this.admit(conn, [null])) this.send(conn, errorResponse(null, RPC_ERRORS.INVALID_REQUEST, 'binary messages are not accepted from clients; send JSON-RPC 2.0 requests as text'));
      return;
    }
    const size = byteLength(data);
    if (size > this.limits.maxMessageBytes) {
      // Not parsed (that is the point of the limit), but a request's id near its start is cheap to
      // read, and without it the caller could never match the refusal to its request.
      const id = peekRequestId(head(data)) ?? null;
      if (this.admit(conn, [id])) this.send(conn, errorResponse(id, RPC_ERRORS.INVALID_REQUEST, `message of ${size} bytes refused: the limit is ${this.limits.maxMessageBytes} bytes`));
      return;
    }
    // A message pays one token more per KiB beyond its first (rate-limit.ts): parsing and handling
    // grow with its size. One the bucket cannot pay for even as a single request is refused before
    // it is parsed, since parsing is part of what its size pays for; its id is read from its start,
    // as for a message over the size limit.
    const extra = sizeTokens(size, conn.bucket.burst);
    if (extra > 0 && !conn.bucket.has(extra + 1)) {
      this.refuse(conn, [peekRequestId(head(data)) ?? null], false, extra + 1);
      return;
    }
    let msg: unknown;
    try {
      msg = JSON.parse(toText(data));
    } catch (err) {
      if (this.admit(conn, [null], false, extra)) this.send(conn, errorResponse(null, RPC_ERRORS.PARSE_ERROR, `parse error: the message is not valid JSON (${(err as Error).message})`));
      return;
    }
    const items = Array.isArray(msg) ? msg : [msg];
    // Every request of a batch counts; refusals name the ids so clients can match them, and a
    // notification (an object without an id) gets none: JSON-RPC never answers one.
    const ids = items.slice(0, this.limits.maxBatch + 1).map((item) => (!isPlainObject(item) ? null : !Object.hasOwn(item, 'id') ? NOTIFICATION : isValidId(item.id) ? item.id : null));
    // An empty batch is one invalid request.
    if (!this.admit(conn, ids.length ? ids : [null], Array.isArray(msg) && ids.length > 0, extra)) return;
    if (!Array.isArray(msg)) {
      this.track(this.one(conn, msg).then((o) => this.finish(conn, o.response, o.after)));
      return;
    }
    if (msg.length === 0) {
      this.send(conn, errorResponse(null, RPC_ERRORS.INVALID_REQUEST, 'invalid request: an empty batch'));
      return;
    }
    if (msg.length > this.limits.maxBatch) {
      this.send(conn, errorResponse(null, RPC_ERRORS.INVALID_REQUEST, `invalid request: a batch of ${msg.length} requests; at most ${this.limits.maxBatch} are allowed`));
      return;
    }
    this.track(
      Promise.all(msg.map((item) => this.one(conn, item))).then((outcomes) => {
        const responses = outcomes.flatMap((o) => (o.response ? [o.response] : []));
        this.finish(conn, responses.length ? responses : undefined, outcomes.flatMap((o) => o.after));
      }),
    );
  }

  /**
   * Rate limit: takes a token per message of the batch, plus `extra` for its size (one per KiB
   * beyond the first); when there are too few, refuses it (see refuse) and returns false.
   */
  private admit(conn: Connection<Session>, ids: (RequestId | typeof NOTIFICATION)[], batch = false, extra = 0): boolean {
    // Refusals are forgiven when the client has paused long enough for its whole burst to come
    // back, not at its next accepted message: a client flooding steadily above the rate gets a
    // refilled token now and then, and a count reset by each of them never reached the close.
    // Above the rate the bucket never fills, so the count grows by (flood − rate) per second until
    // it passes `burst` (at twice the rate, after burst / rate seconds: 2 s at the defaults). A
    // client that waits retry_after_ms is refused no more, and one that bursts now and then with
    // pauses between gets its whole bucket back each time and starts over.
    if (conn.bucket.full()) conn.refusedSinceFull = 0;
    const cost = Math.max(1, ids.length) + extra;
    if (conn.bucket.take(cost)) return true;
    this.refuse(conn, ids, batch, cost);
    return false;
  }

  /**
   * A rate-limit refusal of a message costing `cost` tokens: each request gets -32000
   * (notifications get nothing, so a batch of only notifications gets no answer at all). Past
   * `burst` refusals without a pause, closes with 1008.
   */
  private refuse(conn: Connection<Session>, ids: (RequestId | typeof NOTIFICATION)[], batch: boolean, cost: number): void {
    conn.refusedSinceFull++;
    const limits = this.core.limits;
    if (conn.refusedSinceFull > limits.rate_limit_burst) {
      conn.close(1008, `rate limit exceeded without a pause: over ${limits.rate_limit_burst} messages refused; send at most ${limits.rate_limit_per_second}/s`);
      return;
    }
    const retry = conn.bucket.retryAfterMs(cost);
    const message = `rate limit exceeded: at most ${limits.rate_limit_per_second} messages per second (bursts of ${limits.rate_limit_burst}), a message counting once more per KiB beyond its first (this one ${cost}); retry after ${retry} ms`;
    const answered = ids.filter((id): id is RequestId => id !== NOTIFICATION);
    const responses = answered.map((id) => errorResponse(id, RPC_ERRORS.RATE_LIMITED, message, { retry_after_ms: retry }));
    // A single message is answered alone, a batch with an array (JSON-RPC 2.0 §6), even of one.
    if (responses.length) this.send(conn, batch ? responses : responses[0]);
  }

  private async one(conn: Connection<Session>, item: unknown): Promise<Outcome> {
    const after: (() => void)[] = [];
    if (!isPlainObject(item)) {
      return { response: errorResponse(null, RPC_ERRORS.INVALID_REQUEST, 'invalid request: each request must be a JSON object {"jsonrpc": "2.0", "method": …, "id": …}'), after };
    }
    const hasId = Object.prototype.hasOwnProperty.call(item, 'id');
    if (hasId && !isValidId(item.id)) {
      const why = typeof item.id === 'number' ? idOutOfRange(item.id) : '';
      return { response: errorResponse(null, RPC_ERRORS.INVALID_REQUEST, `invalid request: id must be a string, a number or null${why}`), after };
    }
    const id: RequestId = hasId ? (item.id as RequestId) : null;
    // A request whose caller is already gone is not run. A process resumed after a stop (SIGSTOP,
    // a stuck loop) finds what its callers sent and their close side by side in its sockets: those
    // callers gave up (an aggregator's call timed out), so their requests must not act now. libuv
    // reads the request in one poll and the close in the next, hence two turns of the loop (for
    // every message, so they keep their order). Notifications still run: their senders expect no answer.
    await nextTurn();
    await nextTurn();
    if (hasId && !conn.open) return { after };
    // Not even a notification runs from a connection whose session was resumed on another one: the
    // client drives it from there now, and a late `input.touch` down would press the screen for nobody.
    if (conn.replaced) return { after };
    const envelope = v.safeParse(RequestEnvelopeSchema, item);
    if (!envelope.success) {
      return { response: errorResponse(id, RPC_ERRORS.INVALID_REQUEST, `invalid request: ${paramIssues(envelope.issues).map((i) => i.message).join('; ')}`), after };
    }
    const { method, params } = envelope.output;
    const answer = (response: RpcResponse): Outcome => ({ response: hasId ? response : undefined, after });
    if (this.shuttingDown) return answer(errorResponse(id, RPC_ERRORS.SHUTTING_DOWN, 'the bridge is shutting down and takes no new requests'));
    if (conn.session.ended) return answer(errorResponse(id, RPC_ERRORS.INVALID_REQUEST, 'this connection\'s session has ended (session.bye); open a new connection'));
    const def = this.registry.get(method);
    if (!def) {
      return answer(errorResponse(id, RPC_ERRORS.METHOD_NOT_FOUND, `method "${method}" not found; available methods: ${this.registry.names().join(', ')}`));
    }
    if (params !== undefined && !isPlainObject(params)) {
      return answer(errorResponse(id, RPC_ERRORS.INVALID_PARAMS, `invalid params for ${method}: params must be a JSON object (named parameters)`));
    }
    const parsed = v.safeParse(def.params, params ?? {});
    if (!parsed.success) {
      const issues = withMeantNames(paramIssues(parsed.issues), def.params);
      const call = callName(method, namedDevice(params ?? {}, issues));
      return answer(errorResponse(id, RPC_ERRORS.INVALID_PARAMS, `invalid params for ${call}: ${issues.map((i) => i.message).join('; ')}${takes(method, issues, def.params)}`, { issues }));
    }
    const session = conn.session;
    const core = this.core;
    // Until it is answered, a request with an id can be cancelled by its session (requests.cancel);
    // the session's end and the bridge's shutdown abort it too.
    const key = hasId && id !== null ? id : undefined;
    const controller = key === undefined ? undefined : new AbortController();
    if (controller) {
      if (core.shutdownSignal.aborted) controller.abort(core.shutdownSignal.reason);
      this.cancellable.add(controller);
      const sameId = session.running.get(key!);
      if (sameId) sameId.add(controller);
      else session.running.set(key!, new Set([controller]));
    }
    const ctx: MethodContext = {
      bridge: core,
      engine: core.engine,
      session,
      connection: conn,
      signal: controller?.signal ?? core.shutdownSignal,
      notify: (name, p) => session.notify(name, p),
      // Keyed by the listed id: `serial@lab` must meet the lock taken on `serial` (one phone, two names).
      lockRefusal: (device, what) => core.locks.refusal(device, session, what),
      afterResponse: (fn) => after.push(fn),
    };
    try {
      const local = () => def.handler(parsed.output, ctx);
      const result = await (core.peers?.route(method, parsed.output as Record<string, unknown>, ctx, local) ?? local());
      return answer({ jsonrpc: '2.0', id, result: result === undefined ? null : result });
    } catch (err) {
      if (err instanceof RpcError) return answer(errorResponse(id, err.code, err.message, err.data));
      if (err instanceof ToolError) return answer({ jsonrpc: '2.0', id, result: failure(err.code, err.message) });
      core.log(`bridge: ${method} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      const why = err instanceof Error ? err.message : String(err);
      return answer(errorResponse(id, RPC_ERRORS.INTERNAL_ERROR, `internal error in ${method}: ${why}`));
    } finally {
      if (controller) {
        this.cancellable.delete(controller);
        const sameId = session.running.get(key!);
        if (sameId?.delete(controller) && sameId.size === 0) session.running.delete(key!);
      }
    }
  }

  private finish(conn: Connection<Session>, response: RpcResponse | RpcResponse[] | undefined, after: (() => void)[]): void {
    if (response) this.send(conn, response);
    for (const fn of after) {
      try {
        fn();
      } catch (err) {
        this.core.log(`bridge: after-response work failed: ${(err as Error).stack ?? String(err)}`);
      }
    }
  }

  private send(conn: Connection<Session>, response: RpcResponse | RpcResponse[]): void {
    conn.sendText(JSON.stringify(response));
  }

  private track(work: Promise<unknown>): void {
    const p = work.catch((err: unknown) => this.core.log(`bridge: unexpected dispatch failure: ${(err as Error).stack ?? String(err)}`));
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }
}
