import type { ImageFormat } from '../protocol/index.js';

/** One distinct screen, encoded for one (format, width, quality). Shared by every subscriber asking for that. */
export interface EncodedFrame {
  seq: number;
  bytes: Buffer;
  width: number;
  height: number;
  format: ImageFormat;
  capturedAt: number;
  deviceWidth: number;
  deviceHeight: number;
}
