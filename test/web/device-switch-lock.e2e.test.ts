import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { eventually } from './support/poll.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/**
 * Switching to another device lets go of the lock held on the one left (as closing a scrcpy window
 * frees the phone), and says so: held on, it blocked colleagues while the holder's page showed it nowhere.
 */

const ANDROID = 'virtual-android-1';
const IOS = 'virtual-ios-1';
const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

const switching = suite<Ctx>('a held device left for another in Chromium', { url: '' });
withViewerAndChromium(switching, chromiumPath);

switching('the lock of the device left is released, with a notice', async (ctx) => {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`${ctx.url}?device=${ANDROID}`);
    await page.locator('#connection[data-state="open"]').waitFor();
    await page.locator('#lock-badge:not([hidden])').waitFor();
    await page.click('#btn-take-control');
    await page.locator('#lock-badge[data-state="mine"]').waitFor();
    assert.ok(ctx.bridge!.locks.holder(ANDROID), 'the page holds the Android phone');

    await page.click(`#device-list button[data-id="${IOS}"]`);
    await page.locator('#toast', { hasText: `Released ${ANDROID}` }).waitFor();
    await eventually(() => ctx.bridge!.locks.holder(ANDROID) === undefined, 'the Android phone is free');
    assert.is(await page.getAttribute('#lock-badge', 'data-state'), 'free', 'the iPhone shown is not held');
  } finally {
    await page.close();
  }
});

if (chromiumPath) switching.run();
