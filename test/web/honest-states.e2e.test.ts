import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deadPort } from '../support/dead-port.js';
import { FLAKY_REASON, flakySet } from '../support/flaky-source.js';
import type { Browser } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { launchChromium } from './support/browser.js';
import { startViewerBridge } from './support/viewer-bridge.js';

/**
 * Issue 17 item 5 in Chromium: the viewer never pretends. A stopped bridge greys the screen out
 * under a banner within 2 s and input is refused with a message; a missing or wrong token gets a
 * page that says which, at `/` and in the viewer's own connection.
 */

const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');
const states = suite<{ browser?: Browser; bridges: Bridge[] }>('honest states in Chromium', { bridges: [] });

states.before(async (ctx) => {
  ctx.browser = await launchChromium(chromiumPath!);
});

states.after.each(async (ctx) => {
  for (const b of ctx.bridges.splice(0)) await b.close();
});

states.after(async (ctx) => {
  await ctx.browser?.close();
});

states('the screen greys out under a "reconnecting" banner within 2 s of the bridge stopping; input is refused visibly', async (ctx) => {
  const { bridge, url } = await startViewerBridge();
  ctx.bridges.push(bridge);
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  await page.locator('#connection[data-state="open"]').waitFor();
  await page.locator('#element-list li').first().waitFor();
  assert.is(await page.isVisible('#offline-banner'), false);

  const closing = bridge.close();
  ctx.bridges.splice(ctx.bridges.indexOf(bridge), 1);
  await page.locator('#offline-banner:not([hidden])').waitFor({ timeout: 2000 });
  await closing;
  assert.match((await page.textContent('#offline-banner')) ?? '', 'reconnecting');
  assert.ok(await page.locator('#screen-wrap.offline').count(), 'the screen is greyed out');
  const filter = await page.evaluate(`getComputedStyle(document.getElementById('screen')).filter`);
  assert.match(String(filter), 'grayscale');

  await page.click('#btn-home');
  await page.locator('#toast', { hasText: 'Not sent: the bridge is unreachable' }).waitFor();
  await page.locator('#screen').focus();
  await page.keyboard.type('x');
  await page.locator('#toast', { hasText: 'Not sent' }).waitFor();
  await page.close();
});

states('a missing or wrong token at / gets an HTML page that says which; API clients still get JSON', async (ctx) => {
  const { bridge, url } = await startViewerBridge({ token: 'right-token' });
  ctx.bridges.push(bridge);
  const bare = url.replace(/\?token=.*/, '');
  const page = await ctx.browser!.newPage();
  const missing = await page.goto(bare);
  assert.is(missing?.status(), 401);
  assert.match(missing?.headers()['content-type'] ?? '', 'text/html');
  assert.is(await page.getAttribute('body', 'data-problem'), 'token_missing');
  assert.is(await page.textContent('h1'), 'This bridge needs a token');
  assert.match((await page.textContent('body')) ?? '', '?token=');

  const wrong = await page.goto(`${bare}?token=not-it`);
  assert.is(wrong?.status(), 401);
  assert.is(await page.textContent('h1'), 'The token in this address is wrong');

  const api = await fetch(`${bare}api/health`);
  assert.is(api.status, 401);
  const body = (await api.json()) as { error: { kind: string; reason: string } };
  assert.equal([body.error.kind, body.error.reason], ['unauthorized', 'token_missing']);
  await page.close();
});

states('a bridge restarted with another token: the open viewer shows the wrong-token page instead of retrying forever in silence', async (ctx) => {
  const first = await startViewerBridge({ token: 'first-token' });
  ctx.bridges.push(first.bridge);
  const port = first.bridge.port;
  const page = await ctx.browser!.newPage();
  await page.goto(first.url);
  await page.locator('#connection[data-state="open"]').waitFor();
  await first.bridge.close();
  ctx.bridges.splice(0);
  ctx.bridges.push((await startViewerBridge({ token: 'second-token', port })).bridge);
  await page.locator('#access-problem[data-problem="token_wrong"]').waitFor({ timeout: 15_000 });
  assert.is(await page.textContent('#access-title'), 'The token in this address is wrong');
  // Entering the right token opens the viewer with it.
  await page.fill('#access-token', 'second-token');
  await page.click('#access-problem button[type="submit"]');
  await page.locator('#connection[data-state="open"]').waitFor();
  assert.match(page.url(), 'token=second-token');
  assert.is(await page.locator('#access-problem').count(), 0);
  await page.close();
});

states('the viewer’s first connection refused for its token: the page says so instead of the viewer', async (ctx) => {
  const first = await startViewerBridge({ token: 'first-token' });
  ctx.bridges.push(first.bridge);
  const port = first.bridge.port;
  const page = await ctx.browser!.newPage();
  // Hold the page's first WebSocket until the bridge has been restarted with another token.
  let letThrough!: () => void;
  const gate = new Promise<void>((resolve) => (letThrough = resolve));
  await page.routeWebSocket(/\/ws/, async (ws) => {
    await gate;
    ws.connectToServer();
  });
  await page.goto(first.url);
  await page.locator('#connection[data-state="connecting"]').waitFor();
  await first.bridge.close();
  ctx.bridges.splice(0);
  ctx.bridges.push((await startViewerBridge({ token: 'second-token', port })).bridge);
  letThrough();
  await page.locator('#access-problem[data-problem="token_wrong"]').waitFor({ timeout: 15_000 });
  assert.is(await page.textContent('#access-title'), 'The token in this address is wrong');
  await page.close();
});

states('a device source that does not answer is named under the device list, so a missing phone is explained', async (ctx) => {
  const dead = await deadPort();
  const { bridge, url } = await startViewerBridge({ setup: { sources: { adb: [{ name: 'lab', host: '127.0.0.1', port: dead, startServer: false }], wda: [] } } });
  ctx.bridges.push(bridge);
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(url);
  await page.locator('#device-list li').first().waitFor();
  const note = page.locator('#device-notes li');
  await note.waitFor();
  assert.match((await note.textContent()) ?? '', `source lab: the adb server at 127.0.0.1:${dead}`);
  assert.match((await note.textContent()) ?? '', 'is not reachable (nothing listens there)');
  await page.close();

  // Every source answering: no notes.
  const healthy = await startViewerBridge();
  ctx.bridges.push(healthy.bridge);
  const other = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await other.goto(healthy.url);
  await other.locator('#device-list li').first().waitFor();
  assert.is(await other.isVisible('#device-notes'), false);
  await other.close();

  // A source without devices that starts answering changes no device: its note still goes, without a reload.
  const { flaky, set } = flakySet();
  const flaking = await startViewerBridge({ setup: { extraDrivers: [set] } });
  ctx.bridges.push(flaking.bridge);
  const third = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await third.goto(flaking.url);
  await third.locator('#device-notes li', { hasText: `source lab: ${FLAKY_REASON}` }).waitFor();
  flaky.up = true;
  await third.locator('#device-notes').waitFor({ state: 'hidden', timeout: 5000 });
  await third.close();
});

if (chromiumPath) states.run();
