import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { hasFfmpeg } from '../android/scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from '../android/setup.js';
import { systemTool } from '../support/system-tools.js';
import { launchChromium } from './support/browser.js';
import { pollPage } from './support/poll.js';
import { WEB_DIST } from './support/viewer-bridge.js';

/**
 * End to end: the emulated Android phone (emulated adbd behind the real adb server, running the
 * emulated scrcpy-server 3.3.1 that encodes its screen with ffmpeg) watched in the viewer in
 * headless Chromium, decoded with WebCodecs; the picture follows what happens on the phone.
 */

const chromiumPath = systemTool('chromium', 'the viewer end-to-end tests drive it');
const ready = Boolean(chromiumPath) && hasAdb() && hasFfmpeg();

interface Ctx {
  rig?: AndroidRig;
  bridge?: Bridge;
  browser?: Browser;
}

const test = suite<Ctx>('viewer: live scrcpy video of the emulated Android phone', {});

test.before(async (ctx) => {
  if (!ready) return;
  ctx.rig = await startRig();
  ctx.bridge = await startBridge({ engine: ctx.rig.engineWith({}), port: 0, webRoot: WEB_DIST, log: () => {} });
  ctx.browser = await launchChromium(chromiumPath!);
});

test.after(async (ctx) => {
  try {
    await ctx.browser?.close();
    await ctx.bridge?.close();
  } finally {
    // The bridge closed the engine it was given; the rig stops the adb server and the phone.
    await ctx.rig?.stop().catch(() => undefined);
  }
});

const SIGNATURE = `(() => {
  const c = document.getElementById('screen');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let sum = 0;
  for (let i = 0; i < d.length; i += 331) sum += d[i];
  return c.width + 'x' + c.height + ':' + sum;
})()`;

test('the viewer decodes the phone’s H.264 and the canvas follows the phone', async ({ rig, bridge, browser }) => {
  if (!rig || !bridge || !browser) return;
  const serial = rig.phone.serial;
  const call = (tool: string, parameters: Record<string, unknown>) => bridge.engine.call(tool, { device: serial, ...parameters });
  await call('mobile_open_url', { url: 'mbdemo://screen/home' });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(`http://127.0.0.1:${bridge.port}/?device=${encodeURIComponent(serial)}`);
  await page.waitForSelector('#source[data-source="scrcpy"][data-format="h264"]', { timeout: 20_000 });
  // 1080×2400 limited to 1200 px (multiples of 8): 544×1200, drawn by the video decoder.
  await pollPage(page, `(() => { const c = document.getElementById('screen'); return c.width === 544 && c.height === 1200; })()`, 'a 544×1200 picture', 20_000);
  const before = await page.evaluate<string>(SIGNATURE);
  await call('mobile_open_url', { url: 'mbdemo://screen/settings' });
  await pollPage(page, `${SIGNATURE} !== ${JSON.stringify(before)}`, 'the settings screen on the canvas');
  const middle = await page.evaluate<string>(SIGNATURE);
  await call('mobile_open_url', { url: 'mbdemo://screen/home' });
  await pollPage(page, `${SIGNATURE} !== ${JSON.stringify(middle)}`, 'the home screen again on the canvas');
  assert.is(bridge.hub.stats().video[serial]?.state, 'live');
  assert.equal(problems, []);
  await page.close();
});

test('a crash dialog over the app: the viewer shows the listing note above the elements, and hides it when the dialog goes', async ({ rig, bridge, browser }) => {
  if (!rig || !bridge || !browser) return;
  const serial = rig.phone.serial;
  await bridge.engine.call('mobile_open_url', { device: serial, url: 'mbdemo://screen/home' });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(`http://127.0.0.1:${bridge.port}/?device=${encodeURIComponent(serial)}`);
    await pollPage(page, `document.querySelectorAll('#element-list li').length > 0`, 'the element list', 20_000);
    assert.ok(await page.evaluate<boolean>(`document.getElementById('element-note').hidden`), 'no note while the app is in front');
    rig.phone.shell.quirks.appError = { kind: 'crash', label: 'MobileBridge Demo' };
    await pollPage(page, `(() => { const n = document.getElementById('element-note'); return !n.hidden && n.getBoundingClientRect().height > 0 && /keeps stopping/.test(n.textContent); })()`, 'the crash note shown', 20_000);
    rig.phone.shell.quirks.appError = undefined;
    await pollPage(page, `document.getElementById('element-note').hidden`, 'the note hidden again', 20_000);
  } finally {
    rig.phone.shell.quirks.appError = undefined;
    await page.close();
  }
});

test.run();
