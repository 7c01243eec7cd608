import type { VideoPacket } from '../../../driver.js';
import { ToolError } from '../../../errors.js';

/** Packets a consumer may hold before it is skipped forward to the next key frame (~10 s at 30 fps). */
const MAX_QUEUED = 300;

/**
 * One openVideo caller's view of the device stream. It starts (and restarts after falling behind) at a
 * key frame preceded by the codec configuration, so whatever it decodes first decodes on its own.
 */
export class VideoConsumer {
  private queue: VideoPacket[] = [];
  private inSync = false;
  private config: VideoPacket | undefined;
  private failure: ToolError | undefined;
  private ended = false;
  private wake: (() => void) | undefined;

  /** `onSkip` asks the encoder for a key frame, so a skipped consumer does not wait a whole interval. */
  constructor(
    config: VideoPacket | undefined,
    private readonly onSkip: () => void = () => undefined,
  ) {
    this.config = config;
  }

  /** It has had a configuration and a key frame: what it yields decodes. */
  get synced(): boolean {
    return this.inSync;
  }

  push(packet: VideoPacket): void {
    if (this.ended) return;
    if (packet.config) {
      this.config = packet;
      if (!this.inSync) return;
    } else if (!this.inSync) {
      if (!packet.key || !this.config) return;
      this.queue.push(this.config);
      this.inSync = true;
    } else if (this.queue.length >= MAX_QUEUED) {
      this.queue = [];
      this.inSync = false;
      this.onSkip();
      return this.push(packet);
    }
    this.queue.push(packet);
    this.notify();
  }

  fail(error: ToolError): void {
    this.failure ??= error;
    this.ended = true;
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  async *packets(): AsyncGenerator<VideoPacket> {
    for (;;) {
      const next = this.queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.ended) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
