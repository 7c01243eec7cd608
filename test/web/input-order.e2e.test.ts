import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import type { CallEvent } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { deviceToCss, fitScreen, type Point } from '../../web/src/geometry.js';
import { systemTool } from '../support/system-tools.js';
import { drawnAt, screenBox } from './support/screen-box.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';
import { eventually } from './support/poll.js';

/**
 * Taps and keys reach the device in the order they were made, in Chromium. A click is held back
 * for the double-click wait; keys typed meanwhile used to overtake it, so a password typed right
 * after clicking its field landed, in clear text, in the field that had the focus before.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the input order end-to-end test drives it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

const order = suite<Ctx>('taps and keys in order, in Chromium', { url: '' });
withViewerAndChromium(order, chromiumPath);

async function elements(ctx: Ctx): Promise<UiElement[]> {
  return ((await ctx.bridge!.engine.call('mobile_list_elements_on_screen', { device: DEVICE })) as { elements: UiElement[] }).elements;
}

/** The page point where device pixel `p` is drawn, computed apart from the viewer's code. */
const drawn = (ctx: Ctx, page: Page, p: Point): Promise<Point> => drawnAt(ctx.bridge!.engine, DEVICE, page, p);

order('keys typed right after a click go to the field clicked, not the one focused before', async (ctx) => {
  if (!chromiumPath) return;
  const engine = ctx.bridge!.engine;
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  const calls: CallEvent[] = [];
  const off = engine.onCall((e) => {
    if (e.device === DEVICE && (e.tool === 'mobile_click_on_screen_at_coordinates' || e.tool === 'mobile_type_keys')) calls.push(e);
  });
  try {
    await engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/signin' });
    await page.goto(`${ctx.url}${ctx.url.includes('?') ? '&' : '?'}device=${DEVICE}`);
    await page.waitForSelector('#connection[data-state="open"]');
    await page.waitForSelector('#screen:not([hidden])');
    const listed = await elements(ctx);
    const email = listed.find((e) => e.id === 'email')!;
    const password = listed.find((e) => e.id === 'password')!;
    const emailAt = await drawn(ctx, page, email.center);
    const passwordAt = await drawn(ctx, page, password.center);

    // No pause anywhere: each word is typed while its click still waits to be sure it is no double click.
    await page.mouse.click(emailAt.x, emailAt.y);
    await page.keyboard.type('first');
    await page.mouse.click(passwordAt.x, passwordAt.y);
    await page.keyboard.type('second');

    const typed = () => calls.filter((c) => c.tool === 'mobile_type_keys').map((c) => String(c.parameters.text)).join('');
    await eventually(() => typed().length === 'firstsecond'.length && calls.filter((c) => c.tool !== 'mobile_type_keys').length === 2, 'both clicks and every key reached the device');
    // What the device got, in order: each click, then the keys typed after it.
    const seen = calls.map((c) => (c.tool === 'mobile_type_keys' ? String(c.parameters.text) : `tap ${String(c.parameters.x)},${String(c.parameters.y)}`));
    const runs = seen.reduce<string[]>((out, s) => (s.startsWith('tap') || out.length === 0 || out[out.length - 1].startsWith('tap') ? [...out, s] : [...out.slice(0, -1), out[out.length - 1] + s]), []);
    assert.equal(runs, [`tap ${email.center.x},${email.center.y}`, 'first', `tap ${password.center.x},${password.center.y}`, 'second']);
    const after = await elements(ctx);
    assert.is(after.find((e) => e.id === 'email')?.text, 'first', 'the email field holds only what was typed into it');
    assert.is(after.find((e) => e.id === 'password')?.text, '••••••', 'the password went into the password field');
  } finally {
    off();
    await page.close();
  }
});

order('Type text…: what an input method composes (Japanese here) is typed whole on the device when Enter ends it, after the click before it', async (ctx) => {
  if (!chromiumPath) return;
  const engine = ctx.bridge!.engine;
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  const typedCalls: CallEvent[] = [];
  const off = engine.onCall((e) => {
    if (e.device === DEVICE && e.tool === 'mobile_type_keys') typedCalls.push(e);
  });
  try {
    await engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/signin' });
    await page.goto(`${ctx.url}${ctx.url.includes('?') ? '&' : '?'}device=${DEVICE}`);
    await page.waitForSelector('#connection[data-state="open"]');
    await page.waitForSelector('#screen:not([hidden])');
    const email = (await elements(ctx)).find((e) => e.id === 'email')!;
    const at = await drawn(ctx, page, email.center);
    await page.mouse.click(at.x, at.y);
    await page.focus('#type-text');
    // An IME composing: the browser's own composition events, as a Japanese input method sends them.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.imeSetComposition', { text: 'とうきょう', selectionStart: 5, selectionEnd: 5 });
    await cdp.send('Input.insertText', { text: '東京' });
    assert.equal(typedCalls, [], 'nothing is sent while composing');
    await page.keyboard.press('Enter');
    await eventually(async () => (await elements(ctx)).find((e) => e.id === 'email')?.text === '東京', 'the composed text reached the field clicked before');
    assert.equal(typedCalls.map((c) => c.parameters.text), ['東京'], 'sent once, whole');
    assert.is(await page.inputValue('#type-text'), '', 'the box is empty for the next text');
  } finally {
    off();
    await page.close();
  }
});

order('the virtual iPhone takes Tab (next field), as docs/viewer.md says; an arrow key is UNSUPPORTED there', async (ctx) => {
  if (!chromiumPath) return;
  const IOS = 'virtual-ios-1';
  const engine = ctx.bridge!.engine;
  const list = async () => ((await engine.call('mobile_list_elements_on_screen', { device: IOS })) as { elements: UiElement[] }).elements;
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await engine.call('mobile_open_url', { device: IOS, url: 'mbdemo://screen/signin' });
    const email = (await list()).find((e) => e.id === 'email')!;
    await page.goto(`${ctx.url}${ctx.url.includes('?') ? '&' : '?'}device=${IOS}`);
    await page.waitForSelector('#connection[data-state="open"]');
    const size = (await engine.call('mobile_get_screen_size', { device: IOS })) as { width: number; height: number };
    const box = await screenBox(page);
    const at = deviceToCss(fitScreen({ width: box.width, height: box.height }, size), email.center);
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page.keyboard.press('Tab');
    await eventually(async () => (await list()).find((e) => e.focused)?.id === 'password', 'Tab moved the focus to the password field');
    await page.keyboard.press('ArrowLeft');
    await page.locator('#toast', { hasText: 'UNSUPPORTED' }).waitFor();
  } finally {
    await page.close();
  }
});

order('Back (right click, Alt+B), Home and a wheel turn made right after a click reach the device after its tap', async (ctx) => {
  if (!chromiumPath) return;
  const engine = ctx.bridge!.engine;
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  const seen: string[] = [];
  const off = engine.onCall((e) => {
    if (e.device !== DEVICE) return;
    if (e.tool === 'mobile_click_on_screen_at_coordinates') seen.push('tap');
    else if (e.tool === 'mobile_press_button') seen.push(String(e.parameters.button));
    else if (e.tool === 'input.touch') seen.push('drag');
  });
  try {
    await engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/home' });
    await page.goto(`${ctx.url}${ctx.url.includes('?') ? '&' : '?'}device=${DEVICE}`);
    await page.waitForSelector('#connection[data-state="open"]');
    await page.waitForSelector('#screen:not([hidden])');
    const size = (await engine.call('mobile_get_screen_size', { device: DEVICE })) as { width: number; height: number };
    // The status bar: nothing there reacts to a tap, so every step starts from the same screen.
    const spot = await drawn(ctx, page, { x: Math.round(size.width / 2), y: 10 });
    const middle = await drawn(ctx, page, { x: Math.round(size.width / 2), y: Math.round(size.height / 2) });
    const steps: [string, () => Promise<void>][] = [
      ['BACK', () => page.mouse.click(middle.x, middle.y, { button: 'right' })],
      ['BACK', () => page.keyboard.press('Alt+KeyB')],
      ['HOME', () => page.click('#btn-home')],
      ['drag', async () => {
        await page.mouse.move(middle.x, middle.y);
        await page.mouse.wheel(0, 200);
      }],
    ];
    for (const [what, act] of steps) {
      seen.length = 0;
      // No pause: each follows its click while that click still waits to be sure it is no double click.
      await page.mouse.click(spot.x, spot.y);
      await act();
      await eventually(() => seen.length === 2, `the tap and ${what} reached the device`);
      assert.equal(seen, ['tap', what], `${what} after the tap made before it`);
    }
  } finally {
    off();
    await page.close();
  }
});

if (chromiumPath) order.run();
