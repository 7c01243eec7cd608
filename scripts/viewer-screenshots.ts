/**
 * Takes the screenshots of docs/viewer.md: one PNG per panel, in headless Chromium against an
 * in-process bridge on the virtual devices (free port, temporary state folder; the bridge, the
 * colleague's connection and the browser are stopped at the end, also on failure).
 *
 * A colleague ("alice") opens the demo app, fills in the sign-in form (the password shows in the
 * feed as a count of characters) and holds the device's lock, so every panel has something real
 * to show. To add a panel, add a row to SHOTS: its file, window, and what to click before the shot.
 * Rows run in order on the one virtual phone: a row that acts on it (record, run) changes what later
 * rows show, so those come after the ones that show the sign-in form.
 *
 * Usage: npm run build && node dist/scripts/viewer-screenshots.js [--only name,name] [--out DIR] [--chromium PATH]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { startBridge, type Bridge } from '../src/bridge/index.js';
import { createEngine } from '../src/engine/create.js';
import type { UiElement } from '../src/engine/types.js';
import { connectBridge } from '../src/protocol/node.js';
import { launchChromium } from '../test/web/support/browser.js';
import { deviceToCss, fitScreen } from '../web/src/geometry.js';
import { buildWeb } from './build-web.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEVICE = 'virtual-android-1';
/** Above this a shot is reported: docs should stay light to clone. */
const MAX_BYTES = 155 * 1024;

interface Rig {
  bridge: Bridge;
  list(): Promise<UiElement[]>;
  /** Moves the mouse over an element's drawn centre, so the screen outlines it. */
  hover(page: Page, id: string): Promise<void>;
  /** The colleague takes or gives back the device's lock (the viewer cannot act while she holds it). */
  colleagueLocks(held: boolean): Promise<void>;
}

interface Shot {
  name: string;
  /** File under the output folder (docs/ by default). */
  file: string;
  viewport: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** What to click or type once the page shows the device. */
  prepare(page: Page, rig: Rig): Promise<void>;
}

const LAPTOP = { width: 1280, height: 800 };

const BROKEN_SCENARIO = JSON.stringify(
  {
    $schema_version: '2.2',
    scenario_id: 'sign_in',
    name: 'Sign in',
    description: 'signs in',
    platform: 'android',
    app_package: 'com.mobilebridge.demo',
    metadata: { app_version: '1.0', environment: 'development' },
    steps: [{ id: 'tap', action: 'tap', description: 'sign in', target: 'com.mobilebridge.demo:id/sign_in' }],
    assertions: [],
  },
  null,
  2,
);

const SHOTS: Shot[] = [
  {
    name: 'screen',
    file: 'viewer.png',
    viewport: LAPTOP,
    prepare: (page, rig) => rig.hover(page, 'sign_in'),
  },
  {
    name: 'inspector',
    file: 'viewer-inspector.png',
    viewport: LAPTOP,
    prepare: async (page) => {
      await page.click('#element-list li[data-id="sign_in"]');
      await page.locator('#element-details .verdict-badge').waitFor();
    },
  },
  {
    name: 'tree',
    file: 'viewer-tree.png',
    viewport: LAPTOP,
    prepare: async (page) => {
      await page.click('#btn-elements-tree');
      await page.locator('#element-tree:not([hidden])').waitFor();
    },
  },
  {
    name: 'activity',
    file: 'viewer-activity.png',
    viewport: LAPTOP,
    prepare: async (page, rig) => {
      await rig.colleagueLocks(true);
      await page.click('#tab-activity');
      await page.locator('#activity-feed li', { hasText: 'into the “Password” field' }).waitFor();
    },
  },
  {
    name: 'validate',
    file: 'viewer-validate.png',
    // A little shorter than the laptop window: the error list is what matters, and the PNG stays light.
    viewport: { width: 1280, height: 720 },
    prepare: async (page) => {
      await page.click('#tab-validate');
      await page.fill('#scenario-text', BROKEN_SCENARIO);
      await page.click('#validate-form button[type="submit"]');
      await page.locator('#validate-result .issues li').first().waitFor();
    },
  },
  {
    name: 'dark',
    file: 'viewer-dark.png',
    viewport: LAPTOP,
    colorScheme: 'dark',
    prepare: async (page, rig) => {
      await page.click('#tab-activity');
      await rig.hover(page, 'email');
    },
  },
  {
    name: 'phone',
    file: 'viewer-390.png',
    viewport: { width: 390, height: 844 },
    prepare: async () => undefined,
  },
  {
    name: 'record',
    file: 'viewer-record.png',
    viewport: LAPTOP,
    prepare: async (page, rig) => {
      await rig.colleagueLocks(false);
      await page.click('#btn-record');
      await page.fill('#record-name', 'sign in from the viewer');
      await page.click('#record-go');
      await page.locator('#record-status:not([hidden])').waitFor();
      await rig.hover(page, 'sign_in');
      await page.mouse.down();
      await page.mouse.up();
      await page.locator('#record-steps', { hasText: '1' }).waitFor();
      await page.click('#btn-record');
      await page.locator('#record-done[open]').waitFor();
    },
  },
  {
    name: 'run',
    file: 'viewer-run.png',
    viewport: { width: 1280, height: 720 },
    prepare: async (page, rig) => {
      await rig.colleagueLocks(false);
      // The template signs in on a fresh app: empty its fields first.
      await rig.bridge.engine.call('mobile_clear_app_data', { device: DEVICE, packageName: 'com.mobilebridge.demo' });
      await page.click('#tab-validate');
      await page.click('#btn-new-scenario');
      // The template names a placeholder app; the virtual phone has the demo app.
      const template = await page.inputValue('#scenario-text');
      await page.fill('#scenario-text', template.replaceAll('com.example.app', 'com.mobilebridge.demo'));
      await page.click('#btn-run');
      const secret = page.locator('#run-params input[type="password"]');
      if (await secret.count()) {
        await secret.first().fill('secret123');
        await page.click('#run-params button[type="submit"]');
      }
      await page.locator('#run-result .verdict:not(.running)').waitFor({ timeout: 60_000 });
    },
  },
];

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The colleague's session: opens the demo app, fills the form through the bridge like an agent, takes the lock. */
async function colleagueWorks(bridge: Bridge, list: () => Promise<UiElement[]>): Promise<{ stop(): Promise<void>; locks(held: boolean): Promise<void> }> {
  const alice = await connectBridge(`ws://127.0.0.1:${bridge.port}/ws`, { client: 'alice' });
  await alice.subscribe(DEVICE, { elements: true });
  await alice.callTool('mobile_launch_app', { device: DEVICE, packageName: 'com.mobilebridge.demo' });
  const tapAndType = async (id: string, text: string) => {
    const field = (await list()).find((e) => e.id === id);
    if (!field) throw new Error(`the demo app shows no ${id} field`);
    await alice.callTool('mobile_click_on_screen_at_coordinates', { device: DEVICE, x: field.center.x, y: field.center.y });
    await alice.callTool('mobile_type_keys', { device: DEVICE, text });
  };
  await tapAndType('email', 'ada@example.com');
  await tapAndType('password', 'correct horse');
  await alice.request('devices.lock', { device: DEVICE });
  return {
    stop: () => alice.close(),
    locks: async (held) => {
      await alice.request(held ? 'devices.lock' : 'devices.unlock', { device: DEVICE });
    },
  };
}

async function take(browser: Browser, rig: Rig, shot: Shot, url: string, outDir: string): Promise<void> {
  const context = await browser.newContext({ viewport: shot.viewport, colorScheme: shot.colorScheme ?? 'light' });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.locator(`#device-list button[data-id="${DEVICE}"][aria-pressed="true"]`).waitFor();
    await page.locator('#screen-placeholder').waitFor({ state: 'hidden' });
    await page.locator('#element-list li[data-id="email"]').waitFor({ state: 'attached' });
    await shot.prepare(page, rig);
    // A few frames of the virtual phone, so the canvas shows the current screen.
    await page.waitForTimeout(1200);
    const path = join(outDir, shot.file);
    await page.screenshot({ path });
    const bytes = statSync(path).size;
    console.log(`${shot.name}: ${path} (${Math.round(bytes / 1024)} KB)${bytes > MAX_BYTES ? ' — over ~150 KB, consider a smaller window' : ''}`);
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const outDir = option('--out') ?? join(ROOT, 'docs');
  const only = option('--only')?.split(',');
  const shots = only ? SHOTS.filter((s) => only.includes(s.name)) : SHOTS;
  if (!shots.length) throw new Error(`--only names no shot; there are: ${SHOTS.map((s) => s.name).join(', ')}`);
  await buildWeb({ check: false });
  const state = mkdtempSync(join(tmpdir(), 'mb-screenshots-'));
  const bridge = await startBridge({ engine: createEngine(), port: 0, webRoot: join(ROOT, 'web/dist'), recordingsDir: join(state, 'recordings') });
  let browser: Browser | undefined;
  let colleague: Awaited<ReturnType<typeof colleagueWorks>> | undefined;
  try {
    browser = await launchChromium(option('--chromium') ?? '/usr/bin/chromium').catch((err: unknown) => {
      throw new Error(`could not start Chromium (${(err as Error).message}); install it (apt-get install -y chromium) or pass --chromium PATH`);
    });
    const list = async () => ((await bridge.engine.call('mobile_list_elements_on_screen', { device: DEVICE })) as { elements: UiElement[] }).elements;
    colleague = await colleagueWorks(bridge, list);
    const rig: Rig = {
      bridge,
      list,
      colleagueLocks: (held) => colleague!.locks(held),
      hover: async (page, id) => {
        const target = (await list()).find((e) => e.id === id);
        if (!target) throw new Error(`no ${id} on screen to point at`);
        const size = (await bridge.engine.call('mobile_get_screen_size', { device: DEVICE })) as { width: number; height: number };
        const box = (await page.locator('#screen').boundingBox())!;
        const at = deviceToCss(fitScreen({ width: box.width, height: box.height }, size), target.center);
        await page.mouse.move(box.x + at.x, box.y + at.y);
        await page.locator('#outline:not([hidden])').waitFor();
      },
    };
    for (const shot of shots) await take(browser, rig, shot, `http://127.0.0.1:${bridge.port}/`, outDir);
  } finally {
    await colleague?.stop().catch(() => undefined);
    await browser?.close();
    await bridge.close();
    rmSync(state, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`viewer-screenshots: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
