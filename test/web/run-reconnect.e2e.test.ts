import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/**
 * A run goes on on the bridge when the page's connection drops briefly (the session resumes): the
 * run panel says so, keeps Run off (a second run would go beside it), follows the run's progress and
 * shows its verdict, never "did not complete, try again". Another viewer's badge says a scenario run
 * holds the device, and its Take control asks before cancelling that run.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

const reconnect = suite<Ctx>('a run across a dropped connection in Chromium', { url: '' });
withViewerAndChromium(reconnect, chromiumPath);

const SLOW = {
  $schema_version: '2.2',
  scenario_id: 'slow_run',
  name: 'Slow run',
  description: 'Launches, then waits for something that never shows',
  platform: 'android',
  app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1.0', environment: 'development' },
  steps: [
    { id: 'launch', action: 'launch_app', description: 'Start the app' },
    { id: 'wait_ghost', action: 'wait_for_element', description: 'Never appears', target: 'the Ghost button', wait_config: { type: 'element_visible', timeout_ms: 6000 } },
  ],
  assertions: [],
};

reconnect('after a brief drop the panel follows the run on and shows its verdict', async (ctx) => {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await page.goto(`${ctx.url}?device=${DEVICE}`);
    await page.locator('#connection[data-state="open"]').waitFor();
    await page.locator('#lock-badge:not([hidden])').waitFor();
    await page.click('#tab-validate');
    await page.fill('#scenario-text', JSON.stringify(SLOW, null, 2));
    await page.click('#btn-run');
    await page.locator('#run-result[data-run] .run-steps > li[data-step="launch"]').waitFor();

    // The run holds the device: its session's socket dies as on a network drop; the page resumes by itself.
    const holder = ctx.bridge!.locks.holder(DEVICE);
    assert.ok(holder?.connection, 'the run holds the device');
    holder!.connection!.terminate();
    await page.locator('#run-result .verdict.running', { hasText: /connection dropped|Reconnected: following/ }).waitFor();
    assert.ok(await page.isDisabled('#btn-run'), 'Run stays off while the run may go on');

    const verdict = page.locator('#run-result .verdict[data-status="failed"]');
    await verdict.waitFor({ timeout: 30_000 });
    assert.match((await verdict.textContent()) ?? '', /^failed — 2 steps/);
    const shown = (await page.textContent('#run-result')) ?? '';
    assert.not.match(shown, 'did not complete');
    assert.match(shown, 'this verdict is from its progress messages');
    assert.ok(await page.isEnabled('#btn-run'), 'Run is back once the run ended');
    assert.is(ctx.bridge!.sessions.get(holder!.id)?.connection !== undefined, true, 'the session was resumed, not replaced');
  } finally {
    await page.close();
  }
});

reconnect('another viewer sees that a run holds the device, and Take control asks before cancelling it', async (ctx) => {
  const open = async () => {
    const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${ctx.url}?device=${DEVICE}`);
    await page.locator('#connection[data-state="open"]').waitFor();
    await page.locator('#lock-badge:not([hidden])').waitFor();
    return page;
  };
  const alice = await open();
  const bob = await open();
  try {
    await alice.click('#tab-validate');
    await alice.fill('#scenario-text', JSON.stringify({ ...SLOW, steps: [SLOW.steps[0], { ...SLOW.steps[1], wait_config: { type: 'element_visible', timeout_ms: 60_000 } }] }, null, 2));
    await alice.click('#btn-run');
    await alice.locator('#run-result[data-run] .run-steps > li[data-step="launch"]').waitFor();
    await bob.locator('#lock-badge[data-state="held"][data-purpose="run"]').waitFor();
    assert.match((await bob.textContent('#lock-text')) ?? '', /^Running the scenario “Slow run” for viewer s-[0-9a-f]{4} since /);
    const runner = ctx.bridge!.locks.holder(DEVICE)!;

    let asked = new Promise<string>((resolve) => bob.once('dialog', (d) => (resolve(d.message()), void d.dismiss())));
    await bob.click('#btn-take-control');
    const unasked = bob.locator('#lock-badge[data-state="mine"]').waitFor().then(() => 'taken without asking', () => '');
    assert.match(await Promise.race([asked, unasked]), 'Taking control cancels that run');
    assert.is(ctx.bridge!.locks.holder(DEVICE), runner, 'No leaves the run alone');

    asked = new Promise<string>((resolve) => bob.once('dialog', (d) => (resolve(d.message()), void d.accept())));
    await bob.click('#btn-take-control');
    await asked;
    await bob.locator('#lock-badge[data-state="mine"]').waitFor();
    await alice.locator('#run-result .verdict[data-status="cancelled"]').waitFor({ timeout: 20_000 });
  } finally {
    await Promise.all([alice.close(), bob.close()]);
  }
});

if (chromiumPath) reconnect.run();
