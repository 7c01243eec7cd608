import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { launchChromium } from './support/browser.js';
import { pollPage } from './support/poll.js';
import { startViewerBridge } from './support/viewer-bridge.js';

/**
 * After a bridge restart the page's own recording, which its earlier session left open, is offered as
 * the user's own interrupted work, not as "another viewer went away without stopping it".
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  browser?: Browser;
  dir: string;
}

const restart = suite<Ctx>('a recording across a bridge restart in Chromium', { dir: '' });

restart.before(async (ctx) => {
  if (!chromiumPath) return;
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-recording-restart-'));
  ctx.browser = await launchChromium(chromiumPath);
});

restart.after(async (ctx) => {
  try {
    await ctx.browser?.close();
  } finally {
    await ctx.bridge?.close();
    if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
  }
});

restart('the page recognises the recording its earlier session left open as its own', async (ctx) => {
  const first = await startViewerBridge({ recordingsDir: ctx.dir });
  ctx.bridge = first.bridge;
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`${first.url}?device=${DEVICE}`);
    await page.locator('#connection[data-state="open"]').waitFor();
    await page.locator('#element-list li').first().waitFor();
    await page.click('#btn-record');
    await page.fill('#record-name', 'Across restart');
    await page.click('#record-go');
    await page.waitForSelector('#record-status:not([hidden])');
    await page.click('#btn-home');
    await pollPage(page, `document.getElementById('record-steps').textContent === '1'`, 'one recorded step');

    await ctx.bridge.close();
    ctx.bridge = undefined;
    ctx.bridge = (await startViewerBridge({ recordingsDir: ctx.dir, port: first.bridge.port })).bridge;

    const offered = page.locator('#record-left:not([hidden])');
    await offered.waitFor({ timeout: 20_000 });
    const text = (await page.textContent('#record-left-text')) ?? '';
    assert.ok(text.startsWith('Your recording ("Across restart", 1 step, started '), text);
    assert.not.match(text, 'that viewer');
    assert.ok(await page.isVisible('#record-left-continue'), 'Continue it is offered');
  } finally {
    await page.close();
  }
});

if (chromiumPath) restart.run();
