/**
 * Where the adb server listens, resolved the way adb's own client resolves it (client/commandline.cpp:
 * "prefer ADB_SERVER_SOCKET over ANDROID_ADB_SERVER_ADDRESS/PORT"): an explicit `--adb host:port` (like
 * adb's -H/-P) wins; else ADB_SERVER_SOCKET (`tcp:port` or `tcp:host:port`); else
 * ANDROID_ADB_SERVER_ADDRESS (default localhost) with ANDROID_ADB_SERVER_PORT (default 5037).
 */
export interface AdbAddress {
  host: string;
  port: number;
  /** Which setting chose the address, for messages. */
  source: string;
}

export class AdbAddressError extends Error {}

export const DEFAULT_ADB_PORT = 5037;

function parsePort(value: string, what: string): number {
  const port = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(port > 0 && port < 65536)) throw new AdbAddressError(`${what} must be a port number between 1 and 65535, got ${JSON.stringify(value)}`);
  return port;
}

/** Parses `host:port`, `port`, or `[ipv6]:port`. */
export function parseHostPort(value: string, what: string, defaultHost = '127.0.0.1'): { host: string; port: number } {
  const v = value.trim();
  const bracketed = /^\[([^\]]+)\]:(\d+)$/.exec(v);
  if (bracketed) return { host: bracketed[1], port: parsePort(bracketed[2], what) };
  const colon = v.lastIndexOf(':');
  if (colon < 0) return { host: defaultHost, port: parsePort(v, what) };
  const host = v.slice(0, colon);
  if (!host) throw new AdbAddressError(`${what}: missing host in ${JSON.stringify(value)}; use host:port, e.g. 127.0.0.1:5037`);
  return { host, port: parsePort(v.slice(colon + 1), what) };
}

export function resolveAdbAddress(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): AdbAddress {
  if (explicit !== undefined) return { ...parseHostPort(explicit, '--adb'), source: `--adb ${explicit}` };
  const socket = env.ADB_SERVER_SOCKET;
  if (socket) {
    if (!socket.startsWith('tcp:')) {
      throw new AdbAddressError(`ADB_SERVER_SOCKET=${socket} is not supported: only tcp:port or tcp:host:port servers can be used; use --adb host:port`);
    }
    return { ...parseHostPort(socket.slice(4), 'ADB_SERVER_SOCKET', 'localhost'), source: `ADB_SERVER_SOCKET=${socket}` };
  }
  const hostVar = env.ANDROID_ADB_SERVER_ADDRESS?.trim();
  const portVar = env.ANDROID_ADB_SERVER_PORT;
  if (!hostVar && !portVar) return { host: '127.0.0.1', port: DEFAULT_ADB_PORT, source: 'the default 127.0.0.1:5037' };
  const port = portVar ? parsePort(portVar, 'ANDROID_ADB_SERVER_PORT') : DEFAULT_ADB_PORT;
  const source = [hostVar && `ANDROID_ADB_SERVER_ADDRESS=${hostVar}`, portVar && `ANDROID_ADB_SERVER_PORT=${portVar}`].filter(Boolean).join(' ');
  return { host: hostVar || '127.0.0.1', port, source };
}
