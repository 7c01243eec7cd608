import sharp from 'sharp';
import type { PngImage, RawImage } from '../../driver.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** `screencap -p` output with anything before the PNG signature (warnings, a stray newline) cut off. */
export function pngFromScreencap(out: Buffer): PngImage {
  const at = out.indexOf(PNG_SIGNATURE);
  if (at < 0) throw new Error(`screencap -p printed no PNG: ${out.subarray(0, 120).toString('utf8').trim() || '(nothing)'}`);
  const png = out.subarray(at);
  // IHDR follows the signature: length, "IHDR", then width and height as big-endian u32.
  return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Pixel formats of raw screencap (HAL_PIXEL_FORMAT_*): RGBA_8888, RGBX_8888, BGRA_8888. */
const RGBA = 1;
const RGBX = 2;
export const BGRA = 5;

export function isSupportedFormat(format: number): boolean {
  return format === RGBA || format === RGBX || format === BGRA;
}

export interface RawFrame {
  width: number;
  height: number;
  format: number;
  pixels: Buffer;
  /** 12 bytes before Android 8, 16 (with a colour space) from then on. */
  headerSize?: 12 | 16;
}

/**
 * Raw `screencap` output: width, height, format as u32le, plus a u32 colour space from Android 8 on
 * (12- or 16-byte header), then width*height*4 bytes. The header size is whatever makes the lengths add up.
 */
export function parseRawScreencap(out: Buffer): RawFrame {
  if (out.length < 12) throw new Error(`screencap printed ${out.length} bytes, too short for a frame header`);
  const width = out.readUInt32LE(0);
  const height = out.readUInt32LE(4);
  const format = out.readUInt32LE(8);
  const size = width * height * 4;
  const header = ([16, 12] as const).find((h) => out.length === h + size);
  if (!width || !height || header === undefined) {
    throw new Error(`screencap output of ${out.length} bytes does not hold a ${width}×${height} frame; the device may have printed an error: ${out.subarray(0, 120).toString('utf8').trim()}`);
  }
  if (!isSupportedFormat(format)) throw new Error(`screencap pixel format ${format} is not supported (expected RGBA_8888, RGBX_8888 or BGRA_8888)`);
  return { width, height, format, pixels: out.subarray(header), headerSize: header };
}

/**
 * The frame as RGBA for callers that want pixels, not a PNG. Rewrites `frame.pixels` in place (it
 * is a slice of screencap's output, used once): BGRA gets red and blue swapped, RGBX an opaque
 * alpha, since its fourth byte is undefined.
 */
export function rgbaFromRawFrame(frame: RawFrame): RawImage {
  const { pixels, format } = frame;
  if (format === BGRA) {
    for (let i = 0; i < pixels.length; i += 4) {
      const b = pixels[i];
      pixels[i] = pixels[i + 2];
      pixels[i + 2] = b;
    }
  } else if (format === RGBX) {
    for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  }
  return { data: pixels, width: frame.width, height: frame.height, channels: 4 };
}

/** Encodes on the host: the device's own PNG encoder is the slow part of `screencap -p`. Opaque frames (RGBX) drop alpha. */
export async function encodeRawImage(image: RawImage, opaque: boolean): Promise<PngImage> {
  let encoder = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  if (opaque && image.channels === 4) encoder = encoder.removeAlpha();
  const png = await encoder.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
  return { png, width: image.width, height: image.height };
}

/** RGBX frames carry no alpha (their fourth byte is undefined). */
export function isOpaqueFrame(frame: RawFrame): boolean {
  return frame.format === RGBX;
}
