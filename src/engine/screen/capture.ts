import type { CallContext, DeviceHandle, RawImage } from '../driver.js';

/**
 * One capture of the screen, in the form the device hands it out: raw pixels (the virtual
 * framebuffer, Android's raw `screencap`) or the device's own encoding (WebDriverAgent's PNG).
 * Consumers scale first and encode once, in the format they need; nobody decodes a PNG that this
 * process has just encoded.
 */
export type ScreenCapture =
  | { raw: RawImage; encoded?: undefined; width: number; height: number }
  | { encoded: Buffer; raw?: undefined; width: number; height: number };

/** Raw pixels when the driver has them, else the device's own encoding. Runs in the caller's device queue. */
export async function captureScreen(device: DeviceHandle, ctx: CallContext): Promise<ScreenCapture> {
  if (device.screenshotRaw) {
    const raw = await device.screenshotRaw(ctx);
    return { raw, width: raw.width, height: raw.height };
  }
  const shot = await device.screenshot(ctx);
  return { encoded: shot.png, width: shot.width, height: shot.height };
}
