import WebSocket from 'ws';

export type LinkState = 'connecting' | 'open' | 'down' | 'closed';

export interface RpcLinkOptions {
  url: string;
  /** Sent as a bearer header (a `?token=` in the URL works too). */
  token?: string;
  /** Shown to the peer's participants in activity and lock events. */
  client: string;
  /** Reconnect after a drop with backoff (the aggregator's shared link); per-session links do not. */
  reconnect: boolean;
  firstRetryMs?: number;
  maxRetryMs?: number;
  /**
   * Liveness: a ping this often, and a ping still unanswered when the next is due means the peer
   * stopped answering (frozen, its event loop stuck): the link is cut (default 5000 ms). Without
   * it a stopped process keeps its TCP connections open and every call waits forever.
   */
  pingMs?: number;
  /** Deadline of the WebSocket handshake and of session.hello (default 10000 ms). */
  connectTimeoutMs?: number;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
}

/**
 * A request the peer did not answer in time (its deadline, or the link cut for missing pongs).
 * Unlike a refused connection its fate is unknown: the peer may have run it, or may still.
 */
/** The peer answered the WebSocket upgrade with a refusal (a wrong token): retrying alone will not help. */
export class PeerRefusedError extends Error {}

/** The socket closed while the request was out: the peer may have read it, and run it. */
export class PeerLostError extends Error {
  constructor(
    message: string,
    /** Why the socket closed, when known. */
    readonly reason: string | undefined,
  ) {
    super(message);
  }
}

export class PeerTimeoutError extends Error {
  constructor(
    message: string,
    /** Whether the link was cut because the peer stopped answering pings. */
    readonly unresponsive: boolean,
  ) {
    super(message);
  }
}

/**
 * A JSON-RPC connection from this bridge to a peer bridge. Unlike the public BridgeClient it hands
 * binary frame messages over untouched (the aggregator re-fans them out without decoding the image,
 * whatever the format) and starts a fresh session after each reconnect, telling its owner so.
 */
export class RpcLink {
  private ws?: WebSocket;
  private stateValue: LinkState = 'connecting';
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private retryMs: number;
  private timer?: NodeJS.Timeout;
  private readonly stateListeners = new Set<(s: LinkState, why?: string) => void>();
  private readonly noteListeners = new Set<(method: string, params: unknown) => void>();
  private readonly binaryListeners = new Set<(data: Buffer) => void>();
  /** The peer stopped answering (a ping, the handshake or session.hello went unanswered): failed calls reject with PeerTimeoutError. */
  private unresponsive = false;
  /** When anything (a message, a pong) last came from the peer: a deadline with nothing heard since the request suggests a frozen peer. */
  lastHeard = 0;
  lastError?: string;
  /** The HTTP status of the last refused upgrade (401: wrong token), until a connection succeeds. */
  refusedStatus?: number;
  /** The peer's id of this link's session (its session.hello answer), while open. */
  remoteSession?: string;

  constructor(private readonly options: RpcLinkOptions) {
    this.retryMs = options.firstRetryMs ?? 200;
  }

  get state(): LinkState {
    return this.stateValue;
  }

  /** Opens the link; resolves when the session is ready, rejects when the first attempt fails. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const off = this.onState((s) => {
        if (s === 'open') {
          off();
          resolve();
        } else if (s === 'down' || s === 'closed') {
          off();
          const why = this.lastError ?? `cannot reach ${redact(this.options.url)}`;
          reject(this.unresponsive ? new PeerTimeoutError(why, true) : this.refusedStatus !== undefined ? new PeerRefusedError(why) : new Error(why));
        }
      });
      this.open();
    });
  }

  /** Starts connecting and keeps trying in the background (a peer may come up after us). */
  connect(): void {
    this.open();
  }

  /**
   * With `timeoutMs`, a missing answer rejects with PeerTimeoutError then, and a late one is dropped.
   * When `signal` aborts (the caller gave up), the peer is asked to cancel the request (requests.cancel); its answer still comes.
   */
  request(method: string, params: unknown, timeoutMs?: number, signal?: AbortSignal): Promise<unknown> {
    const ws = this.ws;
    if (this.stateValue !== 'open' || !ws) return Promise.reject(new Error(`the peer bridge at ${redact(this.options.url)} is not connected${this.lastError ? ` (${this.lastError})` : ''}`));
    return this.send(ws, method, params, timeoutMs, signal);
  }

  /** Cuts the connection without a goodbye (a peer that does not answer would not read one). */
  terminate(why: string): void {
    this.lastError = why;
    this.ws?.terminate();
  }

  onState(fn: (s: LinkState, why?: string) => void): () => void {
    this.stateListeners.add(fn);
    return () => this.stateListeners.delete(fn);
  }

  onNotification(fn: (method: string, params: unknown) => void): () => void {
    this.noteListeners.add(fn);
    return () => this.noteListeners.delete(fn);
  }

  onBinary(fn: (data: Buffer) => void): () => void {
    this.binaryListeners.add(fn);
    return () => this.binaryListeners.delete(fn);
  }

  close(): void {
    if (this.stateValue === 'closed') return;
    clearTimeout(this.timer);
    const ws = this.ws;
    this.ws = undefined;
    this.setState('closed');
    this.failPending('the link was closed');
    if (ws && ws.readyState === WebSocket.OPEN) {
      // session.bye frees the peer's session (its locks and subscriptions) at once, not after its resume grace.
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method: 'session.bye', params: {} }), () => ws.close(1000, 'aggregator closed the link'));
      setTimeout(() => ws.terminate(), 1000).unref();
    } else ws?.terminate();
  }

  private open(): void {
    const headers: Record<string, string> = {};
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    const connectMs = this.options.connectTimeoutMs ?? 10_000;
    const ws = new WebSocket(this.options.url, { perMessageDeflate: false, headers, handshakeTimeout: connectMs });
    this.ws = ws;
    this.unresponsive = false;
    ws.on('open', () => {
      this.watchLiveness(ws);
      this.send(ws, 'session.hello', { client: this.options.client }, connectMs)
        .then((hello) => {
          if (this.ws !== ws) return;
          const session = (hello as { session?: unknown } | null)?.session;
          this.remoteSession = typeof session === 'string' ? session : undefined;
          this.retryMs = this.options.firstRetryMs ?? 200;
          this.lastError = undefined;
          this.refusedStatus = undefined;
          this.setState('open');
        })
        .catch((err: Error) => {
          this.lastError = err.message;
          this.unresponsive = err instanceof PeerTimeoutError;
          ws.terminate();
        });
    });
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      this.lastHeard = performance.now();
      if (isBinary) {
        for (const l of this.binaryListeners) l(data);
        return;
      }
      this.onText(data.toString('utf8'));
    });
    ws.on('unexpected-response', (req, res) => {
      this.refusedStatus = res.statusCode;
      this.lastError = `the peer refused the connection: HTTP ${res.statusCode}${refusalAdvice(res.statusCode, this.options.url)}`;
      // With this listener ws leaves the refused handshake open; end it so the link retries.
      res.resume();
      req.destroy();
      ws.terminate();
    });
    ws.on('error', (err) => {
      if (/handshake has timed out/.test(err.message)) {
        this.unresponsive = true;
        this.lastError ??= `the peer accepted the connection but did not complete the WebSocket handshake within ${connectMs} ms (stopped, frozen or overloaded)`;
      } else this.lastError ??= err.message;
    });
    ws.on('close', (code, reason) => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      if (!this.lastError && code !== 1000) this.lastError = `connection closed (${code}${reason.length ? `: ${reason.toString()}` : ''})`;
      this.failPending(`the connection to the peer was lost${this.lastError ? ` (${this.lastError})` : ''}`, this.unresponsive);
      if (this.stateValue === 'closed') return;
      this.setState('down', this.lastError);
      if (!this.options.reconnect) {
        this.setState('closed');
        return;
      }
      this.timer = setTimeout(() => this.open(), this.retryMs).unref();
      this.retryMs = Math.min(this.options.maxRetryMs ?? 5000, this.retryMs * 2);
    });
  }

  /**
   * Pings every pingMs; a ping still unanswered when the next is due cuts the link, so a peer that
   * stopped (SIGSTOP, a stuck event loop) is marked down and its calls fail instead of waiting.
   */
  private watchLiveness(ws: WebSocket): void {
    const every = this.options.pingMs ?? 5000;
    let awaiting = false;
    ws.on('pong', () => {
      awaiting = false;
      this.lastHeard = performance.now();
    });
    const timer = setInterval(() => {
      if (this.ws !== ws) return clearInterval(timer);
      if (awaiting) {
        clearInterval(timer);
        this.unresponsive = true;
        this.terminate(`the peer bridge stopped answering: no pong to a ping within ${every} ms (the process is stopped, frozen or overloaded)`);
        return;
      }
      awaiting = true;
      ws.ping();
    }, every);
    timer.unref();
    ws.once('close', () => clearInterval(timer));
  }

  private send(ws: WebSocket, method: string, params: unknown, timeoutMs?: number, signal?: AbortSignal): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const cancel = () => {
        if (this.pending.has(id) && ws.readyState === ws.OPEN) ws.send(JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method: 'requests.cancel', params: { id } }));
      };
      const settled = () => (clearTimeout(timer), signal?.removeEventListener('abort', cancel));
      this.pending.set(id, {
        resolve: (v) => (settled(), resolve(v)),
        reject: (e) => (settled(), reject(e)),
      });
      signal?.addEventListener('abort', cancel, { once: true });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          if (this.pending.delete(id)) reject(new PeerTimeoutError(`${method} got no answer from the peer bridge within ${timeoutMs} ms`, false));
        }, timeoutMs);
      }
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }), (err) => {
        const entry = this.pending.get(id);
        if (err && entry && this.pending.delete(id)) entry.reject(err);
      });
      if (signal?.aborted) cancel();
    });
  }

  private onText(text: string): void {
    let msg: { id?: number; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string } };
    try {
      msg = JSON.parse(text) as typeof msg;
    } catch {
      return;
    }
    if (msg.method !== undefined && msg.id === undefined) {
      for (const l of this.noteListeners) l(msg.method, msg.params);
      return;
    }
    const entry = typeof msg.id === 'number' ? this.pending.get(msg.id) : undefined;
    if (!entry) return;
    this.pending.delete(msg.id!);
    if (msg.error) entry.reject(Object.assign(new Error(msg.error.message), { rpcCode: msg.error.code }));
    else entry.resolve(msg.result);
  }

  private failPending(why: string, unanswered = false): void {
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(unanswered ? new PeerTimeoutError(why, true) : new PeerLostError(why, this.lastError));
    }
  }

  private setState(s: LinkState, why?: string): void {
    if (this.stateValue === s) return;
    this.stateValue = s;
    for (const l of this.stateListeners) l(s, why);
  }
}

/** What to do about a refused WebSocket upgrade, for the message. */
function refusalAdvice(status: number | undefined, url: string): string {
  if (status === 401) return ' (wrong or missing token: --peer-token, or ?token= in the --peer URL)';
  if (status === 429) return ' (too many wrong tokens from this bridge: the peer refuses it for up to a minute; fix --peer-token)';
  // A bridge answers 404 to any path but its WebSocket's; so does a web server that is not a bridge.
  if (status === 404) return ` (no bridge WebSocket at ${new URL(url).pathname} there: give the peer as ws://HOST:PORT, whose WebSocket is /ws, and check that HOST:PORT is a mobilebridge serve)`;
  return '';
}

/** A URL for messages: never print a token. */
export function redact(url: string): string {
  return url.replace(/([?&]token=)[^&]*/, '$1…');
}
