/**
 * Canvas ↔ device pixel mapping. Pure: no DOM, so Node tests can check it.
 *
 * Convention: a device pixel (x, y) is the unit square [x, x+1) × [y, y+1), the same
 * convention `mobile_list_elements_on_screen` bounds use. The screen is drawn "contained"
 * (uniform scale, centred) inside the box of the element that shows it, so a CSS point maps
 * to a device pixel by undoing that one scale and offset. The frame image size never enters
 * the mapping: frames may be downscaled, the device's own pixel size is what taps use.
 */

import type { Point, Rect } from '../../src/engine/types.js';
import type { ScreenSize as Size } from '../../src/engine/ui-tree.js';

export type { Point, Rect, Size };

export interface ScreenFit {
  /** CSS pixels per device pixel. */
  scale: number;
  /** Where the drawn screen starts inside the box, in CSS pixels. */
  offsetX: number;
  offsetY: number;
  device: Size;
}

function checkSize(what: string, s: Size): void {
  if (!(s.width > 0 && s.height > 0 && Number.isFinite(s.width) && Number.isFinite(s.height))) {
    throw new RangeError(`${what} must have a positive width and height, got ${s.width}×${s.height}`);
  }
}

/** The largest size with the device's aspect ratio that fits in `available` (how big to make the canvas). */
export function fitSize(available: Size, device: Size): Size {
  checkSize('device screen', device);
  const scale = Math.max(0, Math.min(available.width / device.width, available.height / device.height));
  return { width: device.width * scale, height: device.height * scale };
}

/** How a device screen sits in a box of the given CSS size when drawn contained and centred. */
export function fitScreen(box: Size, device: Size): ScreenFit {
  checkSize('screen box', box);
  checkSize('device screen', device);
  const scale = Math.min(box.width / device.width, box.height / device.height);
  return {
    scale,
    offsetX: (box.width - device.width * scale) / 2,
    offsetY: (box.height - device.height * scale) / 2,
    device: { width: device.width, height: device.height },
  };
}

/**
 * The device pixel under a CSS point given relative to the box's top-left corner, or
 * undefined when the point is in the letterbox outside the drawn screen.
 */
export function cssToDevice(fit: ScreenFit, css: Point): Point | undefined {
  const dx = (css.x - fit.offsetX) / fit.scale;
  const dy = (css.y - fit.offsetY) / fit.scale;
  if (dx < 0 || dy < 0 || dx >= fit.device.width || dy >= fit.device.height) return undefined;
  return { x: Math.floor(dx), y: Math.floor(dy) };
}

/** Like cssToDevice but pulls points outside the screen onto its nearest edge pixel (for drags that leave it). */
export function cssToDeviceClamped(fit: ScreenFit, css: Point): Point {
  const dx = Math.floor((css.x - fit.offsetX) / fit.scale);
  const dy = Math.floor((css.y - fit.offsetY) / fit.scale);
  return {
    x: Math.min(fit.device.width - 1, Math.max(0, dx)),
    y: Math.min(fit.device.height - 1, Math.max(0, dy)),
  };
}

/** The CSS point at the middle of a device pixel: the drawn position to click to hit exactly that pixel. */
export function deviceToCss(fit: ScreenFit, p: Point): Point {
  return { x: fit.offsetX + (p.x + 0.5) * fit.scale, y: fit.offsetY + (p.y + 0.5) * fit.scale };
}

/** The CSS rectangle a device-pixel rectangle is drawn in (for outlines). */
export function deviceRectToCss(fit: ScreenFit, r: Rect): Rect {
  return {
    x: fit.offsetX + r.x * fit.scale,
    y: fit.offsetY + r.y * fit.scale,
    width: r.width * fit.scale,
    height: r.height * fit.scale,
  };
}
