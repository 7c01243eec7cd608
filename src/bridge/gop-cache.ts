import type { VideoPacket } from '../engine/driver.js';

/**
 * What a subscriber joining mid-stream needs to decode at once: the last codec configuration, the
 * last key frame and every frame since (one group of pictures). For JPEG streams every picture is a
 * key frame, so it holds just the latest one. Bounded in bytes: past the budget the group is dropped
 * (the caller asks the encoder for a fresh key frame) rather than kept growing.
 */
export class GopCache {
  private config?: VideoPacket;
  private group: VideoPacket[] = [];
  private groupBytes = 0;

  constructor(private readonly maxBytes: number) {}

  get bytes(): number {
    return this.groupBytes + (this.config?.data.length ?? 0);
  }

  get frames(): number {
    return this.group.length;
  }

  /** Returns false when the packet did not fit and the group was dropped. */
  push(packet: VideoPacket): boolean {
    if (packet.config) {
      // A new configuration (a rotation or RESET_VIDEO restarted the encoder) belongs to the key frame
      // that follows it; the cached group was encoded for the old one (another size, other SPS/PPS).
      this.config = packet;
      this.clearGroup();
      return true;
    }
    if (packet.key) {
      this.group = [packet];
      this.groupBytes = packet.data.length;
      return this.groupBytes <= this.maxBytes || (this.clearGroup(), false);
    }
    // A delta without its key frame decodes to garbage: not worth keeping.
    if (this.group.length === 0) return true;
    if (this.groupBytes + packet.data.length > this.maxBytes) {
      this.clearGroup();
      return false;
    }
    this.group.push(packet);
    this.groupBytes += packet.data.length;
    return true;
  }

  /** The configuration to put before a key frame, if any. */
  configFor(key: VideoPacket): VideoPacket | undefined {
    return key.key && this.config ? this.config : undefined;
  }

  /** The cached group, key frame first; empty when no key frame is cached. */
  snapshot(): readonly VideoPacket[] {
    return this.group.slice();
  }

  clear(): void {
    this.config = undefined;
    this.clearGroup();
  }

  private clearGroup(): void {
    this.group = [];
    this.groupBytes = 0;
  }
}
