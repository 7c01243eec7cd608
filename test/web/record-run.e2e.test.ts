import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { deviceToCss, fitScreen } from '../../web/src/geometry.js';
import { systemTool } from '../support/system-tools.js';
import { launchChromium } from './support/browser.js';
import { pollPage } from './support/poll.js';
import { runFolders } from './support/run-folders.js';
import { screenBox } from './support/screen-box.js';
import { startViewerBridge } from './support/viewer-bridge.js';

/**
 * Issue 17 item 3 in Chromium: Record in the viewer (launch, taps, typing into the sign-in form,
 * the password included), download the scenario and replay it green with the CLI; Run it from the
 * Validate tab with live progress, the verdict and screenshots; Cancel a run. The tests build on
 * each other: the recording is what Run runs.
 */

const DEVICE = 'virtual-android-1';
const DEMO = 'com.mobilebridge.demo';
const PASSWORD = 'secret123';
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const exec = promisify(execFile);
const chromiumPath = systemTool('chromium', 'the record-and-run end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  browser?: Browser;
  page?: Page;
  tmp: string;
  runFoldersBefore: Set<string>;
  recorded?: string;
}

const test = suite<Ctx>('record and run in the viewer', { tmp: '', runFoldersBefore: new Set() });

/** Folders scenarios.run makes for a caller that names no `out` (the viewer): removed after the suite. */

test.before(async (ctx) => {
  ctx.tmp = mkdtempSync(join(tmpdir(), 'mb-record-run-'));
  ctx.runFoldersBefore = runFolders();
  const started = await startViewerBridge();
  ctx.bridge = started.bridge;
  ctx.browser = await launchChromium(chromiumPath!);
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(started.url);
  await page.waitForSelector('#connection[data-state="open"]');
  await page.waitForSelector(`#device-list button[data-id="${DEVICE}"][aria-pressed="true"]`);
  assert.equal(problems, [], 'no script errors');
  ctx.page = page;
});

test.after(async (ctx) => {
  try {
    await ctx.browser?.close();
  } finally {
    await ctx.bridge?.close();
    rmSync(ctx.tmp, { recursive: true, force: true });
    for (const name of runFolders()) if (!ctx.runFoldersBefore.has(name)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
});

async function element(ctx: Ctx, id: string): Promise<UiElement> {
  const { elements } = (await ctx.bridge!.engine.call('mobile_list_elements_on_screen', { device: DEVICE })) as { elements: UiElement[] };
  const found = elements.find((e) => e.id === id);
  if (!found) throw new Error(`no element ${id} on ${DEVICE}: ${elements.map((e) => e.id).join(', ')}`);
  return found;
}

/** Clicks where the viewer draws the element's centre, once the viewer lists it (what the user sees). */
async function click(ctx: Ctx, id: string): Promise<void> {
  const page = ctx.page!;
  await page.waitForSelector(`#element-list li[data-id="${id}"]`);
  const e = await element(ctx, id);
  const size = (await ctx.bridge!.engine.call('mobile_get_screen_size', { device: DEVICE })) as { width: number; height: number };
  const box = await screenBox(page);
  const p = deviceToCss(fitScreen({ width: box.width, height: box.height }, size), e.center);
  await page.mouse.click(box.x + p.x, box.y + p.y);
  // The feed names the element it landed on and gives the point as a detail (or the point alone).
  await page.locator('#activity-feed li', { hasText: new RegExp(`tapped[\\s\\S]*\\(${e.center.x}, ${e.center.y}\\)`) }).first().waitFor({ state: 'attached' });
}

async function stepsShown(page: Page, n: number): Promise<void> {
  await pollPage(page, `document.getElementById('record-steps').textContent === '${n}'`, `the step count to reach ${n}`);
}

test('Record: launch, taps and typing (password too) become steps; Stop offers a file that replays green with the CLI', async (ctx) => {
  const page = ctx.page!;
  await page.click('#btn-record');
  await page.fill('#record-name', 'Sign in from the viewer');
  await page.click('#record-go');
  await page.waitForSelector('#record-status:not([hidden]) .rec-dot');
  assert.is(await page.getAttribute('#btn-record', 'aria-pressed'), 'true');

  await page.click('#app-launch');
  await page.waitForSelector(`#app-launch option[value="${DEMO}"]`, { state: 'attached' });
  await page.selectOption('#app-launch', DEMO);
  await stepsShown(page, 1);

  await click(ctx, 'email');
  await page.keyboard.type('demo@example.comm', { delay: 15 });
  await page.keyboard.press('Backspace');
  await click(ctx, 'password');
  // Slow enough that the keys leave in several batches: still one step, one secret.
  await page.keyboard.type(PASSWORD, { delay: 40 });
  await pollPage(page, `document.querySelector('#element-list li[data-id="sign_in"]') !== null`, 'the Sign in button');
  for (let i = 0; (await element(ctx, 'password')).text?.length !== PASSWORD.length; i++) {
    if (i > 100) throw new Error('the password did not reach the field');
    await page.waitForTimeout(50);
  }
  // A drag streamed as input.touch is a swipe in its direction (upwards: `up`).
  const box = await screenBox(page);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.8);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.5, { steps: 6 });
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.35, { steps: 4 });
  await page.mouse.up();
  await stepsShown(page, 6);
  await click(ctx, 'sign_in');
  await stepsShown(page, 7);

  await page.click('#btn-record');
  await page.waitForSelector('#record-done[open]');
  const summary = (await page.textContent('#record-done-body')) ?? '';
  assert.match(summary, '7 steps');
  assert.match(summary, 'passes the validator');
  assert.match(summary, '--param PASSWORD=');
  assert.not.match(summary, PASSWORD);
  assert.is(await page.isVisible('#record-status'), false, 'the red dot is gone');

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#record-download')]);
  assert.is(download.suggestedFilename(), 'sign_in_from_the_viewer.json');
  const file = join(ctx.tmp, download.suggestedFilename());
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  assert.not.ok(text.includes(PASSWORD), 'the password is not in the scenario file');
  const doc = JSON.parse(text) as { steps: { action: string; target?: string; value?: string }[]; parameters: Record<string, { secret?: boolean }>; app_package: string };
  assert.equal(doc.steps.map((s) => [s.action, s.target ?? s.value ?? null]), [
    ['launch_app', null],
    ['tap', 'the Email field'],
    ['type', 'demo@example.com'],
    ['tap', 'the Password field'],
    ['type', '${PASSWORD}'],
    ['swipe', 'up'],
    ['tap', 'Sign in'],
  ]);
  assert.equal(doc.parameters, { PASSWORD: doc.parameters.PASSWORD });
  assert.is(doc.parameters.PASSWORD!.secret, true);
  assert.is(doc.app_package, DEMO);
  ctx.recorded = text;

  // Replayed by the command line on a fresh virtual phone in another process, the password given.
  const { stdout } = await exec(process.execPath, [MAIN, 'run', file, '--device', DEVICE, '--out', join(ctx.tmp, 'cli-out'), '--param', `PASSWORD=${PASSWORD}`, '--no-android', '--no-ios'], {
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(ctx.tmp, 'state') },
    cwd: ctx.tmp,
  });
  const result = JSON.parse(stdout) as { exit_code: number; data: { runs: { status: string; summary: string }[] } };
  assert.is(result.data.runs[0]!.status, 'passed', result.data.runs[0]!.summary);
  assert.is(result.exit_code, 0);
  assert.not.ok(readdirSync(join(ctx.tmp, 'cli-out', 'results')).some((n) => readFileSync(join(ctx.tmp, 'cli-out', 'results', n), 'utf8').includes(PASSWORD)), 'nor in the result document');

  // "Open in Validate" puts it in the editor, validated.
  await page.click('#record-validate');
  await page.waitForSelector('#view-validate:not([hidden]) #validate-result .verdict.ok');
  assert.is(await page.inputValue('#scenario-text'), JSON.stringify(JSON.parse(text), null, 2));
});

test('Run: asks for the secret parameter, shows steps live, then the verdict with screenshots', async (ctx) => {
  const page = ctx.page!;
  // Back to signed out, where the recording started.
  await ctx.bridge!.engine.call('mobile_clear_app_data', { device: DEVICE, packageName: DEMO });
  await page.click('#btn-run');
  await page.waitForSelector('#run-params:not([hidden]) input[name="PASSWORD"][type="password"]');
  assert.match((await page.textContent('#run-result')) ?? '', 'needs PASSWORD');
  await page.fill('#run-params input[name="PASSWORD"]', PASSWORD);
  // Note each step row as it appears and whether the run was still going at that moment.
  await page.evaluate(`(() => {
    window.__rows = [];
    new MutationObserver(() => {
      for (const li of document.querySelectorAll('#run-result .run-steps > li')) {
        if (li.dataset.seen) continue;
        li.dataset.seen = '1';
        window.__rows.push({ step: li.dataset.step, running: document.querySelector('#run-result .verdict[data-status="running"]') !== null });
      }
    }).observe(document.getElementById('run-result'), { childList: true, subtree: true });
  })()`);
  await page.click('#run-params button[type="submit"]');
  await page.waitForSelector('#btn-cancel-run:not([hidden])');
  await page.waitForSelector('#run-result .verdict[data-status="passed"]', { timeout: 30_000 });
  const live = (await page.evaluate('window.__rows')) as { step: string; running: boolean }[];
  assert.ok(live.filter((r) => r.running).length >= 5, `steps appeared while the run went on: ${JSON.stringify(live)}`);
  assert.match((await page.textContent('#run-result .verdict')) ?? '', 'passed — 7 steps');
  assert.is(await page.locator('#run-result .run-steps > li.status-passed').count(), 7);
  assert.is(await page.isVisible('#btn-cancel-run'), false);
  await pollPage(page, `(() => { const imgs = [...document.querySelectorAll('#run-result .shot img')]; return imgs.length === 7 && imgs.every((i) => i.complete && i.naturalWidth > 100); })()`, 'the seven step screenshots to load');
  assert.not.match((await page.textContent('body')) ?? '', PASSWORD);
  // The whole result document goes home as a file, its secret masked as in the answer.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#run-result a.download-result')]);
  const file = join(ctx.tmp, download.suggestedFilename());
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  const result = JSON.parse(text) as { run_id: string; status: string; steps_executed: unknown[] };
  assert.is(download.suggestedFilename(), `${result.run_id}.json`);
  assert.equal([result.status, result.steps_executed.length], ['passed', 7]);
  assert.not.ok(text.includes(PASSWORD), 'the password is not in the result file');
});

test('Cancel ends a run as cancelled', async (ctx) => {
  const page = ctx.page!;
  const waiting = {
    $schema_version: '2.2',
    scenario_id: 'wait_for_a_unicorn',
    name: 'Wait for a unicorn',
    description: 'Waits for an element that never comes, to be cancelled',
    platform: 'android',
    app_package: DEMO,
    metadata: { app_version: '1.0', environment: 'development' },
    steps: [
      { id: 'launch', action: 'launch_app', description: 'Open the app' },
      { id: 'wait_unicorn', action: 'wait_for_element', description: 'Never appears', target: 'the Unicorn button', wait_config: { type: 'element_visible', timeout_ms: 60_000 } },
    ],
    assertions: [{ id: 'home', after_step: 'wait_unicorn', type: 'element_exists', description: 'never checked', element_description: 'Item 1' }],
  };
  await page.fill('#scenario-text', JSON.stringify(waiting, null, 2));
  // Not while recording: the run's own taps would become steps of the recording.
  await page.click('#btn-record');
  await page.click('#record-go');
  await page.waitForSelector('#record-status:not([hidden])');
  await page.click('#btn-run');
  await page.locator('#run-result', { hasText: 'stop the recording first' }).waitFor();
  await page.click('#btn-record');
  await page.locator('#toast', { hasText: 'nothing was recorded' }).waitFor();
  await page.waitForSelector('#record-status', { state: 'hidden' });
  await page.click('#btn-run');
  await page.waitForSelector('#run-result[data-run] .run-steps > li[data-step="launch"]');
  assert.is(await page.isVisible('#run-params'), false, 'nothing to ask');
  await page.click('#btn-cancel-run');
  await page.waitForSelector('#run-result .verdict[data-status="cancelled"]', { timeout: 20_000 });
  assert.match((await page.textContent('#run-result')) ?? '', 'skipped');
  assert.is(ctx.bridge!.locks.holder(DEVICE), undefined, 'the run let go of the device');
});

if (chromiumPath) test.run();
