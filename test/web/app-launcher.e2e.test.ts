import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import type { CallEvent } from '../../src/engine/engine.js';
import { writeApk } from '../harness/apk-builder.js';
import { systemTool } from '../support/system-tools.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';
import { eventually } from './support/poll.js';

/**
 * Launch app… from the keyboard, in Chromium: the arrow keys fire `change` on a closed menu there,
 * which must only move the choice; Enter launches it. A click on an app still launches at once.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the app launcher end-to-end test drives it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

const launcher = suite<Ctx>('Launch app… in Chromium', { url: '' });
withViewerAndChromium(launcher, chromiumPath);

launcher('the arrow keys choose an app and Enter launches that one; a pick in the menu launches at once', async (ctx) => {
  if (!chromiumPath) return;
  const launches: CallEvent[] = [];
  const off = ctx.bridge!.engine.onCall((e) => {
    if (e.device === DEVICE && e.tool === 'mobile_launch_app') launches.push(e);
  });
  const page: Page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`${ctx.url}${ctx.url.includes('?') ? '&' : '?'}device=${DEVICE}`);
    await page.waitForSelector(`#device-list button[data-id="${DEVICE}"][aria-pressed="true"]`);
    await page.focus('#app-launch');
    await eventually(async () => (await page.locator('#app-launch option').count()) > 3, 'the apps are listed');
    const apps = (await page.$$eval('#app-launch option', (options) => options.map((o) => o.getAttribute('value') ?? ''))).slice(1);

    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.is(await page.inputValue('#app-launch'), apps[1], 'two ↓ choose the second app');
    await page.keyboard.press('Enter');
    // Generous bounds: on a loaded 2-core CI machine a launch waits behind the frames and listings of the page.
    await eventually(() => launches.length > 0, 'Enter launched an app', 30_000);
    assert.equal(launches.map((l) => l.parameters.packageName), [apps[1]], 'only the app chosen, only once');
    assert.is(await page.inputValue('#app-launch'), '', 'the menu shows its prompt again');

    await page.selectOption('#app-launch', apps[2]);
    await eventually(() => launches.length > 1, 'the app picked in the menu launched', 30_000);
    assert.equal(launches.map((l) => l.parameters.packageName), [apps[1], apps[2]]);
  } finally {
    off();
    await page.close();
  }
});

launcher('an app installed while the device is shown is in the menu the next time it opens', async (ctx) => {
  if (!chromiumPath) return;
  const dir = mkdtempSync(join(tmpdir(), 'mb-launcher-'));
  const page: Page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  const listings: CallEvent[] = [];
  const off = ctx.bridge!.engine.onCall((e) => {
    if (e.device === DEVICE && e.tool === 'mobile_list_apps') listings.push(e);
  });
  const names = () => page.$$eval('#app-launch option', (options) => options.map((o) => o.textContent ?? ''));
  try {
    await page.goto(`${ctx.url}${ctx.url.includes('?') ? '&' : '?'}device=${DEVICE}`);
    await page.waitForSelector(`#device-list button[data-id="${DEVICE}"][aria-pressed="true"]`);
    await page.click('#app-launch');
    await eventually(async () => (await page.locator('#app-launch option').count()) > 3, 'the apps are listed');
    await page.keyboard.press('Escape');
    const before = await names();
    assert.not.ok(before.includes('Field Notes'));

    const apk = writeApk(dir, { package: 'com.example.fieldnotes', label: 'Field Notes' });
    await ctx.bridge!.engine.call('mobile_install_app', { device: DEVICE, path: apk });
    await page.focus('#btn-record');
    const asked = listings.length;
    await page.click('#app-launch');
    await page.locator('#app-launch option', { hasText: 'Field Notes' }).waitFor({ state: 'attached' });
    assert.is(listings.length, asked + 1, 'listed once for this opening (its focus and its click)');
    await page.keyboard.press('Escape');
  } finally {
    off();
    await page.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

if (chromiumPath) launcher.run();
