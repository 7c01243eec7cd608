import type { PngImage, RawImage } from '../../driver.js';
import { loadSharp } from '../../screen/sharp.js';
import { COLOUR_SPACE_DISPLAY_P3, tagDisplayP3 } from './screencap-colour.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Whether `out` holds a PNG anywhere (screencap -p may print warnings before it). */
export function hasPng(out: Buffer): boolean {
  return out.indexOf(PNG_SIGNATURE) >= 0;
}

/** `screencap -p` output with anything before the PNG signature (warnings, a stray newline) cut off. */
export function pngFromScreencap(out: Buffer): PngImage {
  const at = out.indexOf(PNG_SIGNATURE);
  if (at < 0) throw new Error(`screencap -p printed no PNG: ${out.subarray(0, 120).toString('utf8').trim() || '(nothing)'}`);
  const png = out.subarray(at);
  // IHDR follows the signature: length, "IHDR", then width and height as big-endian u32.
  return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/*
 * Raw `screencap` (frameworks/base cmds/screencap/screencap.cpp): width, height and pixel format as
 * u32le, from Android 8 a u32 colour space (0 unknown, 1 sRGB, 2 Display P3; kept, see encodeRawImage), then each row as
 * width × bytesPerPixel(format) bytes. The format is whatever buffer SurfaceFlinger captured into
 * (graphics.common PixelFormat): RGBA_8888 as a rule; RGB_565 on 16-bit displays (screencap -p
 * encodes it as Skia's RGB_565); RGBX_8888, RGB_888 or RGB_565 from the framebuffer fallback of old
 * releases; RGBA_1010102 or RGBA_FP16 for wide-colour captures of recent ones.
 */
const RGBA = 1;
const RGBX = 2;
export const RGB_565 = 4;
export const BGRA = 5;

/** The formats the host reads, with their bytes per pixel. */
const READABLE = new Map([[RGBA, 4], [RGBX, 4], [RGB_565, 2], [BGRA, 4]]);
const FORMAT_NAMES: Record<number, string> = { 1: 'RGBA_8888', 2: 'RGBX_8888', 3: 'RGB_888', 4: 'RGB_565', 5: 'BGRA_8888', 22: 'RGBA_FP16', 43: 'RGBA_1010102' };
/** Larger than any panel: a "header" beyond it is text the device printed instead of a frame. */
export const MAX_SIDE = 16_384;

export function bytesPerPixel(format: number): number | undefined {
  return READABLE.get(format);
}

/** Why raw frames of `format` cannot be read here, for the fallback to the phone's PNG. */
export function unreadableFormatReason(format: number): string {
  return `raw screencap gives pixel format ${format} (${FORMAT_NAMES[format] ?? 'unknown'}), which the host does not read (it reads RGBA_8888, RGBX_8888, BGRA_8888 and RGB_565), so screenshots are the phone's own PNG (screencap -p)`;
}

export interface RawFrame {
  width: number;
  height: number;
  format: number;
  pixels: Buffer;
  /** 12 bytes before Android 8, 16 (with a colour space) from then on. */
  headerSize?: 12 | 16;
  /** The header's colour space (16-byte headers): 0 unknown, 1 sRGB, 2 Display P3 (screencap-colour.ts). */
  colorSpace?: number;
}

interface RawHeader {
  width: number;
  height: number;
  format: number;
  headerSize: 12 | 16;
  colorSpace?: number;
}

/**
 * The header of `out` when it is one whole raw frame: the header size is whatever makes the lengths
 * add up, with the format's bytes per pixel (1–8 bytes for a format the host does not read).
 */
function rawHeader(out: Buffer): RawHeader | undefined {
  if (out.length < 12) return undefined;
  const width = out.readUInt32LE(0);
  const height = out.readUInt32LE(4);
  const format = out.readUInt32LE(8);
  if (!(width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE)) return undefined;
  const known = READABLE.get(format);
  for (const headerSize of [16, 12] as const) {
    const pixelBytes = (out.length - headerSize) / (width * height);
    if (known ? pixelBytes === known : Number.isInteger(pixelBytes) && pixelBytes >= 1 && pixelBytes <= 8) {
      return { width, height, format, headerSize, ...(headerSize === 16 ? { colorSpace: out.readUInt32LE(12) } : {}) };
    }
  }
  return undefined;
}

/** The reason raw `screencap` output cannot be read here when it is a whole frame of an unreadable format; undefined otherwise. */
export function unreadableRawFormat(out: Buffer): string | undefined {
  const header = rawHeader(out);
  return header && !READABLE.has(header.format) ? unreadableFormatReason(header.format) : undefined;
}

/**
 * Why this device's raw `screencap` gives no frames at all, from output that does not even start with
 * a frame header: nothing (no such binary, or an error on stderr), an error line, or a PNG (a
 * screencap that only knows -p, as some device emulations have). Undefined for a frame, also one cut
 * short, whose header still reads as one: that is the capture failing, not the device lacking raw.
 */
export function noRawFrames(out: Buffer): string | undefined {
  if (out.length >= 12) {
    const width = out.readUInt32LE(0);
    const height = out.readUInt32LE(4);
    if (width > 0 && height > 0 && width <= MAX_SIDE && height <= MAX_SIDE) return undefined;
  }
  const printed = out.indexOf(PNG_SIGNATURE) >= 0 ? 'a PNG' : out.length ? `"${out.subarray(0, 120).toString('utf8').trim()}"` : 'nothing';
  return `raw screencap printed ${printed} instead of a raw frame, so screenshots are the phone's own PNG (screencap -p)`;
}

/** Raw `screencap` output as a frame; throws with what the device printed when it is not one. */
export function parseRawScreencap(out: Buffer): RawFrame {
  const header = rawHeader(out);
  if (!header) {
    const [width, height] = out.length >= 8 ? [out.readUInt32LE(0), out.readUInt32LE(4)] : [0, 0];
    throw new Error(`screencap output of ${out.length} bytes does not hold a ${width}×${height} frame; the device may have printed an error: ${out.subarray(0, 120).toString('utf8').trim()}`);
  }
  if (!READABLE.has(header.format)) throw new Error(unreadableFormatReason(header.format));
  const { width, height, format, headerSize, colorSpace } = header;
  return { width, height, format, pixels: out.subarray(headerSize), headerSize, ...(colorSpace === undefined ? {} : { colorSpace }) };
}

/**
 * The frame as RGBA for callers that want pixels, not a PNG. Rewrites `frame.pixels` in place (it
 * is a slice of screencap's output, used once): BGRA gets red and blue swapped, RGBX an opaque
 * alpha, since its fourth byte is undefined; RGB_565 is expanded into a new buffer.
 */
export function rgbaFromRawFrame(frame: RawFrame): RawImage {
  const { pixels, format } = frame;
  if (format === RGB_565) return { data: rgbaFrom565(pixels), width: frame.width, height: frame.height, channels: 4 };
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

/**
 * RGB_565 pixels (a little-endian u16 each: red in bits 15–11, green 10–5, blue 4–0, as
 * libpixelflinger's format table and Skia's kRGB_565 lay it out) as opaque RGBA. Each channel is
 * widened by repeating its top bits (Skia's SkR16ToR32), so 0 stays 0 and full scale becomes 255.
 */
export function rgbaFrom565(pixels: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe((pixels.length >> 1) * 4);
  for (let i = 0, o = 0; i + 1 < pixels.length; i += 2, o += 4) {
    const v = pixels[i] | (pixels[i + 1] << 8);
    const r = v >>> 11;
    const g = (v >>> 5) & 0x3f;
    const b = v & 0x1f;
    out[o] = (r << 3) | (r >>> 2);
    out[o + 1] = (g << 2) | (g >>> 4);
    out[o + 2] = (b << 3) | (b >>> 2);
    out[o + 3] = 255;
  }
  return out;
}

/**
 * Encodes on the host: the device's own PNG encoder is the slow part of `screencap -p`. Opaque frames
 * (RGBX) drop alpha. A Display P3 capture (`colorSpace` 2) is tagged so, as the phone's own PNG is; any
 * other is left untagged, which viewers take as sRGB.
 */
export async function encodeRawImage(image: RawImage, opaque: boolean, colorSpace?: number): Promise<PngImage> {
  let encoder = (await loadSharp())(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  if (opaque && image.channels === 4) encoder = encoder.removeAlpha();
  let png: Buffer = await encoder.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
  if (colorSpace === COLOUR_SPACE_DISPLAY_P3) png = await tagDisplayP3(png);
  return { png, width: image.width, height: image.height };
}

/** RGBX frames carry no alpha (their fourth byte is undefined), RGB_565 frames none at all. */
export function isOpaqueFrame(frame: RawFrame): boolean {
  return frame.format === RGBX || frame.format === RGB_565;
}
