import { readFileSync } from 'node:fs';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { WebSocketServer, type WebSocket } from 'ws';
import { RecordingStore } from '../engine/verbs/recording-store.js';
import type { Engine } from '../engine/engine.js';
import type { Participant, ServerLimits } from '../protocol/index.js';
import type { BridgeOptions, BridgeStats } from './bridge-options.js';
import { Connection } from './connection.js';
import { createHttpApp } from './http.js';
import { DeviceHub, type ActivityEntry } from './hub.js';
import { VIDEO_DEFAULTS } from './video-settings.js';
import { LockTable } from './locks.js';
import { methodGroups } from './methods/index.js';
import { RunFiles } from './run-files.js';
import { AddressBuckets } from './rate-limit.js';
import { MethodRegistry, type BridgeCore } from './registry.js';
import { PeerRouter } from './peers/router.js';
import { RpcServer } from './rpc.js';
import { allowedOrigin, bindProblem, checkOrigin, isLoopbackHost, type AccessPolicy, type RequestFacts } from './security.js';
import { WrongTokenThrottle } from './token-throttle.js';
import { type Session, SessionStore } from './sessions.js';
import { DEFAULT_WEB_ROOT } from './viewer.js';
import { goneDevices, usable } from './device-loss.js';
import { explainOversizeClose } from './message-limit.js';

const PACKAGE_VERSION = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

function formatHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function rejectUpgrade(socket: Duplex, status: number, message: string, retryAfterS?: number): void {
  const body = `${message}\n`;
  const retry = retryAfterS ? `Retry-After: ${retryAfterS}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\n${retry}Content-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  socket.destroy();
}

function requestFacts(req: IncomingMessage): RequestFacts {
  return {
    header: (name) => {
      const v = req.headers[name.toLowerCase()];
      return Array.isArray(v) ? v[0] : v;
    },
    url: new URL(req.url ?? '/', 'http://bridge.invalid'),
  };
}

/** A running bridge: HTTP + WebSocket server around one engine. */
export class Bridge implements BridgeCore {
  readonly engine: Engine;
  readonly sessions: SessionStore;
  readonly hub: DeviceHub;
  readonly locks: LockTable;
  readonly registry: MethodRegistry;
  readonly server = { name: 'mobilebridge', version: PACKAGE_VERSION };
  readonly limits: ServerLimits;
  readonly recordings?: RecordingStore;
  readonly runFiles = new RunFiles();
  readonly host: string;
  readonly policy: AccessPolicy;
  private readonly throttle: WrongTokenThrottle;
  readonly log: (line: string) => void;
  readonly peers?: PeerRouter;
  port = 0;
  private readonly options: BridgeOptions;
  private readonly rpc: RpcServer;
  private readonly http: Server;
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<Connection<Session>>();
  private readonly abort = new AbortController();
  private readonly unlisten: (() => void)[] = [];
  private heartbeat?: NodeJS.Timeout;
  private closing?: Promise<void>;
  private readonly startedAt = Date.now();

  constructor(options: BridgeOptions) {
    this.options = options;
    this.engine = options.engine;
    this.recordings = options.recordingsDir === undefined ? undefined : new RecordingStore(options.recordingsDir);
    this.host = options.host ?? '127.0.0.1';
    const problem = bindProblem(this.host, options.token);
    if (problem) throw new Error(problem);
    this.log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    this.policy = { token: options.token || undefined, loopback: isLoopbackHost(this.host), allowOrigins: (options.allowOrigins ?? []).map(allowedOrigin) };
    this.throttle = new WrongTokenThrottle(options.wrongTokens?.limit, options.wrongTokens?.windowMs);
    const rate = options.rateLimit ?? { perSecond: 1000, burst: 2000 };
    const replay = options.replayBuffer ?? { messages: 500, bytes: 2 * 1024 * 1024 };
    const maxMessageBytes = options.maxMessageBytes ?? 1024 * 1024;
    this.limits = {
      max_message_bytes: maxMessageBytes,
      max_batch: options.maxBatch ?? 100,
      rate_limit_per_second: rate.perSecond,
      rate_limit_burst: rate.burst,
      resume_grace_ms: options.resumeGraceMs ?? 30_000,
      replay_buffer: replay.messages,
      max_screen_subscriptions: options.maxScreenSubscriptions ?? 4,
      max_screen_encodings: options.maxScreenEncodings ?? 8,
    };

    this.sessions = new SessionStore(
      { graceMs: this.limits.resume_grace_ms, replayMessages: replay.messages, replayBytes: replay.bytes, replayTotalBytes: replay.totalBytes, maxDetached: 1000 },
      (session, reason) => {
        this.hub.dropSession(session);
        this.peers?.dropSession(session);
        this.locks.releaseAll(session, `its session ended: ${reason}`);
        this.engine.forgetCaller(session.id);
      },
      this.log,
    );
    this.hub = new DeviceHub(this.engine, this.sessions, {
      elementsPollMs: options.elementsPollMs ?? 1000,
      captureTimeoutMs: options.captureTimeoutMs ?? 10_000,
      frameStallMs: options.frameStallMs ?? 5000,
      maxScreenSubscriptions: this.limits.max_screen_subscriptions,
      maxScreenEncodings: this.limits.max_screen_encodings,
      video: { ...VIDEO_DEFAULTS, ...options.video },
      log: this.log,
    });
    this.locks = new LockTable((change) =>
      this.hub.broadcast(
        change.device,
        'device.lock',
        {
          device: change.device,
          holder: change.holder,
          ...(change.previous ? { previous: change.previous } : {}),
          ...(change.since ? { since: change.since } : {}),
          ...(change.purpose ? { purpose: change.purpose } : {}),
          ...(change.reason ? { reason: change.reason } : {}),
        },
        change.notify,
      ),
      (device) => this.engine.ids.listedId(device),
    );
    if (options.peers?.length) {
      this.peers = new PeerRouter(options.peers, `${this.server.name}@${this.host}`, this.log, this.engine, { callTimeoutMs: options.callTimeoutMs ?? 30_000, ...options.peerLinks });
    }
    this.registry = new MethodRegistry([...methodGroups(), options.methods ?? []]);
    this.rpc = new RpcServer(this, this.registry, { maxMessageBytes, maxBatch: this.limits.max_batch });

    // A call that waited behind others names whose they were as lock refusals do.
    this.engine.nameCallers((origin) => {
      // Without an origin: the bridge's own screen frames, element watch and activity listings.
      if (origin === undefined) return 'the bridge (screen frames, element updates)';
      const s = this.sessions.get(origin);
      return s && (s.client ? `session ${s.id} (${s.client})` : `session ${s.id}`);
    });
    this.unlisten.push(
      this.engine.onCall((e) => this.hub.onCall(e)),
      this.engine.onDevicesChanged((change) => {
        const gone = goneDevices(change);
        this.sessions.broadcast('devices.changed', { added: change.added, removed: change.removed, ...(gone.length ? { gone } : {}), notes: this.engine.sourceProblems(), ...(this.peers ? { bridges: this.peers.reaches() } : {}) });
        for (const g of gone) this.hub.deviceGone(g.id, g.reason);
        // An offline device is listed again as added, but it is not back.
        for (const d of change.added) if (usable(d)) this.hub.deviceBack(d.id);
      }),
    );

    const app = createHttpApp({
      core: this,
      policy: this.policy,
      throttle: this.throttle,
      validateLimit: new AddressBuckets(options.validateRateLimit?.perSecond ?? rate.perSecond, options.validateRateLimit?.burst ?? rate.burst),
      webRoot: options.webRoot ?? DEFAULT_WEB_ROOT,
      maxBodyBytes: maxMessageBytes,
      startedAt: this.startedAt,
      stats: () => {
        const hub = this.hub.stats();
        return { ...this.stats(), frames: hub.frames, video: hub.video, ...(this.peers ? { peers: this.peers.stats() } : {}) };
      },
    });
    this.http = createAdaptorServer({ fetch: app.fetch, overrideGlobalObjects: false }) as Server;
    // Hard cap well above the 1 MiB limit: messages in between get a JSON-RPC error and the
    // connection stays; beyond it `ws` closes the connection (1009) without buffering more.
    this.wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: maxMessageBytes * 4, clientTracking: false });
    this.http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.onUpgrade(req, socket, head));
  }

  get shutdownSignal(): AbortSignal {
    return this.abort.signal;
  }

  get url(): string {
    return `http://${formatHost(this.host)}:${this.port}/`;
  }

  get wsUrl(): string {
    return `ws://${formatHost(this.host)}:${this.port}/ws`;
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.http.once('error', onError);
      this.http.listen(this.options.port ?? 4800, this.host, () => {
        this.http.off('error', onError);
        resolve();
      });
    });
    this.port = (this.http.address() as AddressInfo).port;
    const every = this.options.heartbeatMs ?? 20_000;
    this.heartbeat = setInterval(() => {
      for (const conn of this.connections) {
        if (!conn.alive) {
          conn.terminate();
          continue;
        }
        conn.alive = false;
        conn.ws.ping();
      }
    }, every);
    this.heartbeat.unref();
  }

  activity(device: string, actor: Participant, entry: ActivityEntry): void {
    this.hub.activity(device, actor, entry);
  }

  stats(): BridgeStats {
    return { sessions: this.sessions.size, connections: this.connections.size, subscriptions: this.hub.stats().subscriptions };
  }

  /** Per-connection buffered bytes (tests and benchmarks watch a slow reader with this). */
  bufferedBySession(): Map<string, number> {
    const out = new Map<string, number>();
    for (const c of this.connections) out.set(c.session.id, c.bufferedAmount);
    return out;
  }

  /**
   * Graceful shutdown: stop accepting, let calls in progress answer, end the sessions, close
   * every socket with a reason, close the engine (and with it the drivers).
   */
  close(reason = 'the bridge is shutting down'): Promise<void> {
    this.closing ??= this.shutdown(reason);
    return this.closing;
  }

  private async shutdown(reason: string): Promise<void> {
    this.rpc.shuttingDown = true;
    this.abort.abort(new Error(reason));
    const httpClosed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    clearInterval(this.heartbeat);
    await this.rpc.drain(this.options.drainTimeoutMs ?? 10_000);
    await this.hub.stop();
    this.sessions.endAll(reason);
    const socketsClosed = [...this.connections].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.ws.readyState === c.ws.CLOSED) return resolve();
          c.ws.once('close', () => resolve());
          c.close(1001, reason);
        }),
    );
    await Promise.all(socketsClosed);
    this.http.closeAllConnections();
    await httpClosed;
    this.wss.close();
    for (const off of this.unlisten) off();
    await this.engine.close();
    await this.runFiles.close();
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (this.closing) return rejectUpgrade(socket, 503, 'the bridge is shutting down');
    const facts = requestFacts(req);
    if (facts.url.pathname !== '/ws') return rejectUpgrade(socket, 404, 'the WebSocket endpoint is /ws');
    for (const check of [(p: AccessPolicy, f: RequestFacts) => this.throttle.check(p, f, req.socket.remoteAddress), checkOrigin]) {
      const verdict = check(this.policy, facts);
      if (!verdict.ok) return rejectUpgrade(socket, verdict.status, verdict.message, verdict.retryAfterS);
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws));
  }

  private onConnection(ws: WebSocket): void {
    const conn = new Connection<Session>(ws, {
      maxBufferedBytes: this.options.maxBufferedBytes ?? 16 * 1024 * 1024,
      ratePerSecond: this.limits.rate_limit_per_second,
      rateBurst: this.limits.rate_limit_burst,
    });
    this.connections.add(conn);
    this.sessions.attach(this.sessions.create(), conn);
    const limit = this.limits.max_message_bytes;
    explainOversizeClose(ws, limit, limit * 4, (code, reason) => conn.close(code, reason));
    ws.on('message', (data, isBinary) => this.rpc.handle(conn, data, isBinary));
    ws.on('pong', () => conn.answered());
    ws.on('error', () => {
      // ws closes the socket itself after protocol errors (1009 for an oversized message: explainOversizeClose gives it a reason).
    });
    ws.on('close', () => {
      this.connections.delete(conn);
      // The session waits for a resume, but its locks and fingers go now: nobody is left to drive
      // the device, and a finger held down through the grace would keep pressing the screen.
      if (this.sessions.detach(conn.session, conn)) {
        this.locks.releaseAll(conn.session, 'its holder disconnected');
        this.engine.cancelTouches(conn.session.id);
        this.peers?.detachSession(conn.session);
      }
    });
  }
}

/** Creates and starts a bridge; resolves once it listens (`bridge.port` is then the real port). */
export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  // The engine is the caller's to hand over: a bridge that cannot start (bad options, port taken) closes it.
  try {
    const bridge = new Bridge(options);
    await bridge.listen();
    return bridge;
  } catch (err) {
    await options.engine.close().catch(() => undefined);
    throw err;
  }
}
