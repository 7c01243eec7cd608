import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Page } from 'playwright-core';
import { envelope, validateScenarioText } from '../../src/validate/index.js';
import { systemTool } from '../support/system-tools.js';
import { type ViewerSuiteContext, withViewerAndChromium } from './support/viewer-bridge.js';

/** The Validate tab as a place to write scenarios: the New scenario template and quick fixes, in Chromium. */

const chromiumPath = systemTool('chromium', 'the Validate tab end-to-end tests drive it');

interface Ctx extends ViewerSuiteContext {
  page?: Page;
}

const authoring = suite<Ctx>('Validate tab: template and quick fixes', { url: '' });

withViewerAndChromium(authoring, chromiumPath);

authoring.before(async (ctx) => {
  if (!ctx.browser) return;
  const page = await ctx.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(ctx.url);
  await page.waitForSelector('#connection[data-state="open"]');
  await page.click('#tab-validate');
  ctx.page = page;
});

const errorRows = (page: Page) => page.locator('#validate-result .issues li.error').count();

authoring('New scenario puts a template in the text box that validates with 0 errors', async (ctx) => {
  const page = ctx.page!;
  await page.click('#btn-new-scenario');
  await page.waitForSelector('#validate-result .verdict.ok');
  assert.match((await page.textContent('#validate-result .verdict')) ?? '', /^Valid \(schema 2\.2\)$/);
  assert.is(await page.locator('#validate-result .issues li').count(), 0, 'no errors and no warnings');
  // What the page holds is what the bridge's validator calls valid.
  const text = await page.inputValue('#scenario-text');
  assert.is((envelope(validateScenarioText(text, 'new.json')).data as { valid: boolean }).valid, true);
});

authoring('a quick fix edits the text, re-validates, and its error is gone', async (ctx) => {
  const page = ctx.page!;
  const typed = '{\n  "schema_version": "2.2",\n  "scenario_id": "login",\n  "name": "Login",\n  "description": "d",\n  "platform": "android",\n  "app_package": "com.example.app",\n  "metadata": {"app_version": "1.0", "environment": "development"},\n  "steps": [\n    {"id": "s1", "action": "tapp", "description": "tap", "target": "the Sign in button"}\n  ],\n  "assertions": []\n}\n';
  await page.fill('#scenario-text', typed);
  await page.click('#validate-form button[type="submit"]');
  await page.waitForSelector('#validate-result .verdict.bad');
  const before = await errorRows(page);
  assert.is(before, 3, 'unknown schema_version, missing $schema_version, unknown action');

  await page.locator('#validate-result button.quick-fix', { hasText: 'Rename "schema_version" to "$schema_version"' }).first().click();
  await pollCount(page, 1);
  assert.match(await page.inputValue('#scenario-text'), /\n {2}"\$schema_version": "2\.2",\n/);

  await page.locator('#validate-result button.quick-fix', { hasText: 'Replace with "tap"' }).click();
  await page.waitForSelector('#validate-result .verdict.ok');
  assert.is(await errorRows(page), 0);
  assert.match(await page.inputValue('#scenario-text'), /"action": "tap"/);
});

authoring('Open file takes a UTF-16 scenario (as PowerShell 5 saves it) and refuses Latin-1 naming the byte', async (ctx) => {
  const page = ctx.page!;
  await page.click('#btn-new-scenario');
  await page.waitForSelector('#validate-result .verdict.ok');
  const template = await page.inputValue('#scenario-text');
  await page.fill('#scenario-text', '');
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(template, 'utf16le')]);
  await page.setInputFiles('#scenario-file', { name: 'ps.json', mimeType: 'application/json', buffer: utf16 });
  await page.waitForSelector('#validate-result .verdict.ok:has-text("ps.json")');
  assert.is(await page.inputValue('#scenario-text'), template, 'the text box holds the decoded text, no BOM, no NULs');
  const latin1 = Buffer.concat([Buffer.from('{\n  "name": "caf'), Buffer.from([0xe9]), Buffer.from('"\n}')]);
  await page.setInputFiles('#scenario-file', { name: 'latin1.json', mimeType: 'application/json', buffer: latin1 });
  await page.waitForSelector('#validate-result .verdict.bad:has-text("latin1.json")');
  assert.match((await page.textContent('#validate-result .verdict')) ?? '', /latin1\.json is not UTF-8 text: the byte 0xE9 at line 2, column 15 .*save it as UTF-8/);
  assert.is(await page.inputValue('#scenario-text'), template, 'a refused file leaves the text box as it was');
});

async function pollCount(page: Page, expected: number): Promise<void> {
  const until = Date.now() + 10_000;
  for (;;) {
    const n = await errorRows(page);
    if (n === expected && !(await page.locator('#validate-result[aria-busy]').count())) return;
    if (Date.now() > until) throw new Error(`expected ${expected} error rows, see ${n}`);
    await page.waitForTimeout(50);
  }
}

if (chromiumPath) authoring.run();
