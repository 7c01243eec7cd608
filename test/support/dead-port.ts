import { createServer, type AddressInfo } from 'node:net';

/** A loopback port nothing listens on: taken from the OS, then released (for sources that must not answer). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}
