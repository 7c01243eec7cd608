import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { removingNewRunFolders } from './support/run-folders.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/**
 * The studio's error texts say what is wrong and what to do: no "check the connection" for a message
 * refused for its size, the page's own Take control advice for a run refused by another viewer's
 * lock, and a blank recording name is named as the problem.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

const messages = suite<Ctx>('studio error texts in Chromium', { url: '' });
withViewerAndChromium(messages, chromiumPath);

async function open(ctx: Ctx): Promise<Page> {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${ctx.url}?device=${DEVICE}`);
  await page.locator('#connection[data-state="open"]').waitFor();
  await page.locator('#lock-badge:not([hidden])').waitFor();
  return page;
}

const SCENARIO = {
  $schema_version: '2.2',
  scenario_id: 'press_home',
  name: 'Press home',
  description: 'One key',
  platform: 'android',
  app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1.0', environment: 'development' },
  steps: [{ id: 'home', action: 'press_button', description: 'Home', value: 'HOME' }],
  assertions: [],
};

messages('a scenario over the message limit is refused without blaming the connection', async (ctx) => {
  const page = await open(ctx);
  try {
    await page.click('#tab-validate');
    const big = JSON.stringify({ ...SCENARIO, description: 'x'.repeat(1_200_000) });
    await page.locator('#scenario-text').fill(big);
    await page.click('#validate-form button[type="submit"]');
    const validated = page.locator('#validate-result .verdict', { hasText: 'Could not validate' });
    await validated.waitFor();
    assert.match((await validated.textContent()) ?? '', 'over the bridge');
    assert.not.match((await validated.textContent()) ?? '', 'connection');
    await page.click('#btn-run');
    const run = page.locator('#run-result .verdict', { hasText: 'did not complete' });
    await run.waitFor();
    assert.not.match((await run.textContent()) ?? '', 'connection');
  } finally {
    await page.close();
  }
});

messages('a run refused by another viewer’s lock says who holds the device and to press Take control', async (ctx) => {
  const alice = await open(ctx);
  const bob = await open(ctx);
  try {
    await bob.click('#btn-take-control');
    await alice.locator('#lock-badge[data-state="held"]').waitFor();
    await alice.click('#tab-validate');
    await alice.locator('#scenario-text').fill(JSON.stringify(SCENARIO, null, 2));
    const verdict = alice.locator('#run-result .verdict', { hasText: 'Not run' });
    await removingNewRunFolders(async () => {
      await alice.click('#btn-run');
      await verdict.waitFor();
    });
    const said = (await verdict.textContent()) ?? '';
    assert.match(said, /^Not run: Refused: viewer s-[0-9a-f]{4} holds this device since [0-9:]{8}\. Press Take control to act on it \(they are told\)\. PERMISSION_DENIED: /, said);
  } finally {
    await Promise.all([alice.close(), bob.close()]);
  }
});

messages('a run refused for a flow file the bridge cannot read lists that error, not the folder-less check that called it valid', async (ctx) => {
  const page = await open(ctx);
  try {
    await page.click('#tab-validate');
    const withFlow = { ...SCENARIO, steps: [...SCENARIO.steps, { id: 'sign_in', flow: 'flows/no-such-sign-in.json', description: 'Sign in' }] };
    await page.locator('#scenario-text').fill(JSON.stringify(withFlow, null, 2));
    await page.click('#validate-form button[type="submit"]');
    // Without its folder the flow can only be a warning: the text is valid here.
    await page.locator('#validate-result .verdict.ok').waitFor();
    const verdict = page.locator('#run-result .verdict', { hasText: 'Not run' });
    await removingNewRunFolders(async () => {
      await page.click('#btn-run');
      await verdict.waitFor();
    });
    assert.match((await verdict.textContent()) ?? '', /relative to the folder it was started in/);
    // "The list is above" holds: the run's own error, where it is in the text.
    await page.locator('#validate-result .verdict.bad').waitFor();
    const listed = (await page.textContent('#validate-result')) ?? '';
    assert.match(listed, /line \d+, column \d+ flow-missing at \/steps\/1\/flow/);
    assert.match(listed, 'flow "flows/no-such-sign-in.json" does not exist');
    assert.not.match(listed, 'flow-not-checked');
  } finally {
    await page.close();
  }
});

messages('a waiting assertion shows that it waits, and how long, until its result replaces it', async (ctx) => {
  const page = await open(ctx);
  try {
    await page.click('#tab-validate');
    const waiting = { ...SCENARIO, assertions: [{ id: 'never_there', after_step: 'home', type: 'element_visible', description: 'Not on the home screen', element_description: 'No such button', timeout_ms: 1500 }] };
    await page.locator('#scenario-text').fill(JSON.stringify(waiting, null, 2));
    // Every state the assertion's row is seen in, in order.
    await page.evaluate(`(() => {
      window.__shown = [];
      new MutationObserver(() => {
        const li = document.querySelector('#run-result [data-assertion="never_there"]');
        const seen = li ? li.className + ': ' + li.textContent : '';
        if (seen && window.__shown[window.__shown.length - 1] !== seen) window.__shown.push(seen);
      }).observe(document.getElementById('run-result'), { childList: true, subtree: true, characterData: true });
    })()`);
    await removingNewRunFolders(async () => {
      await page.click('#btn-run');
      await page.locator('#run-result .verdict[data-status="failed"]').waitFor({ timeout: 30_000 });
    });
    const shown = (await page.evaluate('window.__shown')) as string[];
    assert.match(shown[0] ?? '', /^status-pending: waiting never_there element_visiblewaiting up to 1\.5 s for it to pass…$/, shown.join(' | '));
    assert.match(shown[shown.length - 1]!, /^status-failed: failed never_there/, shown.join(' | '));
    assert.is(await page.locator('#run-result .status-pending').count(), 0, 'nothing is left waiting');
  } finally {
    await page.close();
  }
});

messages('a failed waiting assertion shows the screen it was judged on after waiting, served by the bridge', async (ctx) => {
  const page = await open(ctx);
  try {
    await page.click('#tab-validate');
    const waiting = { ...SCENARIO, assertions: [{ id: 'never_there', after_step: 'home', type: 'element_visible', description: 'Not on the home screen', element_description: 'No such button', timeout_ms: 600 }] };
    await page.locator('#scenario-text').fill(JSON.stringify(waiting, null, 2));
    await removingNewRunFolders(async () => {
      await page.click('#btn-run');
      await page.locator('#run-result .verdict[data-status="failed"]').waitFor({ timeout: 30_000 });
      const shot = page.locator('#run-result [data-assertion="never_there"] a.shot img');
      assert.is(await shot.getAttribute('alt'), 'Screen never_there was judged on');
      const src = (await shot.getAttribute('src'))!;
      assert.match(src, /\/screenshots\/home%2Bnever_there\.png$/);
      const fetched = (await page.evaluate(`fetch(${JSON.stringify(src)}).then(async (r) => [r.status, r.headers.get('content-type'), (await r.arrayBuffer()).byteLength])`)) as [number, string, number];
      assert.equal(fetched.slice(0, 2), [200, 'image/png']);
      assert.ok(fetched[2] > 100, 'a PNG, not an empty body');
    });
  } finally {
    await page.close();
  }
});

messages('a blank recording name keeps the dialog open and says to give a name', async (ctx) => {
  const page = await open(ctx);
  try {
    await page.click('#btn-record');
    await page.locator('#record-name').fill('   ');
    await page.click('#record-go');
    const problem = page.locator('#record-name-problem');
    await problem.waitFor();
    assert.match((await problem.textContent()) ?? '', 'Give the recording a name');
    assert.ok(await page.locator('#record-start[open]').isVisible(), 'the dialog stays open');
    await page.locator('#record-name').fill('Named');
    await page.click('#record-go');
    await page.locator('#record-status:not([hidden])').waitFor();
    await page.click('#btn-record');
    await page.locator('#record-start[open], #toast:not([hidden])').first().waitFor();
  } finally {
    await page.close();
  }
});

if (chromiumPath) messages.run();
