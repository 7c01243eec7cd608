import { fitSize, type Size } from './geometry.js';

/** `fit`: the whole screen as large as the stage allows; `actual`: one device pixel per display pixel (1:1). */
export type ZoomMode = 'fit' | 'actual';

/** CSS size of the drawn screen for a zoom mode. Pure, for tests. */
export function zoomedSize(mode: ZoomMode, available: Size, device: Size, devicePixelRatio: number): Size {
  if (mode === 'actual') return { width: device.width / devicePixelRatio, height: device.height / devicePixelRatio };
  return fitSize(available, device);
}
