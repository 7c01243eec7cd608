import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AndroidDevice } from '../../src/engine/drivers/android/android-device.js';
import { parseDisplayManagerSize } from '../../src/engine/drivers/android/display-manager-dump.js';
import { isToolFailure } from '../../src/engine/errors.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { writeApk } from '../harness/apk-builder.js';
import { UIA2_PACKAGES } from '../harness/adbd/uia2-service.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** More of a device that lacks commands a phone has (absent-commands.ts): what the fallbacks of absent-apps and absent-screens left. */
const more = suite<{ rig?: AndroidRig }>('android on a device that lacks more commands');

more.before(async (ctx) => {
  ctx.rig = await startRig();
});
more.after(async (ctx) => {
  await ctx.rig?.stop();
});
more.after.each(async ({ rig }) => {
  await rig!.phone.uia2.stop();
  const quirks = rig!.phone.shell.quirks;
  quirks.absent.clear();
  quirks.noPhysicalKeys = false;
  quirks.wmOverride = undefined;
  await rig!.phone.phone.setOrientation('portrait', { signal: new AbortController().signal });
});

const caller = (rig: AndroidRig, options: object = {}) => {
  const engine = rig.engineWith(options);
  return async (tool: string, params: object = {}) => (await engine.call(tool, { device: rig.phone.serial, ...params })) as Record<string, unknown>;
};

more('without screencap, screenshots and saved ones are UNSUPPORTED naming the missing command, not an unreadable PNG', async ({ rig }) => {
  rig!.phone.shell.quirks.absent.add('screencap');
  const call = caller(rig!);
  for (const [tool, params] of [['mobile_take_screenshot', {}], ['mobile_save_screenshot', { saveTo: '/tmp/mb-absent-more-never.png' }]] as const) {
    const r = await call(tool, params);
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(String(r.message), 'has no screencap ("/system/bin/sh: screencap: inaccessible or not found")');
  }
});

more('without uiautomator, a listing is UNSUPPORTED naming the missing command (no retry helps), not INTERNAL', async ({ rig }) => {
  rig!.phone.shell.quirks.absent.add('uiautomator');
  const before = rig!.phone.stats.opened.filter((s) => s.includes('uiautomator dump')).length;
  const r = await caller(rig!, { uiServer: 'off' })('mobile_list_elements_on_screen');
  assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
  assert.match(String(r.message), 'has no uiautomator ("/system/bin/sh: uiautomator: inaccessible or not found")');
  assert.is(rig!.phone.stats.opened.filter((s) => s.includes('uiautomator dump')).length - before, 1, 'asked once');
});

more('a device that names no launcher activity and has no physical keys (monkey\'s SYS_KEYS check) still launches through monkey', async ({ rig }) => {
  const quirks = rig!.phone.shell.quirks;
  for (const command of ['cmd package resolve-activity', 'cmd package query-activities']) quirks.absent.add(command);
  quirks.noPhysicalKeys = true;
  await rig!.phone.shell.phone.launchApp('com.google.android.apps.nexuslauncher', { signal: AbortSignal.timeout(5_000) });
  rig!.phone.stats.reset();
  const r = await caller(rig!)('mobile_launch_app', { packageName: 'com.android.settings' });
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.is(rig!.phone.phone.foregroundPackage, 'com.android.settings');
  // The plain command first (the one every monkey takes), then without system keys once it refused for their want.
  const monkeys = rig!.phone.stats.opened.filter((s) => s.includes('monkey'));
  assert.equal(monkeys.map((s) => s.includes('--pct-syskeys 0')), [false, true], monkeys.join('\n'));
});

more('install sessions that take no streamed APK (install-create works, install-write - does not): the session is abandoned and the APK pushed and installed', async ({ rig }) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-absent-more-'));
  try {
    const shell = rig!.phone.shell;
    for (const command of ['pm install-write', 'cmd package install-write']) shell.quirks.absent.add(command);
    const r = await caller(rig!)('mobile_install_app', { path: writeApk(tmp, { package: 'com.example.unstreamed', label: 'Unstreamed', versionName: '1' }) });
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.ok(shell.phone.installedApps.some((a) => a.package === 'com.example.unstreamed'));
    assert.is(shell.installSessions.open.size, 0, 'the session was abandoned');
    assert.equal(rig!.phone.files.list('/data/local/tmp'), [], 'no APK copy left');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

more('while our UiAutomator2 server holds the UiAutomation connection, a device without dumpsys activity and dumpsys window reads the app in front from the server\'s source', async ({ rig }) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-absent-more-'));
  try {
    const uiServerApks = {
      server: writeApk(tmp, { package: UIA2_PACKAGES[0], label: 'Appium Settings' }, 'appium-uiautomator2-server-v7.0.0.apk'),
      test: writeApk(tmp, { package: UIA2_PACKAGES[1] }, 'appium-uiautomator2-server-debug-androidTest.apk'),
    };
    const engine = rig!.engineWith({ uiServerApks });
    const serial = rig!.phone.serial;
    const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: serial, ...params })) as Record<string, unknown>;
    assert.ok(await engine.withDevice(serial, 'starting the UiAutomator2 server', async (d) => (await (d as AndroidDevice).uiServer?.ready()) ?? false));
    assert.ok(rig!.phone.uia2.holdsUiAutomation, 'the server holds the connection, so uiautomator dump cannot run');
    for (const command of ['dumpsys activity', 'dumpsys window']) rig!.phone.shell.quirks.absent.add(command);
    rig!.phone.shell.quirks.startIgnoresWait = true;
    await rig!.phone.shell.phone.launchApp('com.google.android.apps.nexuslauncher', { signal: AbortSignal.timeout(5_000) });
    const launched = await call('mobile_launch_app', { packageName: 'com.android.settings' });
    assert.is(launched.status, 'success', JSON.stringify(launched));
    assert.not.match(String(launched.message), 'not confirmed');
    assert.equal(await call('mobile_get_foreground_app'), { package: 'com.android.settings' });
  } finally {
    rig!.phone.shell.quirks.startIgnoresWait = false;
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

more('without wm, screen size, screenshots, listings and taps take the size from dumpsys display, turned back to natural, an override included', async ({ rig }) => {
  const quirks = rig!.phone.shell.quirks;
  quirks.absent.add('wm');
  const engine = rig!.engineWith({ uiServer: 'off' });
  const serial = rig!.phone.serial;
  const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: serial, ...params })) as Record<string, unknown>;
  assert.equal(await call('mobile_get_screen_size'), { width: 1080, height: 2400 });
  const shot = await new LocalBackend(engine).screenshot(serial, { maxSize: 400 });
  if (isToolFailure(shot)) throw new Error(`${shot.code}: ${shot.message}`);
  assert.equal([shot.deviceWidth, shot.deviceHeight], [1080, 2400]);
  const listed = await call('mobile_list_elements_on_screen');
  assert.ok(Array.isArray(listed.elements), JSON.stringify(listed));
  assert.is((await call('mobile_click_on_screen_at_coordinates', { x: 540, y: 1200 })).status, 'success');
  await rig!.phone.phone.setOrientation('landscape', { signal: new AbortController().signal });
  assert.equal(await call('mobile_get_screen_size'), { width: 2400, height: 1080 });
  const before = rig!.phone.stats.opened.filter((s) => /\bwm size\b/.test(s)).length;
  quirks.wmOverride = { width: 720, height: 1600 };
  await rig!.phone.phone.setOrientation('portrait', { signal: new AbortController().signal });
  assert.equal(await engine.withDevice(serial, 'size', (d, ctx) => (d as AndroidDevice).screenSize(ctx)), { width: 720, height: 1600 });
  assert.is(rig!.phone.stats.opened.filter((s) => /\bwm size\b/.test(s)).length, before, 'wm size is not asked again once it printed no size');
});

more('display 0\'s size in dumpsys display is its override\'s real size turned back by its rotation; a base info alone shows none', () => {
  const dump = (override: string) => ['Logical Displays: size=1', '  Display 0:', '    mBaseDisplayInfo=DisplayInfo{"Built-in Screen", app 1080 x 2160, real 1080 x 2160, rotation 0, state ON}', `    mOverrideDisplayInfo=${override}`].join('\n');
  assert.equal(parseDisplayManagerSize(dump('DisplayInfo{"Built-in Screen", app 2160 x 1080, real 2160 x 1080, largest app 2160 x 2028, rotation 3, state ON}')), { width: 1080, height: 2160 });
  assert.equal(parseDisplayManagerSize(dump('DisplayInfo{"Built-in Screen", app 1080 x 2028, real 1080 x 2160, largest app 2160 x 2028, rotation 0, state ON}')), { width: 1080, height: 2160 });
  assert.is(parseDisplayManagerSize(dump('null')), undefined);
  assert.is(parseDisplayManagerSize("Can't find service: display\n"), undefined);
});

if (hasAdb()) more.run();
