import { sharpOf, type ScreenCapture } from '../screen/capture.js';
import { loadSharp } from '../screen/sharp.js';
import type { Rect } from '../types.js';

/** Per-channel difference under which two pixels count as the same (absorbs anti-aliasing and JPEG-like noise). */
const PIXEL_TOLERANCE = 24;

/**
 * Share of pixels (0..1) that match between a reference image file and the screen. The screen is
 * scaled to the reference's size first, so a reference taken on another density still compares.
 */
export async function similarity(reference: Buffer, current: ScreenCapture): Promise<{ score: number; width: number; height: number }> {
  const ref = await (await loadSharp())(reference).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = ref.info;
  const cur = await (await sharpOf(current)).resize(width, height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  const a = ref.data;
  let same = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (Math.abs(a[i] - cur[i]) <= PIXEL_TOLERANCE && Math.abs(a[i + 1] - cur[i + 1]) <= PIXEL_TOLERANCE && Math.abs(a[i + 2] - cur[i + 2]) <= PIXEL_TOLERANCE) same++;
  }
  return { score: same / (width * height), width, height };
}

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export function parseHex(hex: string): Rgb {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? h.split('').map((c) => c + c).join('') : h;
  return { r: parseInt(full.slice(0, 2), 16), g: parseInt(full.slice(2, 4), 16), b: parseInt(full.slice(4, 6), 16) };
}

export function toHex(c: Rgb): string {
  return `#${[c.r, c.g, c.b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

export function distance(a: Rgb, b: Rgb): number {
  return Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b);
}

/**
 * The most common colour inside a rectangle of the screenshot: pixels are grouped in buckets of
 * 16 levels per channel and the fullest bucket's average is returned, so a button's fill wins
 * over its label's anti-aliased text.
 */
export async function dominantColor(cap: ScreenCapture, rect: Rect): Promise<Rgb> {
  const meta = { width: cap.width, height: cap.height };
  const left = Math.max(0, Math.floor(rect.x));
  const top = Math.max(0, Math.floor(rect.y));
  const width = Math.max(1, Math.min((meta.width ?? 1) - left, Math.floor(rect.width)));
  const height = Math.max(1, Math.min((meta.height ?? 1) - top, Math.floor(rect.height)));
  const { data, info } = await (await sharpOf(cap)).extract({ left, top, width, height }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const buckets = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (let i = 0; i < data.length; i += info.channels) {
    const key = ((data[i] >> 4) << 8) | ((data[i + 1] >> 4) << 4) | (data[i + 2] >> 4);
    const bucket = buckets.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    bucket.n++;
    bucket.r += data[i];
    bucket.g += data[i + 1];
    bucket.b += data[i + 2];
    buckets.set(key, bucket);
  }
  let best = { n: 0, r: 0, g: 0, b: 0 };
  for (const b of buckets.values()) if (b.n > best.n) best = b;
  return { r: best.r / best.n, g: best.g / best.n, b: best.b / best.n };
}
