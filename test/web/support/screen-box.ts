import type { Page } from 'playwright-core';
import type { Engine } from '../../../src/engine/engine.js';
import { deviceToCss, fitScreen, type Point } from '../../../web/src/geometry.js';

/**
 * Where the device screen canvas is drawn on the page. The canvas stays hidden until the first
 * frame tells its size (screen-view.ts), which on a loaded machine comes after the page is ready,
 * so this waits for it to be shown instead of reading the box of a hidden canvas (null).
 */
export async function screenBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const canvas = page.locator('#screen');
  await canvas.waitFor({ state: 'visible', timeout: 15_000 });
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the screen canvas is not displayed');
  return box;
}

/** The page point where device pixel `p` is drawn, computed apart from the viewer's code. */
export async function drawnAt(engine: Engine, device: string, page: Page, p: Point): Promise<Point> {
  const size = (await engine.call('mobile_get_screen_size', { device })) as { width: number; height: number };
  const box = await screenBox(page);
  const css = deviceToCss(fitScreen({ width: box.width, height: box.height }, size), p);
  return { x: box.x + css.x, y: box.y + css.y };
}
