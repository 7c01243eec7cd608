import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import type { CallEvent } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import type { Point } from '../../web/src/geometry.js';
import { systemTool } from '../support/system-tools.js';
import { drawnAt } from './support/screen-box.js';
import { withViewerAndChromium, type ViewerSuiteContext } from './support/viewer-bridge.js';

/**
 * A finger must never stay down on the phone because the page missed the end of a press: the
 * window lost the focus mid-drag, the release happened outside the page. Checked at the bridge
 * (is a finger down on the device?), not at the page's idea of what it sent.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the finger-release end-to-end tests drive it');

interface Ctx extends ViewerSuiteContext {
  page?: Page;
}

const release = suite<Ctx>('a press the page lost track of', { url: '' });

withViewerAndChromium(release, chromiumPath);

release.before.each(async (ctx) => {
  if (!chromiumPath) return;
  // A touch screen too, for the second-finger check; the mouse works as ever.
  const page = await (await ctx.browser!.newContext({ viewport: { width: 1280, height: 800 }, hasTouch: true })).newPage();
  await page.goto(`${ctx.url}?device=${DEVICE}`);
  await page.waitForSelector('#connection[data-state="open"]');
  await page.waitForSelector('#screen:not([hidden])');
  await ctx.bridge!.engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/home' });
  await eventually(async () => (await elements(ctx)).filter((e) => /^item_\d+$/.test(e.id)).length > 3, 'the list is on screen');
  ctx.page = page;
});

release.after.each(async (ctx) => {
  await ctx.page?.context().close();
  ctx.page = undefined;
});

async function elements(ctx: Ctx): Promise<UiElement[]> {
  return ((await ctx.bridge!.engine.call('mobile_list_elements_on_screen', { device: DEVICE })) as { elements: UiElement[] }).elements;
}

/** True while some caller's finger is down on the device (the refusal any other caller would get). */
function fingerDown(ctx: Ctx): boolean {
  return ctx.bridge!.engine.fingerRefusal(DEVICE, 'someone-else') !== undefined;
}

async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 8_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Presses on the list and drags until the device has the finger down (the drag is streamed). */
async function startDrag(ctx: Ctx): Promise<{ end: Point }> {
  const page = ctx.page!;
  const size = (await ctx.bridge!.engine.call('mobile_get_screen_size', { device: DEVICE })) as { width: number; height: number };
  const start = await drawnAt(ctx.bridge!.engine, DEVICE, page, { x: Math.round(size.width / 2), y: Math.round(size.height * 0.7) });
  const end = await drawnAt(ctx.bridge!.engine, DEVICE, page, { x: Math.round(size.width / 2), y: Math.round(size.height * 0.5) });
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(end.x, end.y, { steps: 8 });
  await eventually(() => fingerDown(ctx), 'the drag put a finger down on the device');
  return { end };
}

release('the window losing the focus mid-drag lifts the finger on the device, and later moves drag nothing', async (ctx) => {
  if (!chromiumPath) return;
  const page = ctx.page!;
  const calls: CallEvent[] = [];
  const off = ctx.bridge!.engine.onCall((e) => calls.push(e));
  try {
    const { end } = await startDrag(ctx);
    await page.evaluate(`window.dispatchEvent(new Event('blur'))`);
    await eventually(() => !fingerDown(ctx), 'the finger was lifted');
    // Reported once the device is done with the lift, a little after the finger stopped counting as down.
    await eventually(() => calls.some((e) => e.tool === 'input.touch'), 'the drag was reported');
    const touch = calls.find((e) => e.tool === 'input.touch');
    assert.is(touch?.parameters.action, 'cancel', 'the drag was cancelled, not finished as a swipe');
    // Back on the page with the button still down, as the browser saw it: no new finger goes down.
    await page.mouse.move(end.x, end.y - 120, { steps: 6 });
    await page.mouse.up();
    assert.not.ok(fingerDown(ctx), 'no finger down after the later moves');
    assert.is(calls.filter((e) => e.tool === 'input.touch').length, 1, 'nothing more of the drag reached the device');
  } finally {
    off();
  }
});

release('a mouse move with no button held (the release happened outside the page) ends the drag', async (ctx) => {
  if (!chromiumPath) return;
  const page = ctx.page!;
  const { end } = await startDrag(ctx);
  // What the page gets when the button came up outside the window: a move with no buttons held.
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: end.x, y: end.y - 40, button: 'none', buttons: 0 });
    await eventually(() => !fingerDown(ctx), 'the finger was lifted');
  } finally {
    await cdp.detach();
    await page.mouse.up();
  }
});

release('a second finger on a touch screen does not take over the drag: lifting the first lifts it on the device', async (ctx) => {
  if (!chromiumPath) return;
  const page = ctx.page!;
  const size = (await ctx.bridge!.engine.call('mobile_get_screen_size', { device: DEVICE })) as { width: number; height: number };
  const at = (x: number, y: number) => drawnAt(ctx.bridge!.engine, DEVICE, page, { x: Math.round(size.width * x), y: Math.round(size.height * y) });
  const start = await at(0.5, 0.7);
  const second = await at(0.3, 0.3);
  const calls: CallEvent[] = [];
  const off = ctx.bridge!.engine.onCall((e) => calls.push(e));
  const cdp = await page.context().newCDPSession(page);
  try {
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Point[]) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id })) });
    await touch('touchStart', [start]);
    for (let i = 1; i <= 6; i++) await touch('touchMove', [{ x: start.x, y: start.y - i * 20 }]);
    await eventually(() => fingerDown(ctx), 'the drag put a finger down on the device');
    const first = { x: start.x, y: start.y - 120 };
    await touch('touchStart', [first, second]);
    await touch('touchMove', [first, { x: second.x, y: second.y + 60 }]);
    await touch('touchEnd', []);
    await eventually(() => !fingerDown(ctx), 'the finger was lifted');
    await eventually(() => calls.some((e) => e.tool === 'input.touch'), 'the drag was reported');
    assert.is(calls.find((e) => e.tool === 'input.touch')?.parameters.action, 'up', 'the drag ended where the first finger lifted');
    assert.not.ok(calls.some((e) => e.tool.startsWith('mobile_')), `the second finger sent nothing: ${calls.map((e) => e.tool).join(', ')}`);
  } finally {
    off();
    await cdp.detach();
  }
});

release.run();
