import zlib from 'node:zlib';
import { pngChunk } from '../../screen/png-chunk.js';
import { loadSharp } from '../../screen/sharp.js';

/**
 * The colour space field of raw `screencap` (Android 8+: screencap.cpp's dataSpaceToInt): 0 unknown,
 * 1 sRGB, 2 Display P3. SurfaceFlinger captures in Display P3 when the display's colour mode is
 * DISPLAY_P3, BT2100 or BT2020 (pickDataspaceFromColorMode); the pixel values are then Display P3 values.
 */
export const COLOUR_SPACE_SRGB = 1;
export const COLOUR_SPACE_DISPLAY_P3 = 2;

let p3Profile: Promise<Buffer> | undefined;

/** libvips' Display P3 ICC profile (sRGB transfer curve, P3 primaries, D65), as Skia's for DISPLAY_P3. */
function displayP3Profile(): Promise<Buffer> {
  p3Profile ??= (async () => {
    const sharp = await loadSharp();
    const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: { r: 0, g: 0, b: 0 } } }).withIccProfile('p3').png().toBuffer();
    const { icc } = await sharp(png).metadata();
    if (!icc) throw new Error('sharp gave no Display P3 profile');
    return icc;
  })();
  p3Profile.catch(() => (p3Profile = undefined));
  return p3Profile;
}

/**
 * `png` with an iCCP chunk naming its pixels Display P3, as the phone's own `screencap -p` tags a P3
 * capture (AndroidBitmap_compress with the dataspace): the pixel values are kept as they are. sharp's
 * withIccProfile would transform them first, so the chunk is written here. `png` must have no colour
 * chunk of its own (sharp writes none for raw input).
 */
export async function tagDisplayP3(png: Buffer): Promise<Buffer> {
  const profile = await displayP3Profile();
  // iCCP: profile name (Latin-1, 1–79 bytes), NUL, compression method 0 (zlib), the compressed profile.
  const data = Buffer.concat([Buffer.from('Display P3\0\0', 'latin1'), zlib.deflateSync(profile)]);
  const chunk = pngChunk('iCCP', data);
  // Signature (8) and IHDR (length, type, 13 bytes, CRC): iCCP must come before PLTE and IDAT.
  const afterHeader = 8 + 12 + png.readUInt32BE(8);
  return Buffer.concat([png.subarray(0, afterHeader), chunk, png.subarray(afterHeader)]);
}
