import type { Failure } from './methods.js';

/** The client's public shapes: what a transport must offer, options, session events, errors. */

/** The part of the WebSocket API the client uses; the DOM `WebSocket` and `ws` both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  // `any`: the DOM and ws declare different event types; the client reads only data/code/reason.
  onopen: ((event: any) => unknown) | null;
  onmessage: ((event: any) => unknown) | null;
  onclose: ((event: any) => unknown) | null;
  onerror: ((event: any) => unknown) | null;
}

export type SocketFactory = (url: string) => WebSocketLike;

export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ReconnectOptions {
  /** First delay after a drop; doubles each failed attempt. Default 200 ms. */
  initialDelayMs?: number;
  /** Ceiling of the delay. Default 5000 ms. */
  maxDelayMs?: number;
  /** Give up after this many failed attempts in a row. Default: never. */
  maxAttempts?: number;
}

export interface BridgeClientOptions {
  /** The bridge's WebSocket endpoint, e.g. ws://127.0.0.1:4800/ws (browsers add ?token=… when needed). */
  url: string;
  createSocket: SocketFactory;
  /** Shown to other participants in activity and lock events. */
  client?: string;
  /** Reconnect and resume the session after an unexpected drop. Default true. */
  reconnect?: boolean | ReconnectOptions;
  /** Reject a request that has no answer after this long; 0 (default) waits as long as the connection lives. */
  requestTimeoutMs?: number;
}

/** What happened to the session when the connection (re)opened. */
export interface SessionEvent {
  session: string;
  /** True when the previous session continued on this connection. */
  resumed: boolean;
  /** First connection of this client. */
  initial: boolean;
  replayed: number;
  /** Notifications missed for good (the server's replay buffer had dropped them). */
  dropped: number;
  /** When the session could not be resumed: why, and the subscriptions re-created under new ids. */
  resumeError?: string;
  resubscribed: { old: string; new: string; device: string }[];
  /** Subscriptions that could not be re-created (e.g. the device is gone). */
  lost: { subscription: string; device: string; reason: string }[];
}

/** The connection closed before the answer came; the request may or may not have run. */
export class ConnectionClosedError extends Error {
  override name = 'ConnectionClosedError';
  constructor(
    message: string,
    readonly code?: number,
    readonly reason?: string,
  ) {
    super(message);
  }
}

/** A method answered `{status: "error", code, message}` where the convenience API promised success. */
export class ResultFailureError extends Error {
  override name = 'ResultFailureError';
  readonly code: string;
  constructor(readonly failure: Failure) {
    super(failure.message);
    this.code = failure.code;
  }
}
