import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { launchChromium } from './support/browser.js';
import { eventually, pollPage } from './support/poll.js';
import { startViewerBridge } from './support/viewer-bridge.js';

/**
 * A tab closed while recording leaves its recording open on the device (serve keeps recordings in its
 * state folder). The next viewer is not handed it behind its back: it is told whose recording is open,
 * first that it is kept for that viewer's resume, then that it was left, and chooses Continue it,
 * Discard it or Leave it; Record on that device is refused while it is left there, and offers it again.
 */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');
/** Long enough for the next page to open and see the recording kept for its viewer, short enough for a test. */
const GRACE_MS = 6000;
/** For the test that only waits for the grace to end (its viewer is watching before the tab closes). */
const SHORT_GRACE_MS = 1500;

/** A bridge with its own recordings folder, and the browser the pages open in. */
interface Viewer {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
  dir: string;
}

interface Ctx {
  browser?: Browser;
  /** One bridge per grace period: each test needs another. */
  kept: Viewer;
  brief: Viewer;
}

const left = suite<Ctx>('a recording left open in Chromium', { kept: { url: '', dir: '' }, brief: { url: '', dir: '' } });

async function serve(ctx: Ctx, viewer: Viewer, resumeGraceMs: number): Promise<void> {
  viewer.dir = mkdtempSync(join(tmpdir(), 'mb-recording-left-'));
  const started = await startViewerBridge({ recordingsDir: viewer.dir, resumeGraceMs });
  viewer.bridge = started.bridge;
  viewer.url = started.url;
  viewer.browser = ctx.browser;
}

left.before(async (ctx) => {
  if (!chromiumPath) return;
  ctx.browser = await launchChromium(chromiumPath);
  await serve(ctx, ctx.kept, GRACE_MS);
  await serve(ctx, ctx.brief, SHORT_GRACE_MS);
});

left.after(async (ctx) => {
  try {
    await ctx.browser?.close();
  } finally {
    // Both bridges closed and both folders removed even when one close fails; then that failure.
    const closed = await Promise.allSettled([ctx.kept, ctx.brief].map((viewer) => viewer.bridge?.close()));
    for (const viewer of [ctx.kept, ctx.brief]) if (viewer.dir) rmSync(viewer.dir, { recursive: true, force: true });
    const failed = closed.find((c): c is PromiseRejectedResult => c.status === 'rejected');
    if (failed) throw failed.reason;
  }
});

async function open(ctx: Viewer): Promise<Page> {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${ctx.url}?device=${DEVICE}`);
  await page.locator('#connection[data-state="open"]').waitFor();
  await page.locator(`#device-list button[data-id="${DEVICE}"][aria-pressed="true"]`).waitFor();
  await page.locator('#element-list li').first().waitFor();
  return page;
}

const steps = (page: Page, n: number) => pollPage(page, `document.getElementById('record-steps').textContent === '${n}'`, `${n} recorded steps`);

/** The steps of the device's recording as the bridge keeps it on disk (written after every recorded step). */
function onDisk(ctx: Viewer): { id: string }[] {
  const file = join(ctx.dir, `${DEVICE}.recording.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { steps: { id: string }[] }).steps : [];
}

const stepsText = (n: number) => `${n} step${n === 1 ? '' : 's'}`;

/** A tap on the demo app's element, through the inspector's list (Enter taps the selected row's centre). */
async function tapRow(page: Page, id: string): Promise<void> {
  await page.click(`#element-list li[data-id="${id}"]`);
  await page.keyboard.press('Enter');
}

/**
 * A page records a tap on Email (the recorder may add a wait before it), then its tab is closed without
 * stopping; resolves to the number of steps recorded once the bridge saw the tab go.
 */
async function recordAndClose(ctx: Viewer, name: string): Promise<number> {
  const away = () => [...ctx.bridge!.sessions.all()].filter((s) => s.detachedAt !== undefined).map((s) => s.id);
  const before = new Set(away());
  await ctx.bridge!.engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/signin' });
  const page = await open(ctx);
  await page.click('#btn-record');
  await page.fill('#record-name', name);
  await page.click('#record-go');
  await page.waitForSelector('#record-status:not([hidden])');
  await tapRow(page, 'email');
  await eventually(() => onDisk(ctx).some((step) => step.id === 'tap_email_field'), 'the tap recorded');
  await page.close();
  await eventually(() => away().some((id) => !before.has(id)), 'the bridge saw the tab go');
  return onDisk(ctx).length;
}

const prompt = (page: Page) => page.locator('#record-left:not([hidden])');

left('the next viewer is told whose recording is open, first kept for its viewer, then left; Continue it makes it its own', async ({ kept: ctx }) => {
  const recorded = await recordAndClose(ctx, 'Left by a closed tab');
  const next = await open(ctx);
  try {
    await prompt(next).filter({ hasText: 'its connection dropped, and the recording is kept for it until' }).waitFor();
    assert.is(await next.isVisible('#record-left-continue'), false, 'nothing to continue while its viewer may come back');

    // Its viewer did not come back: the recording is offered, with whose it was.
    await prompt(next).filter({ hasText: 'went away without stopping it' }).waitFor();
    const text = (await next.textContent('#record-left-text')) ?? '';
    assert.match(text, new RegExp(`^A recording by viewer s-[0-9a-f]{4} \\("Left by a closed tab", ${stepsText(recorded)}, started \\d\\d:\\d\\d:\\d\\d\\) is open on ${DEVICE}: that viewer went away`));
    assert.is(await next.getAttribute('#btn-record', 'aria-pressed'), 'false', 'not adopted behind the user\'s back');
    assert.ok(existsSync(join(ctx.dir, `${DEVICE}.recording.json`)));

    await next.click('#record-left-continue');
    await next.waitForSelector('#record-status:not([hidden])');
    await steps(next, recorded);
    assert.is(await prompt(next).count(), 0);
    await tapRow(next, 'password');
    await eventually(() => onDisk(ctx).some((step) => step.id === 'tap_password_field'), 'the next tap recorded into it');
    const total = onDisk(ctx).length;
    assert.equal(onDisk(ctx).slice(0, recorded).at(-1)?.id, 'tap_email_field', 'continued after what the closed tab recorded');
    await steps(next, total);
    await next.click('#btn-record');
    await next.waitForSelector('#record-done[open]');
    assert.match((await next.textContent('#record-done-body')) ?? '', `"Left by a closed tab": ${stepsText(total)} recorded`);
    await next.click('#record-done [data-close]');
  } finally {
    await next.close();
  }
});

left('a viewer already watching is told when the recording is left; Leave it, Record refused and offered again, Discard it', async ({ brief: ctx }) => {
  const watching = await open(ctx);
  try {
    const recorded = await recordAndClose(ctx, 'Left again');
    const offered = prompt(watching).filter({ hasText: `"Left again", ${stepsText(recorded)}` });
    // Told when the closed tab's session ends (recording.left), without reloading or choosing the device again.
    await offered.waitFor();
    await watching.click('#record-left-leave');
    assert.is(await prompt(watching).count(), 0);

    await watching.click('#btn-record');
    await watching.click('#record-go');
    await watching.locator('#toast', { hasText: 'Recording did not start: a recording of' }).waitFor();
    await offered.waitFor();
    assert.is(await watching.getAttribute('#btn-record', 'aria-pressed'), 'false');

    await watching.click('#record-left-discard');
    await watching.locator('#toast', { hasText: `Discarded the recording "Left again" (${stepsText(recorded)}) left open on ${DEVICE}` }).waitFor();
    assert.is(await prompt(watching).count(), 0);
    assert.not.ok(existsSync(join(ctx.dir, `${DEVICE}.recording.json`)), 'the file is gone');
    await watching.click('#btn-record');
    await watching.click('#record-go');
    await watching.waitForSelector('#record-status:not([hidden])');
    await watching.click('#btn-record');
    await watching.locator('#toast', { hasText: 'nothing was recorded' }).waitFor();
  } finally {
    await watching.close();
  }
});

if (chromiumPath) left.run();
