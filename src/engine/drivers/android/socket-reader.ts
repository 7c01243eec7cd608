import type { Duplex } from 'node:stream';

/** Exact-length reads over a Node stream, in the shape the scrcpy library's parsers read from. */
export class SocketReader {
  position = 0;
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(
    socket: Duplex,
    /** What the socket is, for the error when it closes early ("the control socket"). */
    private readonly what: string,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.notify();
    });
    const end = () => {
      this.ended = true;
      this.notify();
    };
    socket.on('end', end);
    socket.on('close', end);
  }

  async readExactly(length: number): Promise<Uint8Array> {
    while (this.buffer.length < length) {
      if (this.ended) throw new Error(`the device closed ${this.what}`);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const out = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    this.position += length;
    return out;
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
