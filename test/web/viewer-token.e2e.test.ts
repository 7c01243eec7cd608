import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { launchChromium } from './support/browser.js';
import { startViewerBridge } from './support/viewer-bridge.js';

/** SPEC §7 from the browser's side: a bridge with a token works from the URL it prints (`?token=`). */

const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');
const TOKEN = 'viewer-test-token';

const withToken = suite<{ bridge?: Bridge; url: string; browser?: Browser }>('viewer with a token', { url: '' });

withToken.before(async (ctx) => {
  const started = await startViewerBridge({ token: TOKEN });
  ctx.bridge = started.bridge;
  ctx.url = started.url;
  ctx.browser = await launchChromium(chromiumPath!);
});

withToken.after(async (ctx) => {
  try {
    await ctx.browser?.close();
  } finally {
    await ctx.bridge?.close();
  }
});

withToken('the page opened with ?token= loads, connects and shows the screen', async (ctx) => {
  assert.match(ctx.url, `?token=${TOKEN}`);
  const page = await ctx.browser!.newPage();
  await page.goto(ctx.url);
  await page.locator('#connection[data-state="open"]').waitFor();
  await page.locator('#device-list button[aria-pressed="true"]').waitFor();
  await page.locator('#element-list li').first().waitFor();
});

withToken('without the token the bridge refuses the page and says how to get in', async (ctx) => {
  const page = await ctx.browser!.newPage();
  const response = await page.goto(ctx.url.replace(/\?token=.*/, ''));
  assert.is(response?.status(), 401);
  assert.match((await page.textContent('body')) ?? '', 'token');
});

if (chromiumPath) withToken.run();
