import type { FitSize, RawImage } from '../../driver.js';
import { AreaScaler } from '../../screen/area-scaler.js';
import type { ScreenSize } from '../../ui-tree.js';
import { logicalFrameSize } from './frame-scale.js';
import { BGRA, bytesPerPixel, MAX_SIDE, RGB_565, rgbaFrom565, unreadableFormatReason } from './screencap.js';

/** Output kept to quote when the device printed an error instead of a frame. */
const ERROR_TEXT_BYTES = 512;

export interface ShrunkScreen {
  shrunk: RawImage;
  /** The screen in device pixels (the logical size, as uiautomator and input use it). */
  screenWidth: number;
  screenHeight: number;
}

/**
 * Reads raw `screencap` output as it arrives and shrinks it on the way (area-scaler.ts): the
 * frame is never held at full size. The header size must be known in advance (the device's from
 * an earlier buffered capture), as the stream's total length, which tells 12 from 16 bytes, only
 * comes at the end; `finish` checks that length and throws when it does not add up.
 */
export class ScreencapStream {
  private header = Buffer.alloc(0);
  private scaler?: AreaScaler;
  private screen?: ScreenSize;
  private received = 0;
  private text?: Buffer;
  private pixelBytes = 4;
  /** RGB_565 rows are widened to RGBA on the way (the scaler reads 4-byte pixels); a byte of a pixel split between chunks waits here. */
  private widen565 = false;
  private oddByte?: Buffer;
  /** The frame's size in the device's pixels, as its header gives it. */
  captured?: { width: number; height: number };
  /** Set when the header names a pixel format the host does not read: the reason, for the fallback to the phone's PNG. */
  unreadable?: string;

  constructor(
    private readonly headerSize: 12 | 16,
    /** The logical screen size (unrotated; `wm size`). */
    private readonly logical: ScreenSize,
    private readonly fit: FitSize,
  ) {}

  push(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.text) return void (this.text = Buffer.concat([this.text, chunk]).subarray(0, ERROR_TEXT_BYTES));
    if (this.unreadable) return;
    let rest = chunk;
    if (!this.scaler) {
      const need = this.headerSize - this.header.length;
      this.header = Buffer.concat([this.header, chunk.subarray(0, need)]);
      rest = chunk.subarray(need);
      if (this.header.length < this.headerSize) return;
      if (!this.start()) return void (this.text = Buffer.concat([this.header, rest]).subarray(0, ERROR_TEXT_BYTES));
      if (this.unreadable) return;
    }
    if (rest.length) this.scaler!.push(this.widen565 ? this.widened(rest) : rest);
  }

  /** Whole RGB_565 pixels of `chunk` (with a byte left over from the last one) as RGBA. */
  private widened(chunk: Buffer): Buffer {
    const bytes = this.oddByte ? Buffer.concat([this.oddByte, chunk]) : chunk;
    const whole = bytes.length & ~1;
    this.oddByte = whole < bytes.length ? Buffer.from(bytes.subarray(whole)) : undefined;
    return rgbaFrom565(bytes.subarray(0, whole));
  }

  /** The shrunk screen; throws with what the device printed when the output was not one whole frame. */
  finish(): ShrunkScreen {
    if (this.unreadable) throw new Error(this.unreadable);
    const scaler = this.scaler;
    if (!scaler || this.text) {
      const printed = (this.text ?? this.header).toString('utf8').replace(/[^\x20-\x7e\n]/g, '').trim();
      throw new Error(`screencap printed no frame${printed ? `: ${printed.slice(0, 200)}` : ` (${this.received} bytes)`}`);
    }
    const expected = this.headerSize + scaler.srcWidth * scaler.srcHeight * this.pixelBytes;
    if (this.received !== expected) {
      throw new Error(`screencap output of ${this.received} bytes does not hold a ${scaler.srcWidth}×${scaler.srcHeight} frame with a ${this.headerSize}-byte header (expected ${expected})`);
    }
    return { shrunk: { data: scaler.out, width: scaler.width, height: scaler.height, channels: 3 }, screenWidth: this.screen!.width, screenHeight: this.screen!.height };
  }

  private start(): boolean {
    const width = this.header.readUInt32LE(0);
    const height = this.header.readUInt32LE(4);
    const format = this.header.readUInt32LE(8);
    if (!(width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE)) return false;
    this.captured = { width, height };
    const pixelBytes = bytesPerPixel(format);
    if (pixelBytes === undefined) {
      // Sizes that make sense with a format the host cannot read: the rest is that frame, not text.
      this.unreadable = unreadableFormatReason(format);
      return true;
    }
    this.pixelBytes = pixelBytes;
    this.widen565 = format === RGB_565;
    // Panel pixels straight to the fitted size: the logical size only decides what "device pixels" are.
    this.screen = logicalFrameSize(this.logical, { width, height });
    const target = this.fit(this.screen.width, this.screen.height);
    const w = Math.min(width, target.width);
    const h = Math.min(height, target.height);
    this.scaler = new AreaScaler(width, height, w, h, format === BGRA ? 'bgra' : 'rgba');
    return true;
  }
}
