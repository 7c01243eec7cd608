import type { DeviceStream } from './adbd.js';

/** Turns a stream's WRTE payloads into exact-length reads; sync and streamed installs ignore packet boundaries. */
export class ByteQueue {
  private buffer: Buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | null = null;

  constructor(stream: DeviceStream) {
    stream.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.notify();
    });
    stream.on('close', () => {
      this.ended = true;
      this.notify();
    });
  }

  /** Resolves with exactly n bytes, or null when the stream ends first. */
  async read(n: number): Promise<Buffer | null> {
    while (this.buffer.length < n) {
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    const out = this.buffer.subarray(0, n);
    this.buffer = this.buffer.subarray(n);
    return out;
  }

  /** Resolves with the next line without its newline, or null at the end. */
  async readLine(): Promise<string | null> {
    for (;;) {
      const nl = this.buffer.indexOf(0x0a);
      if (nl >= 0) {
        const line = this.buffer.subarray(0, nl).toString('utf8').replace(/\r$/, '');
        this.buffer = this.buffer.subarray(nl + 1);
        return line;
      }
      if (this.ended) return null;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
