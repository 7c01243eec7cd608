import type { Sharp } from 'sharp';
import type { CallContext, DeviceHandle, FitSize, RawImage } from '../driver.js';
import { loadSharp } from './sharp.js';

/**
 * One capture of the screen, in the form the device hands it out: raw pixels (the virtual
 * framebuffer, Android's raw `screencap`) or the device's own encoding (WebDriverAgent's PNG).
 * Consumers scale first and encode once, in the format they need; nobody decodes a PNG that this
 * process has just encoded.
 */
export type ScreenCapture =
  | { raw: RawImage; encoded?: undefined; width: number; height: number }
  | { encoded: Buffer; raw?: undefined; width: number; height: number };

/**
 * A capture made for one consumer's size (DeviceHandle.screenshotFitted): `shrunk` holds RGB pixels
 * already at (or near) that size; `width`×`height` is still the screen's size in device pixels.
 * Only the screenshot scaler (scale.ts) takes these.
 */
export type FittedCapture = ScreenCapture | { shrunk: RawImage; width: number; height: number };

/** A capture for a consumer that shrinks it to `fit` anyway: drivers that can shrink on the way or pick a cheaper capture do. */
export async function captureFitted(device: DeviceHandle, ctx: CallContext, fit: FitSize): Promise<FittedCapture> {
  if (!device.screenshotFitted) return captureScreen(device, ctx);
  const screen = await device.screenshotFitted(fit, ctx);
  if (screen.png) return { encoded: screen.png.png, width: screen.png.width, height: screen.png.height };
  return { shrunk: screen.shrunk, width: screen.screenWidth, height: screen.screenHeight };
}

/** Raw pixels when the driver has them, else the device's own encoding. Runs in the caller's device queue. */
export async function captureScreen(device: DeviceHandle, ctx: CallContext): Promise<ScreenCapture> {
  if (device.screenshotRaw) {
    const raw = await device.screenshotRaw(ctx);
    return { raw, width: raw.width, height: raw.height };
  }
  const shot = await device.screenshot(ctx);
  return { encoded: shot.png, width: shot.width, height: shot.height };
}

/** The capture as a sharp pipeline's input: raw pixels read in place, the device's own encoding decoded. */
export async function sharpOf(cap: ScreenCapture): Promise<Sharp> {
  const sharp = await loadSharp();
  return cap.raw ? sharp(cap.raw.data, { raw: { width: cap.width, height: cap.height, channels: cap.raw.channels } }) : sharp(cap.encoded);
}

/** A PNG file's bytes (its IHDR chunk where a PNG has it), as opposed to a device's JPEG. */
export function isPng(bytes: Buffer | undefined): bytes is Buffer {
  return bytes !== undefined && bytes.length > 16 && bytes.readUInt32BE(12) === 0x49484452;
}

/** A JPEG file's bytes (its start-of-image marker), as WebDriverAgent's MJPEG pictures are. */
export function isJpeg(bytes: Buffer | undefined): bytes is Buffer {
  return bytes !== undefined && bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/**
 * The capture as a JPEG file's bytes, for a screenshot saved under a .jpg name: the device's own
 * JPEG as it is, anything else encoded once. Quality 90 because the file is for people to read
 * (labels stay crisp); screens are opaque, so dropping alpha loses nothing.
 */
export async function jpegOf(cap: ScreenCapture): Promise<Buffer> {
  if (isJpeg(cap.encoded)) return cap.encoded;
  return (await sharpOf(cap)).removeAlpha().jpeg({ quality: 90 }).toBuffer();
}

/** The capture as a PNG file's bytes: the device's own PNG as it is, raw pixels encoded once. */
export async function pngOf(cap: ScreenCapture): Promise<Buffer> {
  if (isPng(cap.encoded)) return cap.encoded;
  return (await sharpOf(cap)).png({ compressionLevel: 3, adaptiveFiltering: false }).toBuffer();
}
