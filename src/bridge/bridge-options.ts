/**
 * What a Bridge is built with (BridgeOptions: every limit and default `serve` can set) and what its
 * stats() report. Apart from server.ts, which wires the bridge's parts together and serves its
 * sockets: callers and tests read the options' contract here without the server's machinery.
 */
import type { Engine } from '../engine/engine.js';
import type { MethodDef } from './registry.js';
import type { Peer } from './peers/peer.js';
import type { VideoSettings } from './video-settings.js';

export interface BridgeOptions {
  /** The bridge owns it: `close()` closes it. */
  engine: Engine;
  /** Default 127.0.0.1. Any non-loopback address requires `token`. */
  host?: string;
  /** Default 4800; 0 picks a free port. */
  port?: number;
  token?: string;
  /** Wrong tokens an address may send per window before it waits out the window (default 20 per minute). */
  wrongTokens?: { limit?: number; windowMs?: number };
  /**
   * Browser origins allowed to open the WebSocket besides the bridge's own; "*" allows any. Each is
   * normalised as browsers send origins (`HTTP://Example.COM:80/` is `http://example.com`); one that
   * is no origin throws.
   */
  allowOrigins?: string[];
  /** Folder of the built viewer (default: the package's web/dist). */
  webRoot?: string;
  /** Text messages and HTTP bodies above this are refused (default 1 MiB). */
  maxMessageBytes?: number;
  /** Requests per JSON-RPC batch (default 100). */
  maxBatch?: number;
  /**
   * Per connection (default 1000 messages/s, bursts of 2000); a message costs one more per KiB
   * beyond its first, so 1000/s is also 1 MiB/s of messages.
   */
  rateLimit?: { perSecond: number; burst: number };
  /** POST /api/validate per client address, counted as `rateLimit` (default: the same figures). */
  validateRateLimit?: { perSecond: number; burst: number };
  /** How long a dropped session can be resumed (default 30 s). */
  resumeGraceMs?: number;
  /**
   * Notifications kept per session for replay (default 500 messages / 2 MiB), and by all sessions
   * together (`totalBytes`, default 64 MiB held: a body shared by many sessions counts once).
   */
  replayBuffer?: { messages: number; bytes: number; totalBytes?: number };
  /** Element poll interval while someone watches elements (default 1000 ms). */
  elementsPollMs?: number;
  /** Screen subscriptions one session may hold to one device (default 4). */
  maxScreenSubscriptions?: number;
  /** Distinct screenshot encodings (format, width, quality) per device over all sessions (default 8). */
  maxScreenEncodings?: number;
  /** Ping interval; a connection that misses one pong is dropped (default 20 s). */
  heartbeatMs?: number;
  /** Queued outgoing bytes after which a connection counts as not reading (default 16 MiB). */
  maxBufferedBytes?: number;
  /** A frame subscriber whose frame cannot be handed to the OS for this long is not reading: its connection is closed (default 5 s). */
  frameStallMs?: number;
  /** How long shutdown waits for calls in progress (default 10 s). */
  drainTimeoutMs?: number;
  /** Deadline of one screen capture or element listing for subscribers (default 10 s). */
  captureTimeoutMs?: number;
  /** Live device video (SPEC §9); `{enabled: false}` is `serve --no-video`. */
  video?: Partial<VideoSettings>;
  /** Method groups beyond the built-in ones (see docs/protocol.md, "Adding methods"). */
  methods?: readonly MethodDef[];
  /**
   * Peer bridges whose devices this one serves as its own (`serve --peer`). Their Peer drivers must
   * also be among the engine's drivers (createEngine extraDrivers), which lists their devices.
   */
  peers?: Peer[];
  /**
   * Deadline of a call passed to a peer bridge, counted from its arrival here (default 30 s, the
   * engine's default --timeout; serve passes its --timeout). Verbs and scenario runs have none.
   */
  callTimeoutMs?: number;
  /** The callers' own links to peers: liveness ping interval and connect deadline (defaults 5 s and 10 s). */
  peerLinks?: { pingMs?: number; connectTimeoutMs?: number };
  /** Folder where agents' recordings are kept as they grow, to survive a restart (serve: the state folder). */
  recordingsDir?: string;
  /** Server-side log lines (stack traces go here, never to clients). Default: stderr. */
  log?: (line: string) => void;
}

export interface BridgeStats {
  sessions: number;
  connections: number;
  subscriptions: number;
}
