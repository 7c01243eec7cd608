import type { EffectiveScreenOptions, ImageFormat } from '../protocol/index.js';
import type { PixelBuffer } from './downscale.js';
import { shrinker, type HalvedPixels } from './shrinker.js';
import type { EncodedFrame } from './encoded-frame.js';
import { isPng, type ScreenCapture } from '../engine/screen/capture.js';
import { loadSharp } from '../engine/screen/sharp.js';
import { lowerImageThreads } from '../engine/thread-priority.js';

/** Equal for two specs that one encoding serves. */
export function specKey(spec: FrameSpec): string {
  return `${spec.format}/${spec.width}/${spec.quality}`;
}

/** One captured screen as its encodings read it. */
export interface Screen {
  image: ScreenCapture;
  width: number;
  height: number;
  seq: number;
  capturedAt: number;
  /** Decoded once, on first need, for every encoding of this screen. */
  pixels?: Promise<PixelBuffer>;
  /** Halved once, on first need, for every encoding of at most half the device width. */
  halved?: Promise<HalvedPixels>;
}

/** What the pipeline learns of a screen's pixel work: bytes made, and reads of the raw capture. */
export interface PixelTracker {
  /** `job` reads the raw capture until it settles, and its result is held with the screen. */
  fromRaw<T extends PixelBuffer>(job: Promise<T>): Promise<T>;
}

/** One encoding of a screen: every subscriber asking for the same one shares it. */
export interface FrameSpec {
  format: ImageFormat;
  width: number;
  quality: number;
}

/** The encoding a subscriber's screen options ask for, on a device `deviceWidth` pixels wide. */
export function frameSpec(screen: EffectiveScreenOptions, deviceWidth: number): FrameSpec {
  // Frames wider than the device are never upscaled.
  const width = screen.maxWidth === null ? deviceWidth : Math.min(screen.maxWidth, deviceWidth);
  // Video subscribers polled while their video is unavailable get JPEG (SPEC §9 fallback).
  const format: ImageFormat = screen.format === 'h264' ? 'jpeg' : screen.format;
  return { format, width, quality: format === 'png' ? 0 : screen.quality };
}

/**
 * The screen as opaque RGB at full size. Encoding from RGB pixels is several times faster than one
 * sharp pipeline from a PNG (libvips re-reads it per region) or from RGBA (premultiplied resizing).
 */
async function decode(image: ScreenCapture): Promise<PixelBuffer> {
  if (image.raw?.channels === 3) return { data: image.raw.data, width: image.width, height: image.height, channels: 3 };
  const sharp = await loadSharp();
  const input = image.raw ? sharp(image.raw.data, { raw: { width: image.width, height: image.height, channels: image.raw.channels } }) : sharp(image.encoded, { sequentialRead: true });
  return input
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
    .then(({ data, info }) => ({ data, width: info.width, height: info.height, channels: 3 as const }));
}

/**
 * The pixels an encoding of `width` starts from. For frames of at most half the device width
 * from raw RGBA: the screen halved by a 2×2 box, alpha dropped in the same pass, on the downscaler
 * thread (~9 ms for 1080×2400, where the decode pass plus sharp's lanczos3 resize cost ~25–40 ms;
 * a narrower frame is resized from there by sharp). Else the full-size RGB. Decoded PNGs keep
 * sharp's resize: on RGB it is cheaper, and copying them to the thread costs what it would save.
 */
function pixelsFor(screen: Screen, width: number, track: PixelTracker): Promise<PixelBuffer> {
  const raw = screen.image.raw;
  if (width * 2 <= screen.width && raw?.channels === 4) return (screen.halved ??= track.fromRaw(shrinker.halve(raw)));
  if (raw?.channels === 3) return (screen.pixels ??= decode(screen.image));
  return (screen.pixels ??= track.fromRaw(decode(screen.image)));
}

export async function encodeScreen(screen: Screen, { format, width, quality }: FrameSpec, track: PixelTracker): Promise<EncodedFrame> {
  const base = { seq: screen.seq, format, capturedAt: screen.capturedAt, deviceWidth: screen.width, deviceHeight: screen.height };
  if (format === 'png' && width === screen.width && isPng(screen.image.encoded)) return { ...base, bytes: screen.image.encoded, width: screen.width, height: screen.height };
  const src = await pixelsFor(screen, width, track);
  let img = (await loadSharp())(src.data, { raw: { width: src.width, height: src.height, channels: src.channels } });
  // The rest of the way after halving (e.g. 1179 → 589 → 540), to the size a resize of the full
  // screen gives, so frame sizes do not depend on the path taken.
  if (src.width !== width) img = img.resize({ width, height: Math.round((screen.height * width) / screen.width), fit: 'fill' });
  // optimiseCoding off: ~4 ms less per 540 px frame for ~10 % more bytes (measured, see docs/protocol.md).
  if (format === 'jpeg') img = img.jpeg({ quality, optimiseCoding: false });
  else if (format === 'webp') img = img.webp({ quality, effort: 0 });
  else img = img.png({ compressionLevel: width === screen.width ? 1 : 3, adaptiveFiltering: false });
  const { data: bytes, info } = await img.toBuffer({ resolveWithObject: true });
  lowerImageThreads();
  return { ...base, bytes, width: info.width, height: info.height };
}
