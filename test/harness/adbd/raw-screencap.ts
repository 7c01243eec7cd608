import zlib from 'node:zlib';
import sharp from 'sharp';
import { pngChunk } from '../../../src/engine/screen/png-chunk.js';

/**
 * Raw `screencap` output as frameworks/base cmds/screencap/screencap.cpp writes it: width, height,
 * pixel format (u32le), then from Android 8 the colour space (dataSpaceToInt: 1 for sRGB, 2 for
 * DISPLAY_P3), then each row as width × bytesPerPixel(format) bytes (the buffer's stride dropped).
 */

/** The pixel formats the emulated phone can capture into (graphics.common PixelFormat values). */
export const PIXEL_FORMATS = { RGBA_8888: 1, RGB_565: 4, RGBA_1010102: 43 } as const;
export type PixelFormatName = keyof typeof PIXEL_FORMATS;

/**
 * The dataspace SurfaceFlinger captures in (pickDataspaceFromColorMode): DISPLAY_P3 when the display's
 * colour mode is DISPLAY_P3, BT2100 or BT2020 (wide-colour modes such as Pixel's "Adaptive"), else sRGB.
 * The captured values are in that space; screencap writes which one in the raw header.
 */
export const COLOUR_SPACES = { sRGB: 1, DISPLAY_P3: 2 } as const;
export type ColourSpaceName = keyof typeof COLOUR_SPACES;

export function rawScreencap(rgba: Buffer, width: number, height: number, format: PixelFormatName, releaseMajor: number, colourSpace: ColourSpaceName = 'sRGB'): Buffer {
  const header = Buffer.alloc(releaseMajor >= 8 ? 16 : 12);
  header.writeUInt32LE(width, 0);
  header.writeUInt32LE(height, 4);
  header.writeUInt32LE(PIXEL_FORMATS[format], 8);
  if (header.length === 16) header.writeUInt32LE(COLOUR_SPACES[colourSpace], 12);
  return Buffer.concat([header, pixelsIn(rgba, format)]);
}

/** The screen's RGBA pixels in `format`. */
export function pixelsIn(rgba: Buffer, format: PixelFormatName): Buffer {
  if (format === 'RGBA_8888') return rgba;
  const pixels = rgba.length / 4;
  if (format === 'RGB_565') {
    // A little-endian u16 per pixel, red in the top five bits (libpixelflinger's RGB_565, Skia's kRGB_565).
    const out = Buffer.alloc(pixels * 2);
    for (let p = 0; p < pixels; p++) out.writeUInt16LE(((rgba[p * 4] >> 3) << 11) | ((rgba[p * 4 + 1] >> 2) << 5) | (rgba[p * 4 + 2] >> 3), p * 2);
    return out;
  }
  // RGBA_1010102: red in the low ten bits, alpha in the top two (PixelFormat.aidl).
  const out = Buffer.alloc(pixels * 4);
  const ten = (v: number) => (v << 2) | (v >> 6);
  for (let p = 0; p < pixels; p++) {
    out.writeUInt32LE((ten(rgba[p * 4]) | (ten(rgba[p * 4 + 1]) << 10) | (ten(rgba[p * 4 + 2]) << 20) | ((rgba[p * 4 + 3] >> 6) << 30)) >>> 0, p * 4);
  }
  return out;
}

/** The colours a capture in `format` keeps, as RGBA: what `screencap -p` encodes from that buffer (Skia reads RGB_565 as it is). */
export function capturedColours(rgba: Buffer, format: PixelFormatName): Buffer {
  if (format !== 'RGB_565') return rgba;
  const out = Buffer.from(rgba);
  const keep = (v: number, bits: number) => {
    const top = v >> (8 - bits);
    return (top << (8 - bits)) | (top >> (2 * bits - 8));
  };
  for (let i = 0; i < out.length; i += 4) {
    out[i] = keep(out[i], 5);
    out[i + 1] = keep(out[i + 1], 6);
    out[i + 2] = keep(out[i + 2], 5);
  }
  return out;
}

/**
 * `screencap -p` of a Display P3 capture: AndroidBitmap_compress gives Skia the bitmap with the
 * dataspace's colour space, and SkPngEncoder writes it as an iCCP chunk ("Skia") before the pixels,
 * which it leaves as they are. The profile here is libvips' Display P3, not Skia's own bytes.
 */
export async function tagPngDisplayP3(png: Buffer): Promise<Buffer> {
  const tagged = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).withIccProfile('p3').png().toBuffer();
  const profile = (await sharp(tagged).metadata()).icc!;
  const chunk = pngChunk('iCCP', Buffer.concat([Buffer.from('Skia\0\0', 'latin1'), zlib.deflateSync(profile)]));
  const ihdrEnd = 8 + 8 + png.readUInt32BE(8) + 4;
  return Buffer.concat([png.subarray(0, ihdrEnd), chunk, png.subarray(ihdrEnd)]);
}
