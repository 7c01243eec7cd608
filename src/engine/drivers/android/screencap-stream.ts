import type { FitSize, RawImage } from '../../driver.js';
import { AreaScaler } from '../../screen/area-scaler.js';
import type { ScreenSize } from '../../ui-tree.js';
import { logicalFrameSize } from './frame-scale.js';
import { BGRA, isSupportedFormat } from './screencap.js';

/** Larger than any panel: a "header" beyond it is text the device printed instead of a frame. */
const MAX_SIDE = 16_384;
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

  constructor(
    private readonly headerSize: 12 | 16,
    /** The logical screen size (unrotated; `wm size`). */
    private readonly logical: ScreenSize,
    private readonly fit: FitSize,
  ) {}

  push(chunk: Buffer): void {
    this.received += chunk.length;
    if (this.text) return void (this.text = Buffer.concat([this.text, chunk]).subarray(0, ERROR_TEXT_BYTES));
    let rest = chunk;
    if (!this.scaler) {
      const need = this.headerSize - this.header.length;
      this.header = Buffer.concat([this.header, chunk.subarray(0, need)]);
      rest = chunk.subarray(need);
      if (this.header.length < this.headerSize) return;
      if (!this.start()) return void (this.text = Buffer.concat([this.header, rest]).subarray(0, ERROR_TEXT_BYTES));
    }
    if (rest.length) this.scaler!.push(rest);
  }

  /** The shrunk screen; throws with what the device printed when the output was not one whole frame. */
  finish(): ShrunkScreen {
    const scaler = this.scaler;
    if (!scaler || this.text) {
      const printed = (this.text ?? this.header).toString('utf8').replace(/[^\x20-\x7e\n]/g, '').trim();
      throw new Error(`screencap printed no frame${printed ? `: ${printed.slice(0, 200)}` : ` (${this.received} bytes)`}`);
    }
    const expected = this.headerSize + scaler.srcWidth * scaler.srcHeight * 4;
    if (this.received !== expected) {
      throw new Error(`screencap output of ${this.received} bytes does not hold a ${scaler.srcWidth}×${scaler.srcHeight} frame with a ${this.headerSize}-byte header (expected ${expected})`);
    }
    return { shrunk: { data: scaler.out, width: scaler.width, height: scaler.height, channels: 3 }, screenWidth: this.screen!.width, screenHeight: this.screen!.height };
  }

  private start(): boolean {
    const width = this.header.readUInt32LE(0);
    const height = this.header.readUInt32LE(4);
    const format = this.header.readUInt32LE(8);
    if (!(width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE) || !isSupportedFormat(format)) return false;
    // Panel pixels straight to the fitted size: the logical size only decides what "device pixels" are.
    this.screen = logicalFrameSize(this.logical, { width, height });
    const target = this.fit(this.screen.width, this.screen.height);
    const w = Math.min(width, target.width);
    const h = Math.min(height, target.height);
    this.scaler = new AreaScaler(width, height, w, h, format === BGRA ? 'bgra' : 'rgba');
    return true;
  }
}
