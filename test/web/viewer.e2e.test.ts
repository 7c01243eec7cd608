import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { envelope, validateScenarioText } from '../../src/validate/index.js';
import { deviceToCss, fitScreen, type Point } from '../../web/src/geometry.js';
import { systemTool } from '../support/system-tools.js';
import { screenBox } from './support/screen-box.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/**
 * The viewer end to end: real headless Chromium against an in-process bridge with the virtual
 * devices. The tests run in order on one device and build on each other's screen state.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
  page?: Page;
}

const viewer = suite<Ctx>('viewer in Chromium', { url: '' });

withViewerAndChromium(viewer, chromiumPath);


const cspViolations: string[] = [];

async function assertEventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function openViewer(ctx: Ctx): Promise<Page> {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  // Issue 16: the viewer must work under its strict CSP; a refused script, style, image or socket shows here.
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
  });
  await page.goto(ctx.url);
  await page.waitForSelector('#connection[data-state="open"]');
  // The viewer opens the first ready device by itself.
  await page.waitForSelector(`#device-list button[data-id="${DEVICE}"][aria-pressed="true"]`);
  assert.equal(problems, [], 'no script errors');
  return page;
}

async function elements(ctx: Ctx): Promise<UiElement[]> {
  const result = (await ctx.bridge!.engine.call('mobile_list_elements_on_screen', { device: DEVICE })) as { elements: UiElement[] };
  return result.elements;
}

async function find(ctx: Ctx, pick: (e: UiElement) => boolean, what: string): Promise<UiElement> {
  const found = (await elements(ctx)).find(pick);
  if (!found) throw new Error(`no element ${what} on ${DEVICE}: ${JSON.stringify((await elements(ctx)).map((e) => e.text || e.id))}`);
  return found;
}

/** Where an element's centre is drawn in the page, computed independently of the viewer's own code path. */
async function drawnCentre(ctx: Ctx, page: Page, e: UiElement): Promise<Point> {
  const size = (await ctx.bridge!.engine.call('mobile_get_screen_size', { device: DEVICE })) as { width: number; height: number };
  const box = await screenBox(page);
  const p = deviceToCss(fitScreen({ width: box.width, height: box.height }, size), e.center);
  return { x: box.x + p.x, y: box.y + p.y };
}

// Browser-side code is passed as text: the test project compiles without the DOM library.
const SIGNATURE_SCRIPT = `(() => {
  const canvas = document.getElementById('screen');
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const sums = [0, 0, 0];
  for (let i = 0; i < data.length; i += 4 * 97) { sums[0] += data[i]; sums[1] += data[i + 1]; sums[2] += data[i + 2]; }
  return canvas.width + 'x' + canvas.height + ':' + sums.join(',');
})()`;

/** A cheap signature of what the canvas shows: sampled pixels summed per channel. */
function canvasSignature(page: Page): Promise<string> {
  return page.evaluate(SIGNATURE_SCRIPT) as Promise<string>;
}

async function waitForSignatureOtherThan(page: Page, previous: string): Promise<string> {
  for (;;) {
    const now = await canvasSignature(page);
    if (now !== previous) return now;
    await page.waitForTimeout(50);
  }
}

function activityTexts(page: Page): Promise<string[]> {
  return page.locator('#activity-feed li').allTextContents();
}

function waitForActivity(page: Page, text: string): Promise<void> {
  return page.locator('#activity-feed li', { hasText: text }).first().waitFor({ state: 'attached' });
}

viewer('the page loads, connects, lists both virtual devices and opens the first', async (ctx) => {
  ctx.page = await openViewer(ctx);
  const ids = await Promise.all((await ctx.page.locator('#device-list button').all()).map((b) => b.getAttribute('data-id')));
  assert.equal(ids, ['virtual-android-1', 'virtual-ios-1']);
  assert.is(await ctx.page.textContent('#connection'), 'Connected');
});

viewer('the virtual device’s frames paint on the canvas', async (ctx) => {
  const page = ctx.page!;
  // An unpainted canvas is 300×150 and black (opaque context).
  const blank = await canvasSignature(page);
  const painted = await waitForSignatureOtherThan(page, blank);
  assert.ok(!painted.endsWith(':0,0,0'), `the canvas shows something: ${painted}`);
  // The element list fills from elements.changed.
  await page.waitForSelector('#element-list li');
});

viewer('a click on an element’s drawn centre taps that element', async (ctx) => {
  const page = ctx.page!;
  const icon = await find(ctx, (e) => e.text === 'MobileBridge Demo', 'labelled "MobileBridge Demo" (launcher)');
  const before = await canvasSignature(page);
  const at = await drawnCentre(ctx, page, icon);
  await page.mouse.click(at.x, at.y);
  // The demo app opens: its sign-in form appears in the side panel and on the canvas.
  await page.waitForSelector('#element-list li[data-id="email"]');
  await waitForSignatureOtherThan(page, before);
  const feed = await activityTexts(page);
  assert.ok(feed.some((t) => t.includes(`at (${icon.center.x}, ${icon.center.y})`)), `the tap hit the exact centre: ${feed.join(' | ')}`);
  await page.locator('#rtt', { hasText: 'ms' }).waitFor();
});

viewer('typing on the focused screen reaches the focused field; Enter is sent as ENTER', async (ctx) => {
  const page = ctx.page!;
  const email = await find(ctx, (e) => e.id === 'email', 'email');
  const at = await drawnCentre(ctx, page, email);
  await page.mouse.click(at.x, at.y);
  await waitForActivity(page, `at (${email.center.x}, ${email.center.y})`);
  await page.keyboard.type('ada@example.com');
  await page.waitForSelector('#element-list li[data-id="email"] .label:text-is("ada@example.com")');
  assert.is((await find(ctx, (e) => e.id === 'email', 'email')).text, 'ada@example.com');
  await page.keyboard.press('Enter');
  await waitForActivity(page, 'pressed ENTER');
});

viewer('hovering outlines the element under the pointer and shows its fields', async (ctx) => {
  const page = ctx.page!;
  const button = await find(ctx, (e) => e.id === 'sign_in', 'sign_in');
  const at = await drawnCentre(ctx, page, button);
  await page.mouse.move(at.x, at.y);
  await page.waitForSelector('#outline:not([hidden])');
  assert.match((await page.textContent('#outline-label')) ?? '', 'Sign in');
  assert.match((await page.textContent('#element-details')) ?? '', 'sign_in');
  assert.ok(await page.$('#element-list li.hovered[data-id="sign_in"]'), 'the list row is highlighted');
  await page.mouse.move(1, 1);
  await page.waitForSelector('#outline', { state: 'hidden' });
});

viewer('two pages on one device both show the activity, each marked by who did it', async (ctx) => {
  const first = ctx.page!;
  const second = await openViewer(ctx);
  await second.waitForSelector('#element-list li');
  await first.click('#btn-home');
  for (const page of [first, second]) await waitForActivity(page, 'pressed HOME');
  const mine = await first.locator('#activity-feed li', { hasText: 'pressed HOME' }).first().getAttribute('class');
  const theirs = await second.locator('#activity-feed li', { hasText: 'pressed HOME' }).first().getAttribute('class');
  assert.match(mine ?? '', 'mine', 'the actor sees it as theirs');
  assert.not.match(theirs ?? '', 'mine', 'the other page sees it as someone else’s');
  assert.is(await second.isVisible('#activity-unread'), true, 'unread badge on the hidden Activity tab');
  // A drag on the second page is streamed to the device, and the first page sees it as one entry.
  const r = await screenBox(second);
  await second.mouse.move(r.x + r.width / 2, r.y + r.height * 0.8);
  await second.mouse.down();
  await second.mouse.move(r.x + r.width / 2, r.y + r.height * 0.5, { steps: 5 });
  await second.mouse.move(r.x + r.width / 2, r.y + r.height * 0.3, { steps: 5 });
  await second.mouse.up();
  await waitForActivity(first, 'dragged up');
  await second.close();
});

viewer('after rotation a click on an element’s drawn centre still taps it', async (ctx) => {
  const page = ctx.page!;
  await page.click('#btn-rotate');
  // A polled locator, not a string predicate: the viewer's CSP (rightly) forbids eval in the page.
  await assertEventually(async () => {
    const box = await page.locator('#screen').boundingBox();
    return box !== null && box.width > box.height;
  }, 'the screen turns landscape');
  const settings = await find(ctx, (e) => e.text === 'Settings', 'labelled "Settings" (launcher, landscape)');
  const at = await drawnCentre(ctx, page, settings);
  await page.mouse.click(at.x, at.y);
  await waitForActivity(page, `at (${settings.center.x}, ${settings.center.y})`);
  const app = (await ctx.bridge!.engine.call('mobile_get_foreground_app', { device: DEVICE })) as { package: string };
  assert.match(app.package, /settings/i, 'Settings opened');
  await ctx.bridge!.engine.call('mobile_set_orientation', { device: DEVICE, orientation: 'portrait' });
});

viewer('the validator panel shows each error with its line and column', async (ctx) => {
  const page = ctx.page!;
  const text = '{\n  "$schema_version": "2.1",\n  "scenario_id": "login",\n  "steps": [\n    {"id": "s1", "action": "tapp", "target": "Sign in"}\n  ]\n}\n';
  const expected = envelope(validateScenarioText(text, 'pasted.json'));
  const errors = (expected.data as { errors: { line: number; column: number }[] }).errors;
  assert.ok(errors.some((e) => e.line === 5), 'the fixture has an error on line 5 (the unknown action)');
  await page.click('#tab-validate');
  await page.fill('#scenario-text', text);
  await page.click('#validate-form button[type="submit"]');
  await page.waitForSelector('#validate-result .verdict.bad');
  const shown = await page.locator('#validate-result .issues li.error .where button').allTextContents();
  assert.equal(shown.sort(), errors.map((e) => `line ${e.line}, column ${e.column}`).sort());
  // Clicking a position puts the cursor there.
  const line5 = errors.find((e) => e.line === 5)!;
  await page.click(`#validate-result .where button:text-is("line 5, column ${line5.column}")`);
  const caret = await page.evaluate(`document.getElementById('scenario-text').selectionStart`);
  assert.is(caret, text.split('\n').slice(0, 4).join('\n').length + 1 + line5.column - 1);
});

viewer('everything above ran under the strict CSP without a single violation', async (ctx) => {
  const res = await fetch(ctx.url);
  await res.arrayBuffer();
  assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  assert.is(res.headers.get('x-frame-options'), 'DENY');
  assert.equal(cspViolations, []);
});

if (chromiumPath) viewer.run();
