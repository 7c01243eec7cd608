import net from 'node:net';

/**
 * An adb server that answers host requests as a script says, for states a TCP adbd behind the real
 * server cannot produce (two USB phones with one serial, a phone that reports no serial). It speaks
 * the smart-socket protocol of adb's SERVICES.TXT: each request is 4 hex digits of length and the
 * text; an answer is "OKAY" (then, for host:devices, 4 hex digits of length and the value) or
 * "FAIL" with a length-prefixed message, after which the server closes the connection.
 */
export type ScriptedAnswer = { okay: string | true } | { fail: string } | 'silent';

export class ScriptedAdbServer {
  readonly requests: string[] = [];
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | undefined;
  port = 0;

  constructor(private readonly answer: (request: string) => ScriptedAnswer) {}

  async start(): Promise<this> {
    const server = net.createServer((socket) => this.serve(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private serve(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 4) {
        const length = Number.parseInt(buffered.subarray(0, 4).toString('ascii'), 16);
        if (buffered.length < 4 + length) return;
        const request = buffered.subarray(4, 4 + length).toString('utf8');
        buffered = buffered.subarray(4 + length);
        this.requests.push(request);
        const reply = this.answer(request);
        if (reply === 'silent') continue;
        if ('fail' in reply) {
          socket.end(`FAIL${hexLength(reply.fail)}${reply.fail}`);
          return;
        }
        // host:transport:<serial> answers a bare OKAY and the connection then carries the device service.
        socket.write(reply.okay === true ? 'OKAY' : `OKAY${hexLength(reply.okay)}${reply.okay}`);
      }
    });
  }
}

const hexLength = (text: string): string => Buffer.byteLength(text).toString(16).padStart(4, '0');
