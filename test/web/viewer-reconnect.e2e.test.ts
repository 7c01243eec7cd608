import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { launchChromium } from './support/browser.js';
import { startViewerBridge } from './support/viewer-bridge.js';

/** The viewer reconnects by itself: the bridge restarts on the same port and the page carries on. */

const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');

// A suite of its own: tests on uvu's shared `test` that never run here would run with the next file's.
const reconnect = suite('the viewer after a bridge restart');

reconnect('after the bridge restarts the page reconnects, watches the device again and can act', async () => {
  let bridge: Bridge | undefined;
  const browser = await launchChromium(chromiumPath!);
  try {
    const first = await startViewerBridge();
    bridge = first.bridge;
    const port = bridge.port;
    const page = await browser.newPage();
    await page.goto(first.url);
    await page.locator('#connection[data-state="open"]').waitFor();
    await page.locator('#element-list li').first().waitFor();

    await bridge.close();
    bridge = undefined;
    await page.locator('#connection[data-state="reconnecting"]').waitFor();

    bridge = (await startViewerBridge({ port })).bridge;
    await page.locator('#connection[data-state="open"]').waitFor();
    // The old session died with the old bridge: the client subscribed afresh, the viewer followed.
    await page.click('#btn-home');
    await page.locator('#activity-feed li', { hasText: 'pressed HOME' }).first().waitFor({ state: 'attached' });
    await page.locator('#element-list li').first().waitFor();
  } finally {
    await browser.close();
    await bridge?.close();
  }
});

reconnect('after a bridge restart the activity feed starts over: the new bridge\'s entries never overwrite the old ones', async () => {
  let bridge: Bridge | undefined;
  const browser = await launchChromium(chromiumPath!);
  try {
    const first = await startViewerBridge();
    bridge = first.bridge;
    const port = bridge.port;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(first.url);
    await page.locator('#connection[data-state="open"]').waitFor();
    await page.locator('#element-list li').first().waitFor();
    for (let n = 1; n <= 3; n++) {
      await page.click('#btn-home');
      await page.locator('#activity-feed li').nth(n - 1).waitFor({ state: 'attached' });
    }

    const oldSession = await page.textContent('#session-label');
    await bridge.close();
    bridge = undefined;
    await page.locator('#connection[data-state="reconnecting"]').waitFor();
    bridge = (await startViewerBridge({ port })).bridge;
    // The page learnt of its new session (the label changes in the same event the feed handles).
    await page.locator('#session-label', { hasNotText: oldSession ?? '' }).waitFor();
    // The new bridge's first entry has the number the old bridge's first one had.
    await page.click('#btn-back');
    await page.locator('#activity-feed li', { hasText: 'pressed BACK' }).waitFor({ state: 'attached' });
    const feed = await page.locator('#activity-feed li .what').allTextContents();
    assert.equal(feed, ['pressed BACK'], 'only what the new bridge did, once');
  } finally {
    await browser.close();
    await bridge?.close();
  }
});

if (chromiumPath) reconnect.run();
