import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import type { Bridge } from '../../src/bridge/index.js';
import { systemTool } from '../support/system-tools.js';
import { pollPage } from './support/poll.js';
import { withViewerAndChromium } from './support/viewer-bridge.js';

/** The studio does not throw work away unasked: a stopped recording, the scenario being edited. */

const DEVICE = 'virtual-android-1';
const chromiumPath = systemTool('chromium', 'the web viewer end-to-end tests drive it');

interface Ctx {
  bridge?: Bridge;
  url: string;
  browser?: Browser;
}

const keeps = suite<Ctx>('the studio keeps the user\'s work in Chromium', { url: '' });
withViewerAndChromium(keeps, chromiumPath);

async function open(ctx: Ctx): Promise<Page> {
  const page = await ctx.browser!.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  await page.goto(`${ctx.url}?device=${DEVICE}`);
  await page.locator('#connection[data-state="open"]').waitFor();
  await page.locator('#lock-badge:not([hidden])').waitFor();
  return page;
}

/** Records a tap on the demo app's Email field under `name` and stops: the stop dialog is open. */
async function recordOneStep(ctx: Ctx, page: Page, name: string): Promise<void> {
  await ctx.bridge!.engine.call('mobile_open_url', { device: DEVICE, url: 'mbdemo://screen/signin' });
  await page.locator('#element-list li[data-id="email"]').waitFor();
  await page.click('#btn-record');
  await page.fill('#record-name', name);
  await page.click('#record-go');
  await page.waitForSelector('#record-status:not([hidden])');
  // The inspector's Enter taps the selected row's centre.
  await page.click('#element-list li[data-id="email"]');
  await page.keyboard.press('Enter');
  await pollPage(page, `document.getElementById('record-steps').textContent !== '0'`, 'a recorded step');
  await page.click('#btn-record');
  await page.locator('#record-done[open]').waitFor();
}

/** Answers the next confirm() with `accept`, resolving to its message. */
function nextConfirm(page: Page, accept: boolean): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (d) => {
      resolve(d.message());
      void (accept ? d.accept() : d.dismiss());
    });
  });
}

keeps('closing the stop dialog of a scenario saved nowhere asks first, and Last recording… shows it again', async (ctx) => {
  const page = await open(ctx);
  try {
    await recordOneStep(ctx, page, 'Twenty minutes of work');
    const asked = nextConfirm(page, false);
    await page.keyboard.press('Escape');
    const closed = page.locator('#record-done').waitFor({ state: 'hidden' }).then(() => 'the dialog closed without asking');
    assert.match(await Promise.race([asked, closed]), 'neither downloaded nor opened');
    assert.ok(await page.locator('#record-done').evaluate((d) => (d as unknown as { open: boolean }).open), 'Esc answered No keeps the dialog open');

    const closing = nextConfirm(page, true);
    await page.click('#record-done [data-close]');
    await closing;
    await page.locator('#record-done').waitFor({ state: 'hidden' });
    await page.locator('#toast', { hasText: 'Last recording' }).waitFor();

    await page.click('#btn-last-recording');
    await page.locator('#record-done[open]').waitFor();
    assert.match((await page.textContent('#record-done-body')) ?? '', '"Twenty minutes of work": ');
    const download = page.waitForEvent('download');
    await page.click('#record-download');
    assert.is((await download).suggestedFilename(), 'twenty_minutes_of_work.json');
    // Saved: Close asks nothing (an unexpected confirm would be dismissed and keep the dialog open).
    await page.click('#record-done [data-close]');
    await page.locator('#record-done').waitFor({ state: 'hidden' });
  } finally {
    await page.close();
  }
});

keeps('the edited scenario survives a reload, and Open in Validate or opening a file asks before replacing it', async (ctx) => {
  const page = await open(ctx);
  const edited = '{ "my": "hand-edited scenario, 40 minutes of work" }';
  const editor = () => page.inputValue('#scenario-text');
  /** The confirm's message, or a word that the text was replaced without one (the poll that loses the race ends quietly). */
  const askedFirst = (asked: Promise<string>) =>
    Promise.race([asked, pollPage(page, `document.getElementById('scenario-text').value !== ${JSON.stringify(edited)}`, 'the text replaced', 5000).then(() => 'replaced without asking', () => new Promise<string>(() => undefined))]);
  try {
    await page.click('#tab-validate');
    await page.fill('#scenario-text', edited);
    await page.reload();
    await page.locator('#connection[data-state="open"]').waitFor();
    assert.is(await editor(), edited, 'a reload keeps the text');

    const file = { name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{ "other": true }') };
    let asked = nextConfirm(page, false);
    await page.setInputFiles('#scenario-file', file);
    assert.match(await askedFirst(asked), 'Replace the scenario in the text box with other.json?');
    assert.is(await editor(), edited, 'No keeps the text');

    await recordOneStep(ctx, page, 'Overwrite test');
    asked = nextConfirm(page, false);
    await page.click('#record-validate');
    assert.match(await askedFirst(asked), 'Replace the scenario in the text box');
    assert.is(await editor(), edited, 'No keeps the text');

    await page.click('#btn-last-recording');
    asked = nextConfirm(page, true);
    await page.click('#record-validate');
    await asked;
    await pollPage(page, `document.getElementById('scenario-text').value.includes('"scenario_id": "overwrite_test"')`, 'the recording in the editor');
    // Nothing edited since: the next file replaces it without asking (an unexpected confirm would be dismissed).
    await page.setInputFiles('#scenario-file', file);
    await pollPage(page, `document.getElementById('scenario-text').value === '{ "other": true }'`, 'the file in the editor');
  } finally {
    await page.close();
  }
});

if (chromiumPath) keeps.run();
