import { suite } from 'uvu';
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

if (chromiumPath) reconnect.run();
