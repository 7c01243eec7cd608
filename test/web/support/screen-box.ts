import type { Page } from 'playwright-core';

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
