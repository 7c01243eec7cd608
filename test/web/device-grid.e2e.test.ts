import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import type { Driver } from '../../src/engine/driver.js';
import type { CallEvent } from '../../src/engine/engine.js';
import { startViewerBridge, withViewerAndChromium } from './support/viewer-bridge.js';
import { eventually } from './support/poll.js';

/** All screens at once (the field notes' "a grid of all devices"), checked in Chromium against the bridge's own counts. */

const chromiumPath = systemTool('chromium', 'the device grid end-to-end test drives it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

const grid = suite<Ctx>('all screens in Chromium', { url: '' });
withViewerAndChromium(grid, chromiumPath);

grid('every device live in one grid: small frames per tile, a click opens the device, closing the grid unsubscribes', async (ctx) => {
  if (!chromiumPath) return;
  const page: Page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  try {
    await page.goto(`${ctx.url}${ctx.url.includes('?') ? '&' : '?'}device=virtual-android-1`);
    await page.waitForSelector('#device-list button[data-id="virtual-android-1"][aria-pressed="true"]');
    await eventually(() => ctx.bridge!.stats().subscriptions === 1, 'the chosen device is watched');
    await page.click('#btn-grid');
    assert.is(await page.getAttribute('#btn-grid', 'aria-pressed'), 'true');
    assert.is(await page.isVisible('#screen'), false, 'the grid takes the stage');
    for (const id of ['virtual-android-1', 'virtual-ios-1']) {
      await page.waitForSelector(`#device-grid .grid-tile[data-id="${id}"][data-painted="true"]`, { timeout: 10_000 });
    }
    assert.is(ctx.bridge!.stats().subscriptions, 3, 'one small subscription per tile, besides the chosen device\'s own');
    // Tiles are small frames: the grid's canvas is at most GRID_SCREEN.maxWidth wide.
    const width = await page.$eval('#device-grid .grid-tile[data-id="virtual-ios-1"] canvas', (c) => (c as unknown as { width: number }).width);
    assert.ok(width > 0 && width <= 240, `tile frames are ${width} px wide`);
    const mainWidth = await page.$eval('#screen', (c) => (c as unknown as { width: number }).width);
    assert.ok(mainWidth > 240, `the main screen kept its own frames (${mainWidth} px), not the tile's`);

    await page.click('#device-grid .grid-tile[data-id="virtual-ios-1"]');
    await page.waitForSelector('#device-list button[data-id="virtual-ios-1"][aria-pressed="true"]');
    assert.is(await page.isVisible('#device-grid'), false);
    assert.is(await page.getAttribute('#btn-grid', 'aria-pressed'), 'false');
    await eventually(() => ctx.bridge!.stats().subscriptions === 1, 'the tiles unsubscribed; only the opened device is watched');
    assert.equal(problems, [], 'no script errors');
  } finally {
    await page.close();
  }
});

grid('a device that is not ready gets a tile saying its state, without a subscription', async (ctx) => {
  if (!chromiumPath) return;
  const offline: Driver = {
    name: 'cabled',
    listDevices: async () => [{ id: 'usb-9', os: 'Android', model: 'Pixel 7', version: '14', state: 'offline', message: 'the device went offline (adb)' }],
    open: async () => undefined,
    close: async () => undefined,
  };
  const { bridge, url } = await startViewerBridge({ setup: { extraDrivers: [offline] } });
  const page: Page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(url);
    await page.waitForSelector('#device-list button[data-id="usb-9"]');
    await page.click('#btn-grid');
    const tile = page.locator('#device-grid .grid-tile[data-id="usb-9"][data-state="offline"]');
    await tile.waitFor();
    assert.match((await tile.textContent()) ?? '', 'offline: the device went offline (adb)');
    await page.waitForSelector('#device-grid .grid-tile[data-id="virtual-android-1"][data-painted="true"]');
    await eventually(() => bridge.stats().subscriptions === 3, 'the two virtual phones and the chosen one subscribed, the offline one not');
  } finally {
    await page.close();
    await bridge.close();
  }
});

grid('after a bridge restart each tile has exactly one subscription, and closing the grid ends them', async (ctx) => {
  if (!chromiumPath) return;
  const first = await startViewerBridge();
  let bridge: Bridge | undefined = first.bridge;
  const port = bridge.port;
  const stats = () => bridge?.stats().subscriptions;
  const page: Page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`${first.url}${first.url.includes('?') ? '&' : '?'}device=virtual-android-1`);
    await page.waitForSelector('#device-list button[data-id="virtual-android-1"][aria-pressed="true"]');
    await page.click('#btn-grid');
    for (const id of ['virtual-android-1', 'virtual-ios-1']) await page.waitForSelector(`#device-grid .grid-tile[data-id="${id}"][data-painted="true"]`);
    await eventually(() => stats() === 3, 'the chosen device and the two tiles are watched');
    // Tiles painted from here on were painted by the new bridge's frames.
    await page.$$eval('#device-grid .grid-tile', (tiles) => tiles.forEach((t) => delete (t as unknown as { dataset: Record<string, string> }).dataset.painted));

    await bridge.close();
    bridge = undefined;
    await page.waitForSelector('#connection[data-state="reconnecting"]');
    bridge = (await startViewerBridge({ port })).bridge;
    await page.waitForSelector('#connection[data-state="open"]');
    for (const id of ['virtual-android-1', 'virtual-ios-1']) await page.waitForSelector(`#device-grid .grid-tile[data-id="${id}"][data-painted="true"]`);
    await eventually(() => stats() === 3, 'the same three subscriptions on the new bridge');
    await page.click('#btn-grid');
    await eventually(() => stats() === 1, 'only the chosen device is watched once the grid is closed');
  } finally {
    await page.close();
    await bridge?.close();
  }
});

grid('while the grid is open nothing acts on the device chosen before: its controls are out of reach and its shortcuts refused', async (ctx) => {
  if (!chromiumPath) return;
  const acted: CallEvent[] = [];
  const off = ctx.bridge!.engine.onCall((e) => {
    if (e.mutates) acted.push(e);
  });
  const page: Page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`${ctx.url}${ctx.url.includes('?') ? '&' : '?'}device=virtual-android-1`);
    await page.locator('#element-list li').first().waitFor();
    await page.locator('#lock-badge:not([hidden])').waitFor();
    await page.click('#btn-grid');
    await page.waitForSelector('#device-grid .grid-tile[data-painted="true"]');
    assert.is((await page.innerText('#screen-heading')).trim().toLowerCase(), 'all screens', 'the heading names no device the page does not show');
    assert.ok(await page.isVisible('#grid-hint'), 'a line says to choose a screen first');

    // Neither a click where they are drawn nor the keyboard reaches them.
    for (const selector of ['#btn-home', '#btn-rotate', '#app-launch', '#btn-record', '#btn-take-control', '#element-list li', '#btn-run']) {
      const reachable = await page.$eval(selector, (node) => {
        const target = node as unknown as { getBoundingClientRect(): { x: number; y: number; width: number; height: number }; contains(n: unknown): boolean; focus(): void; ownerDocument: { activeElement: unknown; elementFromPoint(x: number, y: number): unknown } };
        const box = target.getBoundingClientRect();
        const hit = box.width > 0 ? target.ownerDocument.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) : undefined;
        target.focus();
        return { clicked: Boolean(hit && target.contains(hit)), focused: target.ownerDocument.activeElement === target };
      });
      assert.equal(reachable, { clicked: false, focused: false }, `${selector} is out of reach while the grid is open`);
    }
    await page.keyboard.press('Alt+KeyH');
    await page.locator('#toast', { hasText: 'choose a screen in the grid first' }).waitFor();

    // Choosing the device in the list shows it again, and its buttons act.
    await page.click('#device-list button[data-id="virtual-android-1"]');
    assert.is(await page.isVisible('#device-grid'), false, 'the list closes the grid');
    assert.is(await page.isVisible('#grid-hint'), false);
    await page.click('#btn-home');
    await eventually(() => acted.length > 0, 'HOME reached the device once it was shown');
    assert.equal(acted.map((a) => [a.tool, a.device]), [['mobile_press_button', 'virtual-android-1']], 'nothing was sent while the grid was open');
  } finally {
    off();
    await page.close();
  }
});

if (chromiumPath) grid.run();
