import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import type { CallEvent } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { deviceToCss, fitScreen, type Point } from '../../web/src/geometry.js';
import { systemTool } from '../support/system-tools.js';
import { screenBox } from './support/screen-box.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/**
 * Issue 17 item 1 in Chromium: drags streamed as they happen, the wheel, keys, zoom and the tap
 * marker a second watcher sees. Each check is made at the device (the virtual phone behind the
 * bridge), not at the page's own idea of what it sent.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the live-control end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
  page?: Page;
}

const live = suite<Ctx>('live control in Chromium', { url: '' });

withViewerAndChromium(live, chromiumPath);


async function openViewer(ctx: Ctx): Promise<Page> {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(`${ctx.url}${ctx.url.includes('?') ? '&' : '?'}device=${DEVICE}`);
  await page.waitForSelector('#connection[data-state="open"]');
  await page.waitForSelector(`#device-list button[data-id="${DEVICE}"][aria-pressed="true"]`);
  await page.waitForSelector('#screen:not([hidden])');
  assert.equal(problems, [], 'no script errors');
  return page;
}

async function call(ctx: Ctx, tool: string, parameters: Record<string, unknown>): Promise<unknown> {
  return ctx.bridge!.engine.call(tool, { device: DEVICE, ...parameters });
}

async function elements(ctx: Ctx): Promise<UiElement[]> {
  return ((await call(ctx, 'mobile_list_elements_on_screen', {})) as { elements: UiElement[] }).elements;
}

/** Top edge of each list row now (row id → y), as the device reports it. */
async function rows(ctx: Ctx): Promise<Map<string, number>> {
  return new Map((await elements(ctx)).filter((e) => /^item_\d+$/.test(e.id)).map((e) => [e.id, e.y]));
}

/** How far the list moved, from a middle row present in both listings (edge rows are cut by the list's bounds). */
function shift(before: Map<string, number>, after: Map<string, number>): number {
  const both = [...before.keys()].filter((id) => after.has(id));
  const id = both[Math.floor(both.length / 2)];
  if (!id) throw new Error('no row on screen in both listings');
  return after.get(id)! - before.get(id)!;
}

/** The page point where device pixel `p` is drawn, computed apart from the viewer's code. */
async function drawn(ctx: Ctx, page: Page, p: Point): Promise<Point> {
  const size = (await call(ctx, 'mobile_get_screen_size', {})) as { width: number; height: number };
  const box = await screenBox(page);
  const css = deviceToCss(fitScreen({ width: box.width, height: box.height }, size), p);
  return { x: box.x + css.x, y: box.y + css.y };
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function home(ctx: Ctx): Promise<void> {
  await call(ctx, 'mobile_open_url', { url: 'mbdemo://screen/home' });
}

live('at 1280×800 the phone fills the stage height, and 1:1 draws one device pixel per CSS pixel', async (ctx) => {
  if (!chromiumPath) return;
  ctx.page = await openViewer(ctx);
  const fit = await screenBox(ctx.page);
  const stage = (await ctx.page.locator('#screen-wrap').boundingBox())!;
  assert.ok(fit.height >= stage.height - 24, `drawn ${fit.height} px tall in a ${stage.height} px stage`);
  assert.ok(fit.width > 300, `drawn ${fit.width} px wide at 1280×800`);
  await ctx.page.click('#btn-zoom');
  await eventually(async () => (await screenBox(ctx.page!)).width === 1080, '1:1 makes the canvas 1080 CSS px wide (device 1080 px, DPR 1)');
  assert.is(await ctx.page.getAttribute('#btn-zoom', 'aria-pressed'), 'true');
  await ctx.page.keyboard.press('Alt+KeyW');
  await eventually(async () => Math.abs((await screenBox(ctx.page!)).width - fit.width) < 1, 'Alt+W fits it again');
});

live('a drag moves the list on the device before the pointer is released', async (ctx) => {
  if (!chromiumPath) return;
  const page = ctx.page!;
  await home(ctx);
  await eventually(async () => (await rows(ctx)).size > 3, 'the list is on screen');
  const before = await rows(ctx);
  const size = (await call(ctx, 'mobile_get_screen_size', {})) as { width: number; height: number };
  const start = await drawn(ctx, page, { x: Math.round(size.width / 2), y: Math.round(size.height * 0.7) });
  const end = await drawn(ctx, page, { x: Math.round(size.width / 2), y: Math.round(size.height * 0.45) });
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(end.x, end.y, { steps: 12 });
  // The finger is still down: the device has already scrolled the list with it.
  await eventually(async () => shift(before, await rows(ctx)) < -100, 'the list follows the finger while it is down');
  await page.mouse.up();
  await eventually(async () => page.locator('#activity-feed li', { hasText: 'dragged up' }).count().then((n) => n === 1), 'one activity entry for the drag');
  const sent = Math.abs(shift(before, await rows(ctx)));
  const dragged = Math.round(size.height * 0.7) - Math.round(size.height * 0.45);
  assert.ok(Math.abs(sent - dragged) <= 8, `the list moved ${sent} px for a ${dragged} px drag`);
});

live('a press held on a row puts the finger down: the row menu opens while the button is still held, and dragging on moves that finger', async (ctx) => {
  if (!chromiumPath) return;
  const page = ctx.page!;
  await home(ctx);
  await eventually(async () => (await rows(ctx)).size > 3, 'the list is on screen');
  const row = (await elements(ctx)).find((e) => e.id === 'item_3')!;
  const calls: CallEvent[] = [];
  const off = ctx.bridge!.engine.onCall((e) => calls.push(e));
  try {
    const at = await drawn(ctx, page, row.center);
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    // Nothing moves: the phone's own long-press timer runs because the finger is down on it.
    await eventually(async () => (await elements(ctx)).some((e) => e.type === 'dialog'), 'the row menu opens while the button is held');
    const to = await drawn(ctx, page, { x: row.center.x, y: row.center.y - 300 });
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await page.mouse.up();
    await eventually(async () => calls.some((e) => e.tool === 'input.touch'), 'the finger lifted');
    const touch = calls.find((e) => e.tool === 'input.touch')!;
    assert.equal(touch.parameters.from, row.center, 'the finger went down where the press was');
    assert.ok(Number(touch.parameters.moves) > 0, 'the drag after the hold moved that finger');
    assert.not.ok(calls.some((e) => e.tool === 'mobile_long_press_on_screen_at_coordinates' || e.tool === 'mobile_swipe_on_screen'), 'one finger, no separate gesture');
    assert.ok((await elements(ctx)).some((e) => e.type === 'dialog'), 'lifting tapped nothing: the menu stays open');
  } finally {
    off();
    await call(ctx, 'mobile_press_button', { button: 'BACK' });
  }
});

live('volume: the Vol buttons and Alt+↑ / Alt+↓ press VOLUME_UP and VOLUME_DOWN on the device', async (ctx) => {
  if (!chromiumPath) return;
  const page = ctx.page!;
  const calls: CallEvent[] = [];
  const off = ctx.bridge!.engine.onCall((e) => calls.push(e));
  const pressed = () => calls.filter((e) => e.tool === 'mobile_press_button' && e.ok).map((e) => e.parameters.button);
  try {
    await page.click('#btn-volume-up');
    await page.click('#btn-volume-down');
    await eventually(async () => pressed().length === 2, 'both buttons reached the device');
    await page.locator('#screen').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await page.keyboard.press('Alt+ArrowDown');
    await eventually(async () => pressed().length === 4, 'both shortcuts reached the device');
    assert.equal(pressed(), ['VOLUME_UP', 'VOLUME_DOWN', 'VOLUME_UP', 'VOLUME_DOWN']);
    assert.not.ok(calls.some((e) => e.tool === 'input.key'), 'Alt+arrows are the volume, not arrow keys');
  } finally {
    off();
  }
});

live('Ctrl + drag pinches as scrcpy does: two fingers around the screen centre, scaled by how the pointer\'s distance from it changed', async (ctx) => {
  if (!chromiumPath) return;
  const page = ctx.page!;
  await call(ctx, 'mobile_open_url', { url: 'mbdemo://item/3' });
  const calls: CallEvent[] = [];
  const off = ctx.bridge!.engine.onCall((e) => calls.push(e));
  try {
    const size = (await call(ctx, 'mobile_get_screen_size', {})) as { width: number; height: number };
    const c = { x: size.width / 2, y: size.height / 2 };
    const start = await drawn(ctx, page, { x: c.x, y: c.y - 200 });
    const end = await drawn(ctx, page, { x: c.x, y: c.y - 400 });
    await page.keyboard.down('Control');
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(end.x, end.y, { steps: 8 });
    // While the button is down both fingers show: the pointer's, and its mirror through the centre.
    const fingers = await page.$$eval('.pinch-finger:not([hidden])', (els) => els.map((e) => { const r = e.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; }));
    const centre = await drawn(ctx, page, { x: Math.round(c.x), y: Math.round(c.y) });
    assert.is(fingers.length, 2, 'two fingers drawn during the pinch');
    assert.ok(Math.abs(fingers[0].x - end.x) < 3 && Math.abs(fingers[0].y - end.y) < 3, `the first finger is under the pointer: ${JSON.stringify([fingers[0], end])}`);
    assert.ok(Math.abs(fingers[0].x + fingers[1].x - 2 * centre.x) < 3 && Math.abs(fingers[0].y + fingers[1].y - 2 * centre.y) < 3, 'the second mirrors it through the centre');
    await page.mouse.up();
    await page.keyboard.up('Control');
    assert.is(await page.locator('.pinch-finger:not([hidden])').count(), 0, 'gone on release');
    await eventually(async () => calls.some((e) => e.tool === 'mobile_pinch_on_screen'), 'the pinch reached the device');
    const pinch = calls.find((e) => e.tool === 'mobile_pinch_on_screen')!;
    assert.ok(pinch.ok, JSON.stringify(pinch.result));
    assert.equal([pinch.parameters.x, pinch.parameters.y], [Math.round(c.x), Math.round(c.y)]);
    assert.ok(Math.abs(Number(pinch.parameters.scale) - 2) < 0.1, `scale ${String(pinch.parameters.scale)} for a pointer going from 200 to 400 px off the centre`);
    assert.not.ok(calls.some((e) => e.tool === 'input.touch' || e.tool === 'mobile_swipe_on_screen'), 'no drag reached the device');
  } finally {
    off();
  }
});

live('the wheel scrolls the list under the pointer', async (ctx) => {
  if (!chromiumPath) return;
  const page = ctx.page!;
  await home(ctx);
  await eventually(async () => (await rows(ctx)).size > 3, 'the list is on screen');
  const before = await rows(ctx);
  const size = (await call(ctx, 'mobile_get_screen_size', {})) as { width: number; height: number };
  const over = await drawn(ctx, page, { x: Math.round(size.width / 2), y: Math.round(size.height / 2) });
  await page.mouse.move(over.x, over.y);
  await page.mouse.wheel(0, 200);
  await eventually(async () => shift(before, await rows(ctx)) < -100, 'the list scrolled down (rows moved up)');
  const moved = await rows(ctx);
  await page.mouse.wheel(0, -200);
  await eventually(async () => shift(moved, await rows(ctx)) > 100, 'and back up');
});

live('Backspace deletes a character, Ctrl+V pastes the host clipboard, Ctrl+A selects the field on the phone, right click is Back', async (ctx) => {
  if (!chromiumPath) return;
  const page = ctx.page!;
  await call(ctx, 'mobile_open_url', { url: 'mbdemo://screen/signin' });
  let field: UiElement | undefined;
  await eventually(async () => (field = (await elements(ctx)).find((e) => e.type === 'edittext')) !== undefined, 'the sign-in form');
  const at = await drawn(ctx, page, field!.center);
  await page.mouse.click(at.x, at.y);
  await eventually(async () => (await elements(ctx)).some((e) => e.id === field!.id && e.focused === true), 'the field is focused');
  await page.keyboard.type('abc');
  await eventually(async () => (await elements(ctx)).find((e) => e.id === field!.id)?.text === 'abc', 'typed abc');
  await page.keyboard.press('Backspace');
  await eventually(async () => (await elements(ctx)).find((e) => e.id === field!.id)?.text === 'ab', 'Backspace deleted the c');
  await page.locator('#activity-feed li', { hasText: 'pressed BACKSPACE' }).first().waitFor({ state: 'attached' });
  // Paste from the host clipboard: Ctrl+V on the focused screen.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.evaluate(`navigator.clipboard.writeText('xy')`);
  await page.focus('#screen');
  await page.keyboard.press('Control+V');
  await eventually(async () => (await elements(ctx)).find((e) => e.id === field!.id)?.text === 'abxy', 'the clipboard text was typed');
  // Ctrl+A reaches the phone (the browser's own select-all does not take it): what is typed next replaces the text.
  await page.keyboard.press('Control+A');
  await page.keyboard.type('new');
  await eventually(async () => (await elements(ctx)).find((e) => e.id === field!.id)?.text === 'new', 'Ctrl+A selected the field\'s text and typing replaced it');
  await page.locator('#activity-feed li', { hasText: 'pressed CTRL+A' }).first().waitFor({ state: 'attached' });
  // Right click: BACK (Android), which first closes the keyboard.
  const keyboardShown = async () => (await elements(ctx)).some((e) => e.type === 'keyboard');
  if (await keyboardShown()) {
    await page.mouse.click(at.x, at.y, { button: 'right' });
    await eventually(async () => !(await keyboardShown()), 'right click pressed BACK: the keyboard closed');
  }
  await page.locator('#activity-feed li', { hasText: 'pressed BACK' }).first().waitFor({ state: 'attached' });
});

live('on iOS, which has no BACK button, right click swipes from the left edge and goes back', async (ctx) => {
  if (!chromiumPath) return;
  const IOS = 'virtual-ios-1';
  const page = ctx.page!;
  const list = async () => ((await ctx.bridge!.engine.call('mobile_list_elements_on_screen', { device: IOS })) as { elements: UiElement[] }).elements;
  await ctx.bridge!.engine.call('mobile_open_url', { device: IOS, url: 'mbdemo://screen/home' });
  await ctx.bridge!.engine.call('mobile_open_url', { device: IOS, url: 'mbdemo://screen/detail?item=3' });
  await eventually(async () => !(await list()).some((e) => /^item_\d+$/.test(e.id)), 'the detail screen (no list)');
  await page.click(`#device-list button[data-id="${IOS}"]`);
  await page.waitForSelector(`#device-list button[data-id="${IOS}"][aria-pressed="true"]`);
  await page.waitForSelector('#screen:not([hidden])');
  const box = await screenBox(page);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { button: 'right' });
  await eventually(async () => (await list()).filter((e) => /^item_\d+$/.test(e.id)).length > 3, 'back on the list');
  await page.click(`#device-list button[data-id="${DEVICE}"]`);
  await page.waitForSelector(`#device-list button[data-id="${DEVICE}"][aria-pressed="true"]`);
  await page.waitForSelector('#screen:not([hidden])');
});

live('a second viewer sees the tap marker where the first one tapped', async (ctx) => {
  if (!chromiumPath) return;
  const first = ctx.page!;
  const second = await openViewer(ctx);
  try {
    await home(ctx);
    const size = (await call(ctx, 'mobile_get_screen_size', {})) as { width: number; height: number };
    // A spot on the status bar: nothing there reacts, so the screen stays as it is.
    const spot = { x: Math.round(size.width / 2), y: 10 };
    // Markers live 0.7 s: record each one as it is added, with where it was drawn, instead of racing it.
    await second.evaluate(`(() => {
      window.markersSeen = [];
      new MutationObserver((changes) => {
        for (const c of changes) for (const n of c.addedNodes) {
          if (!n.classList || !n.classList.contains('tap-marker')) continue;
          const r = n.getBoundingClientRect();
          window.markersSeen.push({ x: Number(n.dataset.x), y: Number(n.dataset.y), cx: r.left + r.width / 2, cy: r.top + r.height / 2 });
        }
      }).observe(document.getElementById('screen-wrap'), { childList: true });
    })()`);
    const at = await drawn(ctx, first, spot);
    await first.mouse.click(at.x, at.y);
    type Seen = { x: number; y: number; cx: number; cy: number };
    let mark: Seen | undefined;
    await eventually(async () => {
      const seen = (await second.evaluate('window.markersSeen')) as Seen[];
      mark = seen.find((m) => m.x === spot.x && m.y === spot.y);
      return mark !== undefined;
    }, 'the second page draws a marker at the tapped pixel');
    const where = await drawn(ctx, second, spot);
    assert.ok(Math.abs(mark!.cx - where.x) < 12 && Math.abs(mark!.cy - where.y) < 12, `drawn over the tapped pixel: ${JSON.stringify(mark)} vs ${JSON.stringify(where)}`);
  } finally {
    await second.close();
  }
});

live.run();
