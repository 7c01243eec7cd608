import sharp from 'sharp';

/**
 * Screenshots for MCP clients. Some cap a tool result at 1 MB (mobile-mcp's users hit that with
 * full-resolution PNGs), and base64 adds a third, so images are scaled and compressed until the
 * base64 text fits a budget well under that cap.
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

/** Base64 characters allowed per screenshot: 600 KB leaves room for the text part under a 1 MB cap. */
export const DEFAULT_BUDGET = 600_000;
/** Longest side of the image by default: enough to read labels, small enough for a model's context. */
export const DEFAULT_MAX_SIZE = 1280;
const MIN_SIDE = 160;
const JPEG_QUALITIES = [80, 65, 50, 40];

async function encode(png: Buffer, box: { width: number; height: number }, format: ImageFormat, quality: number): Promise<Buffer> {
  // Bounding both sides: scaling by width alone lets the rounded height exceed the bound by one.
  const img = sharp(png).resize({ ...box, fit: 'inside', withoutEnlargement: true });
  return format === 'png' ? img.png({ compressionLevel: 9, palette: true }).toBuffer() : img.flatten({ background: '#ffffff' }).jpeg({ quality, mozjpeg: true }).toBuffer();
}

/**
 * Scales the device's PNG so its longest side is at most `maxSize` and its base64 fits `budget`:
 * lower JPEG quality first, then smaller sizes. PNG is kept lossless and only shrinks.
 */
export async function scaleScreenshot(png: Buffer, options: { format?: ImageFormat; maxSize?: number; budget?: number } = {}): Promise<ScaledShot> {
  const format = options.format ?? 'jpeg';
  const budget = options.budget ?? DEFAULT_BUDGET;
  const meta = await sharp(png).metadata();
  const deviceWidth = meta.width ?? 0;
  const deviceHeight = meta.height ?? 0;
  if (!deviceWidth || !deviceHeight) throw new Error('the device returned a screenshot without dimensions');
  const longest = Math.max(deviceWidth, deviceHeight);
  let scale = Math.min(1, (options.maxSize ?? DEFAULT_MAX_SIZE) / longest);
  for (;;) {
    const width = Math.max(1, Math.floor(deviceWidth * scale));
    const height = Math.max(1, Math.floor(deviceHeight * scale));
    for (const quality of format === 'png' ? [100] : JPEG_QUALITIES) {
      const out = await encode(png, { width, height }, format, quality);
      const base64Length = Math.ceil(out.length / 3) * 4;
      const last = Math.max(width, height) <= MIN_SIDE;
      if (base64Length <= budget || last) {
        const outMeta = await sharp(out).metadata();
        const w = outMeta.width ?? width;
        return {
          data: out.toString('base64'),
          mimeType: format === 'png' ? 'image/png' : 'image/jpeg',
          width: w,
          height: outMeta.height ?? height,
          deviceWidth,
          deviceHeight,
          factor: Math.round((deviceWidth / w) * 10_000) / 10_000,
          factorY: Math.round((deviceHeight / (outMeta.height ?? height)) * 10_000) / 10_000,
          bytes: out.length,
        };
      }
    }
    scale *= 0.75;
  }
}
