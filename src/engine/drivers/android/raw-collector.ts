import { bytesPerPixel, MAX_SIDE } from './screencap.js';

/** The largest raw header screencap writes: 16 bytes from Android 8 (with the colour space), 12 before (screencap.ts). */
const LARGEST_HEADER = 16;
/** The width, height and format every release starts with. */
const FIXED_HEADER = 12;

/**
 * Raw `screencap` output gathered whole into one buffer. Collecting chunks and joining them at the
 * end held a full frame twice for a moment (66 MB for a 4K panel's 33 MB); here the first 12 bytes
 * (width, height, format) size one buffer for the whole frame, with room for the larger 16-byte
 * header since which one comes is only known from the total length, and every chunk is copied into
 * it as it arrives. Output that is no frame of a format the host reads (an error printed instead,
 * an unreadable format, more bytes than the header allows) is gathered as it comes, for the
 * caller's parse to report.
 */
export class RawCollector {
  private whole: Buffer | undefined;
  private filled = 0;
  private chunks: Buffer[] = [];
  private pending = 0;
  /** The output turned out not to be a readable frame: it is gathered as it comes. */
  private gathering = false;

  push(chunk: Buffer): void {
    if (this.whole && this.filled + chunk.length <= this.whole.length) {
      chunk.copy(this.whole, this.filled);
      this.filled += chunk.length;
      return;
    }
    if (this.whole) {
      // More bytes than any frame of this header: not a frame after all.
      this.chunks = [this.whole.subarray(0, this.filled)];
      this.pending = this.filled;
      this.whole = undefined;
      this.gathering = true;
    }
    this.chunks.push(chunk);
    this.pending += chunk.length;
    if (!this.gathering && this.pending >= FIXED_HEADER) this.sizeFromHeader();
  }

  /** The output so far: the one buffer's filled part, or the gathered chunks joined. */
  result(): Buffer {
    if (this.whole) return this.whole.subarray(0, this.filled);
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.pending);
  }

  /** With the first 12 bytes in: one buffer for the whole frame, or gathering when they describe none the host reads. */
  private sizeFromHeader(): void {
    const head = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.pending);
    const width = head.readUInt32LE(0);
    const height = head.readUInt32LE(4);
    const pixelBytes = bytesPerPixel(head.readUInt32LE(8));
    const capacity = pixelBytes === undefined ? 0 : LARGEST_HEADER + width * height * pixelBytes;
    if (!(width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE) || head.length > capacity) {
      this.gathering = true;
      return;
    }
    this.whole = Buffer.allocUnsafe(capacity);
    head.copy(this.whole, 0);
    this.filled = head.length;
    this.chunks = [];
    this.pending = 0;
  }
}
