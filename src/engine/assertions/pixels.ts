import { sharpOf, type ScreenCapture } from '../screen/capture.js';
import { loadSharp } from '../screen/sharp.js';
import type { Rect } from '../types.js';

/** Per-channel difference under which two pixels count as the same colour (anti-aliasing, resampling). */
const PIXEL_TOLERANCE = 16;
/** Screens are compared at most this wide: enough to see a typed word, and resampling noise averages out. */
const COMPARE_WIDTH = 540;

const channelGap = (d: Uint8Array | Buffer, i: number, r: number, g: number, b: number): number => Math.max(Math.abs(d[i] - r), Math.abs(d[i + 1] - g), Math.abs(d[i + 2] - b));

interface Bucket {
  key: number;
  n: number;
  r: number;
  g: number;
  b: number;
}

/**
 * The fullest colour bucket of raw pixels: `bits` levels per channel (its key), every `stride`-th
 * byte from 0 (a multiple of the pixel size), with the sums of the colours that fell in it.
 */
function fullestBucket(data: Uint8Array | Buffer, stride: number, bits: number): Bucket {
  const shift = 8 - bits;
  const buckets = new Map<number, Bucket>();
  for (let i = 0; i < data.length; i += stride) {
    const key = ((data[i] >> shift) << (2 * bits)) | ((data[i + 1] >> shift) << bits) | (data[i + 2] >> shift);
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = { key, n: 0, r: 0, g: 0, b: 0 }));
    bucket.n++;
    bucket.r += data[i];
    bucket.g += data[i + 1];
    bucket.b += data[i + 2];
  }
  let best: Bucket = { key: 0, n: 0, r: 0, g: 0, b: 0 };
  for (const b of buckets.values()) if (b.n > best.n) best = b;
  return best;
}

/** The most common colour of an app screen's RGBA pixels (every 4th pixel, 32 levels per channel, the bucket's centre): its background. */
function backgroundOf(data: Uint8Array | Buffer): [number, number, number] {
  const { key } = fullestBucket(data, 16, 5);
  return [((key >> 10) & 31) * 8 + 4, ((key >> 5) & 31) * 8 + 4, (key & 31) * 8 + 4];
}

/**
 * How alike the screen is to a reference image file, 0..1: the share of what is drawn on either
 * (pixels away from that image's background colour) that is the same on both. A share of all pixels
 * scored two unrelated screens of one app 0.94–0.99, their common background outweighing everything
 * else, so screenshot_match passed on any screen. Both are compared at the reference's aspect, at
 * most COMPARE_WIDTH wide, so a reference taken on another density still compares.
 */
export async function similarity(reference: Buffer, current: ScreenCapture): Promise<{ score: number; width: number; height: number }> {
  const sharp = await loadSharp();
  const meta = await sharp(reference).metadata();
  if (!meta.width || !meta.height) throw new Error('the reference has no size');
  const width = Math.min(meta.width, COMPARE_WIDTH);
  const height = Math.max(1, Math.round((meta.height * width) / meta.width));
  const ref = await sharp(reference).resize(width, height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  const cur = await (await sharpOf(current)).resize(width, height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  const [ra, ga, ba] = backgroundOf(ref);
  const [rb, gb, bb] = backgroundOf(cur);
  let drawn = 0;
  let differ = 0;
  for (let i = 0; i < ref.length; i += 4) {
    const changed = channelGap(ref, i, cur[i], cur[i + 1], cur[i + 2]) > PIXEL_TOLERANCE;
    if (changed) differ++;
    if (changed || channelGap(ref, i, ra, ga, ba) > PIXEL_TOLERANCE || channelGap(cur, i, rb, gb, bb) > PIXEL_TOLERANCE) drawn++;
  }
  // Two blank screens of one colour are alike; of two colours, every pixel differs and is drawn.
  return { score: drawn === 0 ? 1 : 1 - differ / drawn, width, height };
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
  const best = fullestBucket(data, info.channels, 4);
  return { r: best.r / best.n, g: best.g / best.n, b: best.b / best.n };
}
