import { createServer } from 'node:net';

/** A loopback port nothing listens on right now (for a go-ios forward or a WebDriverAgent of our own). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
