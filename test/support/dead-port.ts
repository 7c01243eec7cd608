import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The first port of the kernel's ephemeral range, from which listen(0) and connect() take theirs (Linux's default elsewhere, below macOS's 49152). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low >= 16_000) return low;
  } catch {
    // Not Linux.
  }
  return 32_768;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A loopback port nothing listens on now, below the ephemeral range. A port the OS handed out
 * (listen(0), then released) stays in that range, where any process's next listen(0), `adb forward
 * tcp:0` or outgoing connection may take it while the test counts on it: a "dead" source then
 * answered, and a private adb server's `start-server` once failed with "protocol fault (status 30
 * 30 30 63?!)", reading back its own "000chost:version". Below the range only a bind that names
 * the port takes it.
 */
export async function unusedPort(): Promise<number> {
  const high = ephemeralLow();
  const low = high - 10_000;
  for (let i = 0; i < 100; i++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free loopback port between ${low} and ${high}`);
}

/** A loopback port nothing listens on (for sources that must not answer). */
export function deadPort(): Promise<number> {
  return unusedPort();
}
