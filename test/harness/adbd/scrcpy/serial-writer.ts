import type { DeviceStream } from '../adbd.js';

/** DeviceStream.write is stop-and-wait with one pending ack: writers on one stream must queue. */
export class SerialWriter {
  pending = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly stream: DeviceStream) {}

  write(data: Buffer | string): Promise<void> {
    this.pending++;
    this.chain = this.chain
      .then(() => (this.stream.closed ? undefined : this.stream.write(data)))
      .catch(() => undefined)
      .finally(() => this.pending--);
    return this.chain;
  }
}
