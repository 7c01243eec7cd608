import { captureFromEncoded, type ScaledShot, type ScaleOptions } from '../engine/screen/scale.js';
import type { ScaledMemo } from '../engine/screen/scaled-memo.js';

/**
 * Screenshots for MCP clients: the scaling itself lives with the engine (src/engine/screen/scale.ts)
 * so that a backend with the device's raw pixels scales before it encodes anything.
 */
export { DEFAULT_BUDGET, DEFAULT_MAX_SIZE, type ImageFormat, type ScaledShot } from '../engine/screen/scale.js';

/** Scales an already encoded screenshot (a bridge's PNG, a device's own encoding) for an MCP result. */
export async function scaleScreenshot(image: Buffer, options: ScaleOptions, memo: ScaledMemo): Promise<ScaledShot> {
  return memo.scale(await captureFromEncoded(image), options);
}
