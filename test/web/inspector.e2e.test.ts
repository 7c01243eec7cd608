import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import type { BridgeClient } from '../../src/protocol/client.js';
import { validateScenarioValue } from '../../src/validate/index.js';
import { deviceToCss, fitScreen } from '../../web/src/geometry.js';
import { systemTool } from '../support/system-tools.js';
import { launchChromium } from './support/browser.js';
import { screenBox } from './support/screen-box.js';
import { startViewerBridge } from './support/viewer-bridge.js';

/**
 * The inspector for test writers, in Chromium: rows lead with what people see, the tree nests by
 * bounds, and what the Copy buttons put on the clipboard is checked against the bridge's own
 * resolver through verbs.run.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the inspector end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
  context?: BrowserContext;
  page?: Page;
  client?: BridgeClient;
}

const inspector = suite<Ctx>('inspector in Chromium', { url: '' });

inspector.before(async (ctx) => {
  const started = await startViewerBridge();
  ctx.bridge = started.bridge;
  ctx.url = started.url;
  ctx.browser = await launchChromium(chromiumPath!);
  ctx.context = await ctx.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await ctx.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(started.url).origin });
  ctx.client = await connectBridge(started.bridge.wsUrl);
  await ctx.client.request('session.hello', { client: 'inspector-test' });
  const page = await ctx.context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(ctx.url);
  await page.waitForSelector('#connection[data-state="open"]');
  await page.waitForSelector('#element-list li');
  assert.equal(problems, []);
  ctx.page = page;
});

inspector.after(async (ctx) => {
  try {
    await ctx.client?.close();
    await ctx.browser?.close();
  } finally {
    await ctx.bridge?.close();
  }
});

/** What the last Copy button put on the clipboard. */
async function clipboard(page: Page): Promise<string> {
  return (await page.evaluate('navigator.clipboard.readText()')) as string;
}

async function copy(page: Page, label: string): Promise<string> {
  await page.click(`#element-details button[data-copy="${label}"]`);
  await page.waitForSelector('#element-details .copied:not(:empty)');
  const text = await clipboard(page);
  await page.evaluate(`document.querySelector('#element-details .copied').textContent = ''`);
  return text;
}

/** Runs a step through the bridge as an agent would; returns the element the runner's resolver chose. */
async function resolvedBy(ctx: Ctx, step: Record<string, unknown>): Promise<string | undefined> {
  const outcome = (await ctx.client!.requestRaw('verbs.run', { device: DEVICE, step })) as { status: string; resolved: { id: string } | null; message: string };
  assert.is(outcome.status, 'passed', outcome.message);
  return outcome.resolved?.id;
}

const waitVisible = (target: string) => ({ action: 'wait_for_element', target, wait_config: { type: 'element_visible', timeout_ms: 2000 } });

async function listTop(page: Page): Promise<number> {
  return (await page.locator('#element-list').boundingBox())!.y;
}

inspector('an ambiguous label says so and offers a wording that resolves to exactly that element', async (ctx) => {
  const page = ctx.page!;
  // The demo app's list: row subtitles repeat ("On sale" under two items).
  await ctx.bridge!.engine.call('mobile_launch_app', { device: DEVICE, packageName: 'com.mobilebridge.demo' });
  await ctx.bridge!.engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/home' });
  const elements = ((await ctx.bridge!.engine.call('mobile_list_elements_on_screen', { device: DEVICE })) as { elements: { id: string; text: string }[] }).elements;
  const caption = elements.filter((e) => e.text === 'On sale')[1];
  assert.ok(caption, 'two "On sale" subtitles on the list');
  await page.locator(`#element-list li[data-id="${caption.id}"]`).waitFor();
  await page.click(`#element-list li[data-id="${caption.id}"]`);
  await page.waitForSelector('#element-details .verdict-badge');
  assert.match((await page.textContent('#element-details .verdict-badge')) ?? '', 'not unique');
  const alternative = (await page.textContent('#element-details .alternative code'))!;
  const copied = await copy(page, 'Copy target');
  assert.is(copied, alternative);
  assert.is(await resolvedBy(ctx, waitVisible(copied)), caption.id, `"${copied}" resolves to the caption`);
  // The next test launches the app and expects its sign-in screen in front.
  await ctx.bridge!.engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/signin' });
});

inspector('rows lead with the visible text; a click shows a unique target whose copy resolves to the element', async (ctx) => {
  const page = ctx.page!;
  await ctx.bridge!.engine.call('mobile_launch_app', { device: DEVICE, packageName: 'com.mobilebridge.demo' });
  const row = page.locator('#element-list li[data-id="sign_in"]');
  await row.waitFor();
  assert.equal(await row.locator('span').allTextContents(), ['Sign in', 'button', 'sign_in'], 'text first, then the type, then the id');
  assert.is(await page.locator('#element-list li[data-id="email"] .label').textContent(), 'Email', 'a field is named by its hint');

  const top = await listTop(page);
  const detailsHeight = (await page.locator('#element-details').boundingBox())!.height;
  await row.click();
  await page.waitForSelector('#element-details .verdict-badge.ok');
  assert.is(await page.textContent('#element-details .target-line code'), 'the Sign in button');
  assert.is(await listTop(page), top, 'the list does not move when an element is selected');
  assert.is((await page.locator('#element-details').boundingBox())!.height, detailsHeight, 'the details pane keeps its size');

  const target = await copy(page, 'Copy target');
  assert.is(target, 'the Sign in button');
  assert.is(await resolvedBy(ctx, waitVisible(target)), 'sign_in');

  const tap = JSON.parse(await copy(page, 'Copy tap step')) as Record<string, unknown>;
  const assertion = JSON.parse(await copy(page, 'Copy assertion')) as Record<string, unknown>;
  const attributes = JSON.parse(await copy(page, 'Copy attributes')) as { id: string };
  assert.is(attributes.id, 'sign_in');
  const scenario = {
    $schema_version: '2.2', scenario_id: 'copied', name: 'Copied', description: 'steps copied from the inspector', platform: 'android',
    app_package: 'com.mobilebridge.demo', metadata: { app_version: '1.4.2', environment: 'development' }, steps: [tap], assertions: [assertion],
  };
  assert.equal(validateScenarioValue(scenario, 'copied.json').errors, [], 'the copied step and assertion validate');

  // Another element with a longer description: still the same pane size, the list still in place.
  await page.click('#element-list li[data-id="password"]');
  await page.waitForSelector('#element-details .verdict-badge.ok');
  const typeStep = JSON.parse(await copy(page, 'Copy type step')) as { action: string; target: string; value: string };
  assert.is(typeStep.action, 'type');
  assert.is(typeStep.value, '${PASSWORD}', 'a password is never copied into a step');
  assert.is(await resolvedBy(ctx, waitVisible(typeStep.target)), 'password');
  assert.is(await listTop(page), top);
  assert.is((await page.locator('#element-details').boundingBox())!.height, detailsHeight);
  // The keyboard moves between rows; Space selects. A copied tap step taps exactly the element it was
  // copied from (Sign in stays disabled until the form is filled, so Forgot password? is the one tapped).
  await page.focus('#element-list li[data-id="sign_in"]');
  await page.keyboard.press('ArrowDown');
  assert.is(await page.evaluate(`document.activeElement.dataset.id`), 'forgot_password');
  await page.keyboard.press(' ');
  await page.waitForSelector('#element-details .verdict-badge.ok');
  assert.is(await resolvedBy(ctx, JSON.parse(await copy(page, 'Copy tap step')) as Record<string, unknown>), 'forgot_password');
});

inspector('the tree view nests elements inside the ones that contain them', async (ctx) => {
  const page = ctx.page!;
  await ctx.bridge!.engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/signin' });
  await page.click('#btn-elements-tree');
  assert.is(await page.isHidden('#element-list'), true);
  // The form container holds the fields and buttons; the toolbar title is beside it, not in it.
  const field = page.locator('#element-tree li[role="treeitem"][data-id="n0.0.1.0"] li[role="treeitem"][data-id="email"]');
  await field.waitFor();
  assert.is(await field.getAttribute('aria-level'), '2');
  assert.is(await page.locator('#element-tree > li[data-id="toolbar_title"]').count(), 1, 'the title is a root');
  assert.is(await page.locator('#element-tree li[data-id="n0.0.1.0"] li[data-id="toolbar_title"]').count(), 0);
  // Collapsing hides the children; a click on a tree row inspects it like a list row.
  await page.click('#element-tree li[data-id="n0.0.1.0"] > .tree-row .twisty');
  await page.waitForSelector('#element-tree li[data-id="email"]', { state: 'detached' });
  await page.click('#element-tree li[data-id="n0.0.1.0"] > .tree-row .twisty');
  await page.click('#element-tree li[data-id="email"] > .tree-row');
  await page.waitForSelector('#element-details .verdict-badge.ok');
  assert.is(await page.textContent('#element-details .target-line code'), 'the Email field');
  await page.screenshot({ path: process.env.INSPECTOR_SCREENSHOT ?? '/dev/null' }).catch(() => undefined);
  // × clears the selection everywhere: the pane, the rows' marks.
  await page.click('#element-details .inspect-clear');
  await page.waitForSelector('#element-details .verdict-badge', { state: 'detached' });
  assert.is(await page.locator('.selected[data-id]').count(), 0);
  await page.click('#btn-elements-list');
});

inspector('Pick on screen: a click inspects the element under the pointer instead of tapping it', async (ctx) => {
  const page = ctx.page!;
  const engine = ctx.bridge!.engine;
  const elements = ((await engine.call('mobile_list_elements_on_screen', { device: DEVICE })) as { elements: { id: string; center: { x: number; y: number } }[] }).elements;
  const forgot = elements.find((e) => e.id === 'forgot_password')!;
  const size = (await engine.call('mobile_get_screen_size', { device: DEVICE })) as { width: number; height: number };
  const box = await screenBox(page);
  const at = deviceToCss(fitScreen({ width: box.width, height: box.height }, size), forgot.center);
  const tapsBefore = await page.locator('#activity-feed li', { hasText: 'tapped' }).count();

  await page.click('#btn-pick');
  assert.is(await page.getAttribute('#btn-pick', 'aria-pressed'), 'true');
  await page.mouse.click(box.x + at.x, box.y + at.y);
  await page.waitForSelector('#element-details .verdict-badge.ok');
  assert.is(await page.textContent('#element-details .target-line code'), 'the Forgot password? button');
  assert.ok(await page.$('#element-list li.selected[data-id="forgot_password"]'), 'the row is selected');
  // Nothing reached the device: a click becomes a tap after the 250 ms double-click wait, so give
  // it ample time to show in the activity feed had it been sent.
  await page.waitForTimeout(1000);
  assert.is(await page.locator('#activity-feed li', { hasText: 'tapped' }).count(), tapsBefore, 'no tap was sent');
  // Esc leaves pick mode; the screen takes taps again.
  await page.keyboard.press('Escape');
  assert.is(await page.getAttribute('#btn-pick', 'aria-pressed'), 'false');
  assert.is(await page.isHidden('#pick-layer'), true);
});

if (chromiumPath) inspector.run();
