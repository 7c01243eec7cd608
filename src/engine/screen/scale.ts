import type { FitSize } from '../driver.js';
import type { FittedCapture, ScreenCapture } from './capture.js';
import { loadSharp } from './sharp.js';

/**
 * Screenshots for agents: scaled first, encoded once. Some MCP clients cap a tool result at 1 MB
 * (mobile-mcp's users hit that with full-resolution PNGs) and base64 adds a third, so the image is
 * made to fit both a longest-side bound and a budget of base64 characters.
 */

export type ImageFormat = 'jpeg' | 'png';

export interface ScaledShot {
  data: string;
  mimeType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
  deviceWidth: number;
  deviceHeight: number;
  /** Device pixels per image pixel: device_x = image_x × factor. */
  factor: number;
  /** The same for y; differs from `factor` only by the rounding of the image's height. */
  factorY: number;
  bytes: number;
}

export interface ScaleOptions {
  format?: ImageFormat;
  /** Longest side of the image in pixels; neither side ever exceeds it. */
  maxSize?: number;
  /** Base64 characters allowed. */
  budget?: number;
}

/** Base64 characters allowed per screenshot: 600 KB leaves room for the text part under a 1 MB cap. */
export const DEFAULT_BUDGET = 600_000;
/** Longest side of the image by default: enough to read labels, small enough for a model's context. */
export const DEFAULT_MAX_SIZE = 1280;
const MIN_SIDE = 160;
const JPEG_QUALITIES = [80, 65, 50, 40];

/**
 * Image size for a scale: both sides rounded down, so the longest never exceeds `maxSize` however
 * the device's aspect ratio rounds (1179 × 2556 at 1280 is 590 × 1280, not 591 × 1281).
 */
export function scaledSize(deviceWidth: number, deviceHeight: number, scale: number, maxSize: number): { width: number; height: number } {
  const fit = (side: number) => Math.max(1, Math.min(maxSize, Math.floor(side * scale + 1e-9)));
  return { width: fit(deviceWidth), height: fit(deviceHeight) };
}

/**
 * The first scale tried: the largest that fits `maxSize`, or, when the caller left the size to us,
 * exactly ½ if that keeps at least 90 % of it. 1080×2400 then gives 540×1200 rather than 576×1280:
 * each image pixel is the plain mean of 2×2 device pixels (no blend of neighbours across
 * fractional edges, so text strokes stay sharp), device coordinates are image coordinates × 2, the
 * image costs a model fewer tokens, and the shrink is the area scaler's cheapest (19 vs 34 ms,
 * area-scaler.ts). A size the caller asked for is used as it is.
 */
export function fittingScale(width: number, height: number, options: ScaleOptions): number {
  const largest = Math.min(1, (options.maxSize ?? DEFAULT_MAX_SIZE) / Math.max(width, height));
  return options.maxSize === undefined && largest > 0.5 && 0.5 >= 0.9 * largest ? 0.5 : largest;
}

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * The pixels every encoding of this capture starts from, made once (scaleCapture may encode
 * several times): opaque RGB, decoded to memory first. One libvips pipeline from a PNG, or from
 * RGBA with its alpha dropped, into a resize re-reads its source per region: 46 and 36 ms for
 * 1080×2400 → 576×1280 JPEG, against 27 and 23 ms in two steps (measured, docs/protocol.md).
 * Alpha is dropped, not composited: device screens are opaque (Android's screencap gives alpha
 * 255, WebDriverAgent's PNG has none or an opaque one), and compositing cost another 15 ms.
 */
async function pixelsOf(cap: FittedCapture): Promise<Pixels> {
  if ('shrunk' in cap) return cap.shrunk;
  if (cap.raw?.channels === 3) return cap.raw;
  const sharp = await loadSharp();
  const img = cap.raw ? sharp(cap.raw.data, { raw: { width: cap.raw.width, height: cap.raw.height, channels: cap.raw.channels } }) : sharp(cap.encoded, { sequentialRead: true });
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as Pixels['channels'] };
}

async function encode(src: Pixels, width: number, height: number, format: ImageFormat, quality: number): Promise<Buffer> {
  let img = (await loadSharp())(src.data, { raw: { width: src.width, height: src.height, channels: src.channels } });
  // Bilinear: for the 0.5–1× shrinks agents mostly get it keeps labels readable at ~half the cost
  // of lanczos3 (14 vs 31 ms for 1080×2400 → 576×1280); larger shrinks need lanczos3's wider support.
  const kernel = width * 2 >= src.width ? 'linear' : 'lanczos3';
  if (width !== src.width || height !== src.height) img = img.resize({ width, height, fit: 'fill', kernel });
  if (format === 'png') return img.png({ compressionLevel: 9, palette: true }).toBuffer();
  // Baseline JPEG with 4:2:0 chroma, as every client decodes; Huffman optimisation off: ~40 %
  // less encode time (2.9 vs 4.9 ms CPU at 576×1280) for ~30 % more bytes, far below the budget.
  return img.jpeg({ quality, optimiseCoding: false, progressive: false, chromaSubsampling: '4:2:0' }).toBuffer();
}

/** The size scaleCapture tries first for these options: what a driver may shrink to on the way (screenshotFitted). */
export function fitFor(options: ScaleOptions = {}): FitSize {
  const maxSize = options.maxSize ?? DEFAULT_MAX_SIZE;
  return (width, height) => scaledSize(width, height, fittingScale(width, height, options), maxSize);
}

/**
 * Scales the capture so its longest side is at most `maxSize` and its base64 fits `budget`:
 * lower JPEG quality first, then smaller sizes. PNG stays lossless apart from its palette and
 * only shrinks. Sizes are known before encoding, so nothing is decoded to measure it.
 */
export async function scaleCapture(cap: FittedCapture, options: ScaleOptions = {}): Promise<ScaledShot> {
  const format = options.format ?? 'jpeg';
  const budget = options.budget ?? DEFAULT_BUDGET;
  const maxSize = options.maxSize ?? DEFAULT_MAX_SIZE;
  const { width: deviceWidth, height: deviceHeight } = cap;
  if (!deviceWidth || !deviceHeight) throw new Error('the device returned a screenshot without dimensions');
  let scale = fittingScale(deviceWidth, deviceHeight, options);
  const pixels = await pixelsOf(cap);
  for (;;) {
    const { width, height } = scaledSize(deviceWidth, deviceHeight, scale, maxSize);
    const last = Math.max(width, height) <= MIN_SIDE;
    for (const quality of format === 'png' ? [100] : JPEG_QUALITIES) {
      const out = await encode(pixels, width, height, format, quality);
      if (Math.ceil(out.length / 3) * 4 <= budget || last) {
        return {
          data: out.toString('base64'),
          mimeType: format === 'png' ? 'image/png' : 'image/jpeg',
          width,
          height,
          deviceWidth,
          deviceHeight,
          factor: Math.round((deviceWidth / width) * 10_000) / 10_000,
          factorY: Math.round((deviceHeight / height) * 10_000) / 10_000,
          bytes: out.length,
        };
      }
    }
    scale *= 0.75;
  }
}

/** A capture from an image the device (or another process) encoded: only its header is read here. */
export async function captureFromEncoded(image: Buffer): Promise<ScreenCapture> {
  const meta = await (await loadSharp())(image).metadata();
  return { encoded: image, width: meta.width ?? 0, height: meta.height ?? 0 };
}
