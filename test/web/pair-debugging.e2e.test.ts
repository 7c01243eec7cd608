import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { deviceToCss, fitScreen, type Point } from '../../web/src/geometry.js';
import { systemTool } from '../support/system-tools.js';
import { screenBox } from './support/screen-box.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/**
 * Issue 17 item 4 in Chromium: two people on one device. Typing into the demo app's password
 * field reaches the other viewer (and a late joiner) as a count, never the text; the lock badge
 * shows who holds the device, Take control and Release work, and a closed holder frees it.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
  alice?: Page;
  bob?: Page;
}

const pair = suite<Ctx>('pair debugging in Chromium', { url: '' });

withViewerAndChromium(pair, chromiumPath);


async function open(ctx: Ctx): Promise<Page> {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(ctx.url);
  await page.locator('#connection[data-state="open"]').waitFor();
  await page.locator(`#device-list button[data-id="${DEVICE}"][aria-pressed="true"]`).waitFor();
  await page.locator('#lock-badge:not([hidden])').waitFor();
  return page;
}

async function find(ctx: Ctx, id: string): Promise<UiElement> {
  const { elements } = (await ctx.bridge!.engine.call('mobile_list_elements_on_screen', { device: DEVICE })) as { elements: UiElement[] };
  const e = elements.find((x) => x.id === id);
  if (!e) throw new Error(`no ${id} on ${DEVICE}`);
  return e;
}

async function drawnCentre(ctx: Ctx, page: Page, e: UiElement): Promise<Point> {
  const size = (await ctx.bridge!.engine.call('mobile_get_screen_size', { device: DEVICE })) as { width: number; height: number };
  const box = await screenBox(page);
  const p = deviceToCss(fitScreen({ width: box.width, height: box.height }, size), e.center);
  return { x: box.x + p.x, y: box.y + p.y };
}

const feedRow = (page: Page, text: string) => page.locator('#activity-feed li', { hasText: text }).first();

pair('typing a password on one page shows the other page "typed 9 characters into the “Password” field", never the text', async (ctx) => {
  ctx.alice = await open(ctx);
  ctx.bob = await open(ctx);
  await ctx.bridge!.engine.call('mobile_launch_app', { device: DEVICE, packageName: 'com.mobilebridge.demo' });
  await ctx.alice.locator('#element-list li[data-id="password"]').waitFor();
  const password = await find(ctx, 'password');
  const at = await drawnCentre(ctx, ctx.alice, password);
  await ctx.alice.mouse.click(at.x, at.y);
  await feedRow(ctx.bob, 'tapped the “Password” field').waitFor({ state: 'attached' });
  // Typed key by key: the viewer sends batches, the bridge merges them into one entry.
  await ctx.alice.keyboard.type('secret123', { delay: 30 });
  await feedRow(ctx.bob, 'typed 9 characters into the “Password” field').waitFor({ state: 'attached' });
  const bobFeed = (await ctx.bob.locator('#activity-feed').textContent()) ?? '';
  assert.not.match(bobFeed, 'secret', 'the other viewer never sees the text');
  assert.is(await ctx.bob.locator('#activity-feed li', { hasText: 'into the “Password” field' }).count(), 1, 'one entry for the whole typing');
  assert.is((await find(ctx, 'password')).text.length, 9, 'the text reached the device');

  // A late joiner gets the last entries from the bridge, masked the same way.
  const late = await open(ctx);
  await feedRow(late, 'typed 9 characters into the “Password” field').waitFor({ state: 'attached' });
  await feedRow(late, 'tapped the “Password” field').waitFor({ state: 'attached' });
  assert.not.match((await late.locator('#activity-feed').textContent()) ?? '', 'secret');
  assert.is(await late.isVisible('#activity-unread'), false, 'history is not counted as unread');
  await late.close();
});

pair('the lock badge shows who holds the device and since when; Take control and Release work', async (ctx) => {
  const { alice, bob } = ctx as Required<Ctx>;
  assert.is(await bob.getAttribute('#lock-badge', 'data-state'), 'free');
  await alice.click('#btn-take-control');
  await alice.locator('#lock-badge[data-state="mine"]').waitFor();
  await bob.locator('#lock-badge[data-state="held"]').waitFor();
  const text = (await bob.textContent('#lock-text')) ?? '';
  assert.match(text, /^Locked by viewer s-[0-9a-f]{4} since \d\d:\d\d:\d\d$/);
  assert.is(await alice.isVisible('#btn-release'), true);

  // Bob's input is refused, and he is told so.
  await bob.click('#btn-home');
  await bob.locator('#toast', { hasText: 'PERMISSION_DENIED' }).waitFor();
  // Led by what the page offers (its Take control button), not only the bridge's advice to API callers.
  assert.match((await bob.textContent('#toast')) ?? '', /^Refused: viewer s-[0-9a-f]{4} holds this device since \d\d:\d\d:\d\d\. Press Take control to act on it/);

  // Take control moves the lock; Alice is told, and goes on without it.
  await bob.click('#btn-take-control');
  await bob.locator('#lock-badge[data-state="mine"]').waitFor();
  await alice.locator('#lock-badge[data-state="held"]').waitFor();
  await alice.locator('#control-lost:not([hidden])', { hasText: 'took it over' }).waitFor();
  await alice.click('#btn-continue-without-control');
  await bob.click('#btn-home');
  await feedRow(alice, 'pressed HOME').waitFor({ state: 'attached' });

  await bob.click('#btn-release');
  await alice.locator('#lock-badge[data-state="free"]').waitFor();
  await bob.locator('#lock-badge[data-state="free"]').waitFor();
});

pair('closing the holder’s page frees the device at once', async (ctx) => {
  const { alice, bob } = ctx as Required<Ctx>;
  await bob.click('#btn-take-control');
  await alice.locator('#lock-badge[data-state="held"]').waitFor();
  await bob.close();
  await alice.locator('#lock-badge[data-state="free"]').waitFor();
  await alice.locator('#toast', { hasText: 'its holder disconnected' }).waitFor();
  assert.is(ctx.bridge!.locks.holder(DEVICE), undefined);
});

pair('the unread badge counts what others did, not your own actions', async (ctx) => {
  const alice = ctx.alice!;
  const carol = await open(ctx);
  try {
    assert.is(await carol.isVisible('#view-activity'), false, 'the feed is not shown');
    await carol.click('#btn-home');
    await carol.locator('#activity-feed li.mine', { hasText: 'pressed HOME' }).waitFor({ state: 'attached' });
    assert.is(await carol.isVisible('#activity-unread'), false, 'her own press is not unread');
    const rows = await carol.locator('#activity-feed li').count();
    await alice.click('#btn-home');
    await carol.locator(`#activity-feed li:nth-child(${rows + 1})`).waitFor({ state: 'attached' });
    assert.is(await carol.textContent('#activity-unread:not([hidden])'), '1', 'alice\'s press is');
  } finally {
    await carol.close();
  }
});

if (chromiumPath) pair.run();
