import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { eventually } from './support/poll.js';
import { removingNewRunFolders } from './support/run-folders.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/**
 * The Run form's parameters in Chromium: defaulted ones can be changed for one run (a secret
 * default is never put in the page), and values typed for one parameter never move to another.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

const form = suite<Ctx>('the Run form’s parameters in Chromium', { url: '' });
withViewerAndChromium(form, chromiumPath);

async function open(ctx: Ctx): Promise<Page> {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${ctx.url}?device=${DEVICE}`);
  await page.locator('#connection[data-state="open"]').waitFor();
  await page.locator('#lock-badge:not([hidden])').waitFor();
  await page.click('#tab-validate');
  return page;
}

const STAGING = 'staging-greeting';
const SECRET_DEFAULT = 'k-staging-4711';

/** Its assertions fail on the home screen, so the result shows the values they were given. */
function scenario(parameters: Record<string, unknown>, expected: string[]): string {
  return JSON.stringify(
    {
      $schema_version: '2.2',
      scenario_id: 'greets',
      name: 'Greets',
      description: 'One key, then the greeting',
      platform: 'android',
      app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '1.0', environment: 'development' },
      parameters,
      steps: [{ id: 'home', action: 'press_button', description: 'Home', value: 'HOME' }],
      assertions: expected.map((x, i) => ({ id: `says_${i}`, after_step: 'home', type: 'text_contains', description: 'the greeting', expected_substring: x })),
    },
    null,
    2,
  );
}

form('a defaulted parameter is shown with its default and can be changed for this run; a secret default never reaches the page', async (ctx) => {
  const page = await open(ctx);
  try {
    await page.locator('#scenario-text').fill(scenario({ GREETING: { default: STAGING }, API_KEY: { secret: true, default: SECRET_DEFAULT } }, ['${GREETING}']));
    await page.click('#btn-run');
    const greeting = page.locator('#run-params input[name="GREETING"][type="text"]');
    await greeting.waitFor();
    assert.is(await greeting.inputValue(), STAGING);
    assert.is(await page.inputValue('#run-params input[name="API_KEY"][type="password"]'), '');
    assert.not.ok((await page.content()).includes(SECRET_DEFAULT), 'the secret default is nowhere in the page');
    assert.match((await page.textContent('#run-result')) ?? '', 'GREETING, API_KEY with a default you may change');

    await greeting.fill('prod-greeting');
    await removingNewRunFolders(async () => {
      await page.click('#run-params button[type="submit"]');
      await page.locator('#run-result .verdict[data-status="failed"]').waitFor({ timeout: 30_000 });
    });
    assert.match((await page.textContent('#run-result [data-assertion="says_0"]')) ?? '', 'expected prod-greeting');
  } finally {
    await page.close();
  }
});

form('a parameter renamed after a value was typed starts empty; a secret made plain loses its value', async (ctx) => {
  const page = await open(ctx);
  try {
    await page.locator('#scenario-text').fill(scenario({ PASSWORD: { secret: true }, EMAIL: {} }, ['${PASSWORD}', '${EMAIL}']));
    await page.click('#btn-run');
    await page.locator('#run-params input[name="PASSWORD"]').fill('hunter2-secret');
    await page.locator('#run-params input[name="EMAIL"]').fill('me@example.com');

    await page.locator('#scenario-text').fill(scenario({ PASS: { secret: false }, EMAIL: {}, PASSWORD: { secret: false } }, ['${PASS}', '${EMAIL}', '${PASSWORD}']));
    await page.click('#btn-run');
    await page.locator('#run-params input[name="PASS"]').waitFor();
    assert.is(await page.inputValue('#run-params input[name="PASS"]'), '');
    assert.is(await page.inputValue('#run-params input[name="PASSWORD"][type="text"]'), '');
    assert.is(await page.inputValue('#run-params input[name="EMAIL"]'), 'me@example.com', 'the unchanged parameter keeps its value');
    assert.not.ok((await page.content()).includes('hunter2-secret'));
  } finally {
    await page.close();
  }
});

form('a flow parameter the flow step does not pass is asked for in the form before anything runs, then the run goes with it', async (ctx) => {
  // The bridge reads flows from its working folder (this process's): a temporary folder inside it.
  const flows = mkdtempSync(join(process.cwd(), '.mb-viewer-flows-'));
  const page = await open(ctx);
  try {
    const flow = {
      $schema_version: '2.2',
      scenario_id: 'sign_in_flow',
      name: 'Sign in',
      description: 'Types the account',
      platform: 'android',
      app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '1.0', environment: 'development' },
      parameters: { EMAIL: {}, PASSWORD: { secret: true, description: 'the account password' } },
      steps: [
        { id: 'open', action: 'open_url', description: 'Open the sign-in screen', value: 'mbdemo://screen/signin' },
        { id: 'email', action: 'type', description: 'Type the email', target: 'the Email field', value: '${EMAIL}' },
        { id: 'password', action: 'type', description: 'Type the password', target: 'the Password field', value: '${PASSWORD}' },
      ],
      assertions: [],
    };
    writeFileSync(join(flows, 'sign_in.json'), JSON.stringify(flow, null, 2));
    const top = JSON.parse(scenario({}, [])) as Record<string, unknown>;
    delete top.parameters;
    top.steps = [{ id: 'login', flow: `${basename(flows)}/sign_in.json`, parameters: { EMAIL: 'qa@example.com' } }];
    await page.locator('#scenario-text').fill(JSON.stringify(top, null, 2));
    await removingNewRunFolders(async () => {
      await page.click('#btn-run');
      const asked = page.locator('#run-params input[name="PASSWORD"][type="password"]');
      await asked.waitFor();
      assert.match((await page.textContent('#run-result')) ?? '', 'Not run: a flow of this scenario needs PASSWORD (flow step login');
      assert.match((await page.textContent('#run-params')) ?? '', 'for flow step login');
      assert.is(await page.locator('#run-params input').count(), 1, 'EMAIL is passed by the flow step: not asked');
      assert.not.ok(await page.isVisible('#run-result .run-steps li'), 'nothing ran');
      await asked.fill('hunter2-secret');
      await page.click('#run-params button[type="submit"]');
      await page.locator('#run-result .verdict[data-status="passed"]').waitFor({ timeout: 30_000 });
    });
    assert.not.match((await page.textContent('#run-result')) ?? '', 'hunter2-secret');
  } finally {
    await page.close();
    rmSync(flows, { recursive: true, force: true });
  }
});

form('a run keeps showing its steps when another device is chosen before it started', async (ctx) => {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  // The bridge's "started" is held until the page shows another device: what a slow start looks like.
  // All that follows of the run (progress, its answer) waits behind it, in order.
  let held: string[] | undefined;
  let release!: () => void;
  await page.routeWebSocket(/\/ws/, (ws) => {
    const server = ws.connectToServer();
    release = () => {
      for (const m of held ?? []) ws.send(m);
      held = undefined;
    };
    server.onMessage((m) => {
      if (typeof m === 'string' && m.includes('"scenario.progress"') && m.includes('"type":"started"')) held = [m];
      else if (held && typeof m === 'string' && m.includes('"run_id"')) held.push(m);
      else ws.send(m);
    });
  });
  try {
    await page.goto(`${ctx.url}?device=${DEVICE}`);
    await page.locator('#connection[data-state="open"]').waitFor();
    await page.locator('#lock-badge:not([hidden])').waitFor();
    await page.click('#tab-validate');
    await page.locator('#scenario-text').fill(scenario({}, []));
    await page.evaluate(`(() => {
      window.__liveRows = 0;
      new MutationObserver(() => {
        if (document.querySelector('#run-result .verdict[data-status="running"]')) window.__liveRows = document.querySelectorAll('#run-result .run-steps > li').length;
      }).observe(document.getElementById('run-result'), { childList: true, subtree: true });
    })()`);
    await removingNewRunFolders(async () => {
      await page.click('#btn-run');
      await eventually(() => held !== undefined, 'the run to start on the bridge');
      await page.click('#device-list button[data-id="virtual-ios-1"]');
      await page.locator('#device-list button[data-id="virtual-ios-1"][aria-pressed="true"]').waitFor();
      release();
      await page.locator('#run-result .verdict[data-status="passed"]').waitFor({ timeout: 30_000 });
    });
    assert.is(await page.evaluate('window.__liveRows'), 1, 'the step was shown while the run went on');
    assert.is(await page.getAttribute('#run-result', 'data-run'), (await page.textContent('#run-result .hint'))?.match(/run (\S+)/)?.[1] ?? null);
  } finally {
    await page.close();
  }
});

if (chromiumPath) form.run();
