import WebSocket from 'ws';
import { BridgeClient, type BridgeClientOptions, type SocketFactory, type WebSocketLike } from './client.js';

/**
 * Node-only helpers for the bridge client (the `ws` package). Browsers use `BridgeClient`
 * with their own `WebSocket`; this file is never part of the viewer bundle.
 */

export interface NodeSocketOptions {
  /** Sent as `Authorization: Bearer …` (SPEC §7). */
  token?: string;
  /** Sent as the Origin header, e.g. to act like a browser page in tests. */
  origin?: string;
  headers?: Record<string, string>;
}

export function nodeSocketFactory(options: NodeSocketOptions = {}): SocketFactory {
  return (url) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const ws = new WebSocket(url, { perMessageDeflate: false, headers, ...(options.origin ? { origin: options.origin } : {}) });
    ws.binaryType = 'nodebuffer';
    return ws as unknown as WebSocketLike;
  };
}

/** Connects to a bridge from Node: `await connectBridge('ws://127.0.0.1:4800/ws', {token})`. */
export function connectBridge(
  url: string,
  options: NodeSocketOptions & Omit<BridgeClientOptions, 'url' | 'createSocket'> = {},
): Promise<BridgeClient> {
  const { token, origin, headers, ...rest } = options;
  return BridgeClient.connect({ ...rest, url, createSocket: nodeSocketFactory({ token, origin, headers }) });
}
