import { loadSharp } from '../../screen/sharp.js';

/** Quality of a picture re-encoded upright: above what the MJPEG server is asked for, so turning it loses little more. */
const UPRIGHT_QUALITY = 85;

/**
 * The EXIF orientation (1–8) of a JPEG, 1 when it has none. Read from the first APP1 "Exif" segment's IFD0
 * (tag 0x0112), without decoding the picture: every MJPEG part passes through here.
 */
export function exifOrientation(jpeg: Buffer): number {
  let i = 2;
  while (i + 4 <= jpeg.length && jpeg[i] === 0xff) {
    const marker = jpeg[i + 1];
    // Start of scan or of a frame: the metadata segments are behind.
    if (marker === 0xda || (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)) return 1;
    const length = jpeg.readUInt16BE(i + 2);
    if (marker === 0xe1 && jpeg.toString('latin1', i + 4, i + 10) === 'Exif\0\0') return tiffOrientation(jpeg.subarray(i + 10, i + 2 + length));
    i += 2 + length;
  }
  return 1;
}

function tiffOrientation(tiff: Buffer): number {
  if (tiff.length < 8) return 1;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 1;
  const count = u16(ifd);
  for (let e = 0; e < count; e++) {
    const at = ifd + 2 + e * 12;
    if (at + 12 > tiff.length) return 1;
    if (u16(at) === 0x0112) {
      const value = u16(at + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

/** The picture turned as its EXIF orientation says, re-encoded without one. */
export async function uprightJpeg(jpeg: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(jpeg).rotate().jpeg({ quality: UPRIGHT_QUALITY }).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
