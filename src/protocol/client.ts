import { decodeFrame, type DecodedFrame } from './frame.js';
import { isNotification, isResponse, RpcError, type RpcRequest } from './jsonrpc.js';
import { batchSizeError, oversizeError } from './message-size.js';
import { onAbort } from '../engine/abort-fanout.js';
import {
  ConnectionClosedError,
  ResultFailureError,
  type BridgeClientOptions,
  type ConnectionState,
  type ReconnectOptions,
  type SessionEvent,
  type WebSocketLike,
} from './client-types.js';
import { isFailureResult, type HelloResult, type MethodName, type ParamsOf, type ResultOf, type ScreenOptions, type SubscriptionInfo } from './methods.js';
import type { NotificationName, NotificationParams } from './notifications.js';
import { ClientListeners } from './client-listeners.js';
import { PendingRequests } from './pending-requests.js';
import { ResumableSession, type KnownSubscription } from './resumable-session.js';

/**
 * A typed client for the bridge protocol: request/response correlation, notifications,
 * binary frames, and reconnect with session resume. Transport-agnostic and browser-safe:
 * it takes a factory for anything WebSocket-shaped (the browser's `WebSocket`, or `ws` in
 * Node — see `./node.ts` for a ready factory with token headers).
 */

export * from './client-types.js';

/** Server close codes after which reconnecting would be wrong. */
const FINAL_CLOSE_CODES = new Set([1000, 4000]);

const OPEN = 1;

export class BridgeClient {
  private socket?: WebSocketLike;
  private stateValue: ConnectionState = 'connecting';
  private nextId = 1;
  private readonly pending: PendingRequests;
  /** Messages written while (re)connecting, sent once the session is ready, with the request ids they carry (none: a notification). */
  private queue: { text: string; ids: number[] }[] = [];
  private ready = false;
  private closedByUser = false;
  private attempts = 0;
  private reconnectTimer?: ReturnType<typeof setTimeout>;
  private readonly resumable = new ResumableSession();
  private readonly listeners = new ClientListeners();
  private lastHello?: HelloResult;
  /**
   * Frames and notifications that arrive while a new session re-creates the old one's subscriptions:
   * delivered after the session event, which tells listeners the new subscription ids. Delivered at
   * once, the first frame of a subscription made again went to listeners that still knew only the old
   * id and dropped it, and a still screen sends no other: after a bridge restart, a blank screen.
   */
  private held?: (() => void)[];
  private lastError?: Error;
  private readonly reconnect: Required<ReconnectOptions> | undefined;

  constructor(private readonly options: BridgeClientOptions) {
    this.pending = new PendingRequests(options.requestTimeoutMs ?? 0);
    const r = options.reconnect ?? true;
    this.reconnect =
      r === false
        ? undefined
        : {
            initialDelayMs: (r === true ? undefined : r.initialDelayMs) ?? 200,
            maxDelayMs: (r === true ? undefined : r.maxDelayMs) ?? 5000,
            maxAttempts: (r === true ? undefined : r.maxAttempts) ?? Number.POSITIVE_INFINITY,
          };
  }

  /** Opens the connection and says hello; rejects when the first connection fails. */
  static async connect(options: BridgeClientOptions): Promise<BridgeClient> {
    const client = new BridgeClient(options);
    await client.start();
    return client;
  }

  get state(): ConnectionState {
    return this.stateValue;
  }

  /** The public session id (what other participants see in activity events). */
  get session(): string | undefined {
    return this.resumable.id;
  }

  /** The last `session.hello` answer: server version, limits, subscriptions. */
  get hello(): HelloResult | undefined {
    return this.lastHello;
  }

  /** Subscriptions this client holds, by current id. */
  get activeSubscriptions(): ReadonlyMap<string, Readonly<KnownSubscription>> {
    return this.resumable.subscriptions;
  }

  /** Opens the connection and says hello (what `connect` does); rejects when the first connection fails. */
  start(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const offSession = this.onSession(() => {
        if (settled) return;
        settled = true;
        offSession();
        offState();
        resolve();
      });
      const offState = this.onState((state) => {
        if (state !== 'closed' || settled) return;
        settled = true;
        offSession();
        offState();
        reject(this.lastError ?? new ConnectionClosedError(`could not connect to ${this.options.url}`));
      });
      this.openSocket(true);
    });
  }

  // ------------------------------------------------------------------ requests

  /** A message the bridge would refuse unread (so answer with no id): refused here before sending. */
  private oversize(text: string, what: string): RpcError | undefined {
    return oversizeError(text, what, this.lastHello?.limits?.max_message_bytes);
  }

  request<M extends MethodName>(method: M, params?: ParamsOf<M>): Promise<ResultOf<M>> {
    return this.requestRaw(method, params ?? {}) as Promise<ResultOf<M>>;
  }

  /**
   * For methods this client version does not know (extensions). `signal`: when it aborts, the
   * bridge is asked to cancel the request (requests.cancel); its answer still comes (a verb's says
   * it was cancelled).
   */
  requestRaw(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    if (this.stateValue === 'closed') return Promise.reject(new ConnectionClosedError('the client is closed'));
    const id = this.nextId++;
    const text = JSON.stringify({ jsonrpc: '2.0', id, method, params } satisfies RpcRequest);
    const refused = this.oversize(text, method);
    if (refused) return Promise.reject(refused);
    const promise = this.pending.expect(id, method);
    this.sendOrQueue(text, [id]);
    if (signal) {
      const cancel = () => void (this.pending.has(id) && this.requestRaw('requests.cancel', { id }).catch(() => undefined));
      if (signal.aborted) cancel();
      else void promise.finally(onAbort(signal, cancel)).catch(() => undefined);
    }
    return promise;
  }

  /**
   * Sends several requests as one JSON-RPC batch; answers in the same order, each the request's
   * result or, for a protocol fault of that request alone, its `RpcError` (check with
   * `instanceof RpcError`). The others ran whatever one entry's fault, so their answers are kept:
   * a batch that rejected as a whole would hide that its tap went through. It rejects only when no
   * answer can come (the connection closed, the client timed out).
   */
  batch(calls: { method: string; params?: unknown }[]): Promise<(unknown | RpcError)[]> {
    if (this.stateValue === 'closed') return Promise.reject(new ConnectionClosedError('the client is closed'));
    // The bridge answers an empty batch with an error nobody's id: there is nothing to send.
    if (calls.length === 0) return Promise.resolve([]);
    const tooMany = batchSizeError(calls.length, this.lastHello?.limits?.max_batch);
    if (tooMany) return Promise.reject(tooMany);
    const requests = calls.map((c) => ({ jsonrpc: '2.0' as const, id: this.nextId++, method: c.method, params: c.params ?? {} }));
    const text = JSON.stringify(requests);
    const refused = this.oversize(text, `a batch of ${requests.length}`);
    if (refused) return Promise.reject(refused);
    const promises = requests.map((r) => this.pending.expect(r.id, r.method).catch((err: unknown) => {
      if (err instanceof RpcError) return err;
      throw err;
    }));
    this.sendOrQueue(text, requests.map((r) => r.id));
    return Promise.all(promises);
  }

  /** A JSON-RPC notification to the server (no answer); one over the bridge's message limit is not sent (onError says so). */
  notify(method: string, params?: unknown): void {
    const text = JSON.stringify({ jsonrpc: '2.0', method, params: params ?? {} });
    const refused = this.oversize(text, method);
    if (refused) return this.listeners.error(refused);
    this.sendOrQueue(text, []);
  }

  private sendOrQueue(text: string, ids: number[]): void {
    if (this.ready) this.socket?.send(text);
    else this.queue.push({ text, ids });
  }

  /** Runs an engine tool; the tool's result (a failure is `{status: "error", …}`, not an exception). */
  callTool(tool: string, parameters: Record<string, unknown> = {}): Promise<unknown> {
    return this.request('tools.call', { tool, parameters });
  }

  /** Subscribes to a device's frames and/or element events; throws ResultFailureError on a failure result. */
  async subscribe(device: string, options: { screen?: ScreenOptions; elements?: boolean } = {}): Promise<SubscriptionInfo> {
    const result = await this.request('devices.subscribe', { device, ...options });
    if (isFailureResult(result)) throw new ResultFailureError(result);
    this.resumable.subscriptions.set(result.subscription, { device, screen: options.screen, elements: options.elements ?? false });
    return result;
  }

  async unsubscribe(subscription: string): Promise<void> {
    this.resumable.subscriptions.delete(subscription);
    const result = await this.request('devices.unsubscribe', { subscription });
    if (isFailureResult(result)) throw new ResultFailureError(result);
  }

  // ------------------------------------------------------------------ events

  on<N extends NotificationName>(name: N, listener: (params: NotificationParams[N]) => void): () => void;
  on(name: string, listener: (params: unknown) => void): () => void;
  on(name: string, listener: (params: never) => void): () => void {
    return this.listeners.onNotification(name, listener as (params: unknown) => void);
  }

  onFrame(listener: (frame: DecodedFrame) => void): () => void {
    return this.listeners.onFrame(listener);
  }

  onState(listener: (state: ConnectionState) => void): () => void {
    return this.listeners.onState(listener);
  }

  /** After every (re)connection: whether the session was resumed, what was replayed or lost. */
  onSession(listener: (event: SessionEvent) => void): () => void {
    return this.listeners.onSession(listener);
  }

  /** Transport errors and undecodable messages (informational; the client recovers by itself). */
  onError(listener: (err: Error) => void): () => void {
    return this.listeners.onError(listener);
  }

  /** Says `session.bye` (ending the session: subscriptions and locks go) and closes the socket. */
  async close(): Promise<void> {
    if (this.stateValue === 'closed') return;
    if (this.ready && this.socket?.readyState === OPEN) {
      await withTimeout(this.request('session.bye', {}), 1000).catch(() => undefined);
    }
    this.shutdown(1000, 'client closed');
  }

  // ------------------------------------------------------------------ internals

  private shutdown(code: number, reason: string): void {
    this.closedByUser = true;
    clearTimeout(this.reconnectTimer);
    const socket = this.socket;
    this.socket = undefined;
    this.ready = false;
    this.pending.failAll(new ConnectionClosedError('the client was closed', code, reason));
    if (socket && socket.readyState <= OPEN) socket.close(code, reason);
    this.setState('closed');
  }

  private openSocket(initial: boolean): void {
    this.setState(initial ? 'connecting' : 'reconnecting');
    let socket: WebSocketLike;
    try {
      socket = this.options.createSocket(this.options.url);
    } catch (err) {
      this.lastError = err instanceof Error ? err : new Error(String(err));
      this.afterClose(initial, undefined, undefined);
      return;
    }
    this.socket = socket;
    this.ready = false;
    this.resumable.newConnection();
    let opened = false;
    // Browsers default to Blob, which can only be read asynchronously and would reorder frames.
    if (socket.binaryType === 'blob') socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      opened = true;
      this.attempts = 0;
      void this.sayHello(socket, initial);
    };
    socket.onmessage = (event: { data: unknown }) => this.onMessage(socket, event.data);
    socket.onerror = (event: { message?: string; error?: unknown }) => {
      const err = event?.error instanceof Error ? event.error : new Error(event?.message ?? 'WebSocket error');
      this.lastError = err;
      this.listeners.error(err);
    };
    socket.onclose = (event: { code?: number; reason?: string }) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.ready = false;
      this.pending.failAll(new ConnectionClosedError(`connection closed (${event?.code ?? 'no code'}${event?.reason ? `: ${event.reason}` : ''})`, event?.code, event?.reason));
      if (this.closedByUser) return;
      this.afterClose(initial && !this.resumable.id, opened ? event?.code : undefined, event?.reason);
    };
  }

  private afterClose(initial: boolean, code: number | undefined, reason: string | undefined): void {
    if (this.closedByUser) return;
    const final = code !== undefined && FINAL_CLOSE_CODES.has(code);
    if (initial || final || !this.reconnect || this.attempts >= this.reconnect.maxAttempts) {
      if (final && reason) this.lastError = new ConnectionClosedError(`server closed the connection: ${reason}`, code, reason);
      this.closedByUser = true;
      this.pending.failAll(new ConnectionClosedError('connection closed', code, reason));
      this.queue = [];
      this.setState('closed');
      return;
    }
    const delay = Math.min(this.reconnect.maxDelayMs, this.reconnect.initialDelayMs * 2 ** this.attempts);
    this.attempts++;
    this.setState('reconnecting');
    this.reconnectTimer = setTimeout(() => this.openSocket(false), delay * (0.8 + Math.random() * 0.4));
  }

  private async sayHello(socket: WebSocketLike, initial: boolean): Promise<void> {
    const id = this.nextId++;
    const resuming = this.resumable.id !== undefined;
    const params = this.resumable.helloParams(this.options.client);
    const answer = this.pending.expect(id, 'session.hello');
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'session.hello', params }));
    let hello: HelloResult;
    try {
      hello = (await answer) as HelloResult;
    } catch (err) {
      this.lastError = err instanceof Error ? err : new Error(String(err));
      if (this.socket === socket) socket.close(4003, 'session.hello failed');
      return;
    }
    if (this.socket !== socket) return;
    this.lastHello = hello;
    const event = this.resumable.adopt(hello, initial);
    this.ready = true;
    this.setState('open');
    const queued = this.queue;
    this.queue = [];
    // A request that failed while it waited (a reconnect attempt failed) was answered as failed: sending it
    // now would do what its caller was told did not happen.
    for (const { text, ids } of queued) if (ids.length === 0 || ids.some((id) => this.pending.has(id))) socket.send(text);
    if (!hello.resumed && resuming) {
      const held: (() => void)[] = (this.held = []);
      try {
        await this.resumable.resubscribe(event, (sub) => this.request('devices.subscribe', { device: sub.device, screen: sub.screen, elements: sub.elements }));
      } finally {
        if (this.held === held) this.held = undefined;
      }
      this.listeners.session(event);
      for (const deliver of held) deliver();
      return;
    }
    this.listeners.session(event);
  }

  private onMessage(socket: WebSocketLike, data: unknown): void {
    if (typeof data === 'string') {
      let msg: unknown;
      try {
        msg = JSON.parse(data);
      } catch {
        this.listeners.error(new Error('server sent a text message that is not JSON'));
        return;
      }
      for (const one of Array.isArray(msg) ? msg : [msg]) this.onJson(socket, one);
      return;
    }
    let bytes: ArrayBuffer | ArrayBufferView | undefined;
    if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) bytes = data;
    if (!bytes) {
      this.listeners.error(new Error('binary message in an unsupported form; set binaryType to "arraybuffer"'));
      return;
    }
    let frame: DecodedFrame;
    try {
      frame = decodeFrame(bytes);
    } catch (err) {
      this.listeners.error(err as Error);
      return;
    }
    if (this.held) this.held.push(() => this.listeners.frame(frame));
    else this.listeners.frame(frame);
  }

  private onJson(socket: WebSocketLike, msg: unknown): void {
    if (isResponse(msg)) {
      this.pending.settle(msg);
      return;
    }
    if (!isNotification(msg)) return;
    this.resumable.notified(msg.method, msg.params, this.ready && this.socket === socket);
    const deliver = () => this.listeners.notification(msg.method, msg.params);
    if (this.held) this.held.push(deliver);
    else deliver();
  }

  private setState(state: ConnectionState): void {
    if (this.stateValue === state) return;
    this.stateValue = state;
    this.listeners.state(state);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]);
}
