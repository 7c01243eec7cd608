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

/**
 * When a capture's pixels say the logical size may have moved. From Android 12 SurfaceFlinger
 * captures the display at its layer-stack size (captureDisplay's default size), which follows a `wm
 * size` override, so a capture of another size than the last one (rotation aside) means the size
 * changed since it was read; the very first capture is checked against the size read. Captures of
 * an unchanged size trust the size last read: no round trip is added to the common path. Releases
 * before 12 capture panel pixels whatever the override: there only a listing or a screen-size read
 * notices it.
 */
export class CapturedSize {
  private last: string | undefined;

  /** Whether the size should be read again before `captured` is scaled to `known`; remembers `captured`. */
  changed(captured: { width: number; height: number }, known: ScreenSize): boolean {
    const shape = unrotated(captured);
    const was = this.last ?? unrotated(known);
    this.last = shape;
    return shape !== was;
  }
}

function unrotated({ width, height }: { width: number; height: number }): string {
  return `${Math.min(width, height)}x${Math.max(width, height)}`;
}
