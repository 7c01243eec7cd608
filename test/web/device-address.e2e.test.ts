import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { systemTool } from '../support/system-tools.js';
import { withViewerAndChromium, type ViewerSuiteContext } from './support/viewer-bridge.js';

/** The address follows the device shown, so a reload or a shared link shows that phone again. */

const chromiumPath = systemTool('chromium', 'the device address end-to-end test drives it');

const address = suite<ViewerSuiteContext>('the viewer address names the device shown', { url: '' });
withViewerAndChromium(address, chromiumPath);

const chosen = (id: string) => `#device-list button[data-id="${id}"][aria-pressed="true"]`;

address('choosing a device puts it in the address; a reload opens it again', async (ctx) => {
  if (!chromiumPath) return;
  const page: Page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(ctx.url);
    await page.waitForSelector(chosen('virtual-android-1'));
    await page.click('#device-list button[data-id="virtual-ios-1"]');
    await page.waitForSelector(chosen('virtual-ios-1'));
    assert.is(new URL(page.url()).searchParams.get('device'), 'virtual-ios-1');
    await page.reload();
    await page.waitForSelector(chosen('virtual-ios-1'));
    assert.is(new URL(page.url()).searchParams.get('device'), 'virtual-ios-1');
  } finally {
    await page.close();
  }
});

address('an address naming a device the bridge does not list says so', async (ctx) => {
  if (!chromiumPath) return;
  const page: Page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`${ctx.url}?device=virtual-ios-9`);
    await page.waitForSelector(chosen('virtual-android-1'));
    await page.locator('#toast', { hasText: 'virtual-ios-9' }).waitFor();
    assert.match((await page.textContent('#toast')) ?? '', 'showing virtual-android-1 instead');
    assert.is(new URL(page.url()).searchParams.get('device'), 'virtual-android-1', 'the address names what is shown');
  } finally {
    await page.close();
  }
});

address.run();
