import type { PngImage, RawImage } from '../../driver.js';
import type { ScreenSize } from '../../ui-tree.js';
import { loadSharp } from '../../screen/sharp.js';

/*
 * `screencap` captures the panel's native pixels, while uiautomator bounds and `input` coordinates
 * use the logical display size that `wm size` reports (its Override line when a resolution override
 * is set, and on vendors that render below panel resolution). SPEC §2 wants one pixel space, so a
 * capture of another size is scaled to the logical size; nothing is done when they already agree.
 */

/** The logical size in the capture's orientation (a landscape capture is compared with the rotated size). */
export function logicalFrameSize(logical: ScreenSize, captured: { width: number; height: number }): ScreenSize {
  const landscape = captured.width > captured.height;
  const long = Math.max(logical.width, logical.height);
  const short = Math.min(logical.width, logical.height);
  return landscape ? { width: long, height: short } : { width: short, height: long };
}

function differs(a: { width: number; height: number }, b: ScreenSize): boolean {
  return a.width !== b.width || a.height !== b.height;
}

export async function rawToLogical(image: RawImage, logical: ScreenSize): Promise<RawImage> {
  const size = logicalFrameSize(logical, image);
  if (!differs(image, size)) return image;
  const sharp = await loadSharp();
  const data = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } })
    .resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { data, width: size.width, height: size.height, channels: image.channels };
}

export async function pngToLogical(image: PngImage, logical: ScreenSize): Promise<PngImage> {
  const size = logicalFrameSize(logical, image);
  if (!differs(image, size)) return image;
  const sharp = await loadSharp();
  const png = await sharp(image.png).resize(size.width, size.height, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer();
  return { png, width: size.width, height: size.height };
}
