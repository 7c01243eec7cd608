import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import type { CallEvent } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { deviceRectToCss, fitScreen, type Point, type Rect } from '../../web/src/geometry.js';
import { systemTool } from '../support/system-tools.js';
import { pollPage, eventually } from './support/poll.js';
import { drawnAt, screenBox } from './support/screen-box.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/**
 * What the inspector draws over the screen stays true when the page or the screen changes: the Pick
 * layer follows the canvas (a window resize moves the canvas without resizing it), and the selected
 * element's outline follows the element when the list scrolls or the phone rotates.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the inspector overlay end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

const overlays = suite<Ctx>('inspector overlays in Chromium', { url: '' });
withViewerAndChromium(overlays, chromiumPath);

async function elements(ctx: Ctx): Promise<UiElement[]> {
  return ((await ctx.bridge!.engine.call('mobile_list_elements_on_screen', { device: DEVICE })) as { elements: UiElement[] }).elements;
}

/** The page point where device pixel `p` is drawn, computed apart from the viewer's code. */
const drawn = (ctx: Ctx, page: Page, p: Point): Promise<Point> => drawnAt(ctx.bridge!.engine, DEVICE, page, p);

async function openViewer(ctx: Ctx): Promise<Page> {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${ctx.url}${ctx.url.includes('?') ? '&' : '?'}device=${DEVICE}`);
  await page.waitForSelector('#connection[data-state="open"]');
  await page.waitForSelector('#screen:not([hidden])');
  await page.waitForSelector('#element-list li');
  return page;
}

// Browser-side code is text: the tests compile without the DOM library.
const LAYER_COVERS_CANVAS = `(() => {
  const a = document.getElementById('pick-layer').getBoundingClientRect();
  const b = document.getElementById('screen').getBoundingClientRect();
  return b.width > 0 && Math.abs(a.left - b.left) < 1 && Math.abs(a.top - b.top) < 1 && Math.abs(a.width - b.width) < 1 && Math.abs(a.height - b.height) < 1;
})()`;

overlays('Pick on screen keeps covering the screen after the window is resized, and no click reaches the device', async (ctx) => {
  if (!chromiumPath) return;
  const engine = ctx.bridge!.engine;
  await engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/signin' });
  const page = await openViewer(ctx);
  const calls: CallEvent[] = [];
  const off = engine.onCall((e) => {
    if (e.device === DEVICE && e.mutates) calls.push(e);
  });
  try {
    const email = (await elements(ctx)).find((e) => e.id === 'email')!;
    await page.click('#btn-pick');
    await pollPage(page, LAYER_COVERS_CANVAS, 'the pick layer over the screen');
    const canvasX = (await screenBox(page)).x;
    // Narrower: the phone keeps its size (fitted to the height) but moves left; then the layout below 1100 px.
    for (const width of [1180, 1000]) {
      await page.setViewportSize({ width, height: 800 });
      await eventually(async () => (await screenBox(page)).x !== canvasX, `the screen moved at ${width} px`);
      await pollPage(page, LAYER_COVERS_CANVAS, `the pick layer over the moved screen at ${width} px`);
      // A resize may take more than one layout pass (under load, several frames apart): click where the screen stays.
      let last = '';
      await eventually(async () => {
        const box = JSON.stringify(await screenBox(page));
        const still = box === last;
        last = box;
        return still;
      }, `the screen settled at ${width} px`);
      // Near the field's left edge: the strip where the layer used to leave the canvas uncovered.
      const at = await drawn(ctx, page, { x: email.x + 20, y: email.center.y });
      await page.mouse.click(at.x, at.y);
      await page.waitForSelector('#element-list li.selected[data-id="email"]');
      await page.click('#element-details .inspect-clear');
      await page.waitForSelector('#element-list li.selected', { state: 'detached' });
    }
    // A key on the screen sends any tap still held back before itself: once it arrived, nothing is pending.
    await page.keyboard.press('Escape');
    await page.focus('#screen');
    await page.keyboard.press('Enter');
    await eventually(() => calls.some((c) => c.tool === 'mobile_press_button'), 'the ENTER reached the device');
    assert.equal(calls.map((c) => c.tool), ['mobile_press_button'], 'the picks sent nothing to the device');
  } finally {
    off();
    await page.close();
  }
});

overlays('while Pick is on, keys and pastes on the focused screen reach nothing and say why; with Pick off they go again', async (ctx) => {
  if (!chromiumPath) return;
  const engine = ctx.bridge!.engine;
  await engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/signin' });
  const page = await openViewer(ctx);
  const calls: CallEvent[] = [];
  const off = engine.onCall((e) => {
    if (e.device === DEVICE && e.mutates) calls.push(e);
  });
  try {
    await page.focus('#screen');
    await page.click('#btn-pick');
    await page.focus('#screen');
    await page.keyboard.type('abc');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.setData('text/plain', 'pasted');
      document.getElementById('screen').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    })()`);
    await page.waitForSelector('#toast:not([hidden]):has-text("Pick on screen is on")');
    // Esc ends Pick; a key after it goes, and keys and taps leave in the order they were made.
    await page.keyboard.press('Escape');
    await page.waitForSelector('#btn-pick[aria-pressed="false"]');
    await page.keyboard.press('Enter');
    await eventually(() => calls.some((c) => c.tool === 'mobile_press_button'), 'the ENTER after Pick reached the device');
    assert.equal(calls.map((c) => c.tool), ['mobile_press_button'], 'nothing typed or pasted while Pick was on reached the device');
  } finally {
    off();
    await page.close();
  }
});

/** Where the device rectangle `r` is drawn in the page, computed apart from the viewer's code. */
async function drawnRect(ctx: Ctx, page: Page, r: Rect): Promise<Rect> {
  const size = (await ctx.bridge!.engine.call('mobile_get_screen_size', { device: DEVICE })) as { width: number; height: number };
  const box = await screenBox(page);
  const css = deviceRectToCss(fitScreen({ width: box.width, height: box.height }, size), r);
  return { x: box.x + css.x, y: box.y + css.y, width: css.width, height: css.height };
}

/** Waits until the outline is drawn over the element as the device lists it now, or hidden once it left the screen. */
async function outlineFollows(ctx: Ctx, page: Page, id: string, what: string): Promise<void> {
  let last = '';
  const settled = eventually(async () => {
    const element = (await elements(ctx)).find((e) => e.id === id);
    const outline = page.locator('#outline');
    if (!element) return (last = 'outline shown for an element that is gone') && !(await outline.isVisible());
    const want = await drawnRect(ctx, page, element);
    const box = await outline.boundingBox();
    last = `outline ${JSON.stringify(box)}, element drawn at ${JSON.stringify(want)}`;
    return box !== null && Math.abs(box.x - want.x) < 3 && Math.abs(box.y - want.y) < 3 && Math.abs(box.width - want.width) < 5 && Math.abs(box.height - want.height) < 5;
  }, what);
  await settled.catch((err: Error) => {
    throw new Error(`${err.message}: ${last}`);
  });
}

overlays('the selected element stays outlined where it is as the list scrolls and the phone rotates, and not once it left', async (ctx) => {
  if (!chromiumPath) return;
  const engine = ctx.bridge!.engine;
  await engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/home' });
  const page = await openViewer(ctx);
  try {
    const row = page.locator('#element-list li[data-id="item_5"]');
    await row.click();
    await page.waitForSelector('#element-list li.selected[data-id="item_5"]');
    // The pointer off the screen and the list: no hover redraws the outline from here on.
    await page.mouse.move(5, 5);
    await outlineFollows(ctx, page, 'item_5', 'the selected row is outlined');
    await engine.call('mobile_swipe_on_screen', { device: DEVICE, direction: 'up', distance: 300 });
    await outlineFollows(ctx, page, 'item_5', 'the outline moved up with the row');
    await engine.call('mobile_set_orientation', { device: DEVICE, orientation: 'landscape' });
    await outlineFollows(ctx, page, 'item_5', 'the outline is where the row is in landscape');
    await engine.call('mobile_swipe_on_screen', { device: DEVICE, direction: 'up', distance: 900 });
    await eventually(async () => !(await elements(ctx)).some((e) => e.id === 'item_5'), 'the row left the screen');
    await outlineFollows(ctx, page, 'item_5', 'no outline once the row left the screen');
  } finally {
    await engine.call('mobile_set_orientation', { device: DEVICE, orientation: 'portrait' });
    await page.close();
  }
});

if (chromiumPath) overlays.run();
