import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AndroidDevice } from '../../src/engine/drivers/android/android-device.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { writeApk } from '../harness/apk-builder.js';
import { UIA2_PACKAGES } from '../harness/adbd/uia2-service.js';
import { hasAdb, startRig, until, type AndroidRig } from './setup.js';

/** Fast element trees and Unicode typing through the on-device UiAutomator2 server (issue 15, item 7). */
const ui = suite<{ rig?: AndroidRig; tmp?: string }>('android UiAutomator2 server');

ui.before(async (ctx) => {
  ctx.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-uia2-'));
  ctx.rig = await startRig();
});
ui.after(async (ctx) => {
  await ctx.rig?.stop();
  if (ctx.tmp) fs.rmSync(ctx.tmp, { recursive: true, force: true });
});

const apks = (dir: string) => ({
  server: writeApk(dir, { package: UIA2_PACKAGES[0], label: 'Appium Settings' }, 'appium-uiautomator2-server-v7.0.0.apk'),
  test: writeApk(dir, { package: UIA2_PACKAGES[1] }, 'appium-uiautomator2-server-debug-androidTest.apk'),
});

function warm(engine: Engine, serial: string): Promise<boolean> {
  return engine.withDevice(serial, 'starting the UiAutomator2 server', async (handle) => (await (handle as AndroidDevice).uiServer?.ready()) ?? false);
}

ui('not installed and no APKs: listings keep using uiautomator dump', async ({ rig }) => {
  const r = (await rig!.call('mobile_list_elements_on_screen')) as { elements: unknown[] };
  assert.ok(r.elements.length > 0);
  assert.not.ok(await warm(rig!.engine, rig!.phone.serial));
  rig!.phone.stats.reset();
  await rig!.call('mobile_list_elements_on_screen');
  assert.ok(rig!.phone.stats.opened.some((s) => s.includes('uiautomator dump')));
  assert.not.ok(rig!.phone.uia2.running);
});

ui('with the server APKs: installed, started with am instrument, and each listing is one round trip to it', async ({ rig, tmp }) => {
  const engine = rig!.engineWith({ uiServerApks: apks(tmp!) });
  const serial = rig!.phone.serial;
  const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: serial, ...params })) as Record<string, any>;
  await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const dumped = (await call('mobile_list_elements_on_screen')).elements;
  assert.ok(await warm(engine, serial), 'the server came up');
  assert.ok(UIA2_PACKAGES.every((p) => rig!.phone.phone.installedApps.some((a) => a.package === p)), 'both APKs installed');
  assert.ok(rig!.phone.stats.opened.some((s) => /^shell:am instrument -w .*io\.appium\.uiautomator2\.server\.test\/androidx\.test\.runner\.AndroidJUnitRunner/.test(s)));
  rig!.phone.stats.reset();
  const served = (await call('mobile_list_elements_on_screen')).elements;
  assert.equal(rig!.phone.stats.opened, ['tcp:6790'], 'one connection to the server, no dump');
  // `uiautomator dump` writes no hint: an empty field's accessibility text is its hint
  // (TextView.getTextForAccessibility), where the server's dump says which is which.
  const asDumped = served.map(({ hint, ...e }: { hint?: string; type: string; text: string }) => (e.type === 'edittext' && !e.text && hint ? { ...e, text: hint } : e));
  assert.ok(served.some((e: { hint?: string; text: string }) => e.hint && !e.text), 'the screen has an empty field with a hint');
  assert.equal(asDumped, dumped, 'the same elements as uiautomator dump gives, but for the hints');
  assert.ok(rig!.phone.uia2.requests.includes('GET /source'));

  // Unicode text, which `input text` cannot type, goes through the server.
  await call('mobile_click_on_screen_at_coordinates', served.find((e: { id: string }) => e.id === 'email').center);
  const typedByServer = await call('mobile_type_keys', { text: 'zoë@例え.jp' });
  assert.is(typedByServer.status, 'success');
  assert.not.match(typedByServer.message, /does not confirm/, 'the server found the focused field');
  assert.is(rig!.phone.phone.fieldValue('email'), 'zoë@例え.jp');
  // The first BACK only hides the keyboard (the field keeps focus); the second leaves the form.
  await call('mobile_press_button', { button: 'BACK' });
  await call('mobile_press_button', { button: 'BACK' });
  assert.is(rig!.phone.phone.focusedField, undefined);
  const unfocused = await call('mobile_type_keys', { text: 'ñ' });
  assert.is(unfocused.code, 'INVALID_PARAMETER', JSON.stringify(unfocused));
  assert.match(unfocused.message, /tap a field first/);
});

ui('the server dying mid-use: that listing falls back to a dump, a later one restarts it', async ({ rig, tmp }) => {
  const engine = rig!.engineWith({ uiServerApks: apks(tmp!) });
  const serial = rig!.phone.serial;
  assert.ok(await warm(engine, serial));
  await rig!.phone.uia2.stop();
  const r = (await engine.call('mobile_list_elements_on_screen', { device: serial })) as { elements: unknown[] };
  assert.ok(r.elements.length > 0, 'answered from a dump');
  assert.ok(await warm(engine, serial), 'restarted');
  rig!.phone.stats.reset();
  await engine.call('mobile_list_elements_on_screen', { device: serial });
  assert.equal(rig!.phone.stats.opened, ['tcp:6790']);
});

ui('a dump while the server is starting (it holds the one UiAutomation connection) waits for the server instead of failing', async ({ rig, tmp }) => {
  const engine = rig!.engineWith({ uiServerApks: apks(tmp!) });
  const serial = rig!.phone.serial;
  const uia2 = rig!.phone.uia2;
  // Stop what earlier tests started, so this engine's server is the one starting.
  await uia2.stop();
  uia2.timing.startMs = 1500;
  try {
    // The first listing starts the server in the background and is answered by a dump meanwhile.
    await engine.call('mobile_list_elements_on_screen', { device: serial });
    await until(() => uia2.holdsUiAutomation, 'the instrumentation holds UiAutomation');
    assert.not.ok(uia2.running, 'still starting');
    const r = (await engine.call('mobile_list_elements_on_screen', { device: serial })) as { elements?: unknown[]; code?: string };
    assert.ok(r.elements && r.elements.length > 0, JSON.stringify(r).slice(0, 300));
    assert.ok(uia2.running);
  } finally {
    uia2.timing.startMs = 0;
  }
});

ui('another tool holding UiAutomation (an Appium session): PERMISSION_DENIED naming it, not an empty or internal answer', async ({ rig }) => {
  const shell = rig!.phone.shell;
  const held = shell.uiAutomationHeld;
  shell.uiAutomationHeld = () => true;
  // The rig's own engine: its server is not installed, so nothing of ours holds the connection.
  const engine = rig!.engineWith({ uiServer: 'off' });
  try {
    const r = (await engine.call('mobile_list_elements_on_screen', { device: rig!.phone.serial })) as { code?: string; message?: string };
    assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
    assert.match(String(r.message), 'another one holds it (an Appium or UiAutomator test');
  } finally {
    shell.uiAutomationHeld = held;
  }
});

if (hasAdb()) ui.run();
