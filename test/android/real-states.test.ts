import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { writeApk } from '../harness/apk-builder.js';
import { EmulatedPhone } from '../harness/adbd/emulated-phone.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** The states real Android phones get into (issue 15), reproduced in the emulated adbd. */
const states = suite<{ rig?: AndroidRig; extra: EmulatedPhone[]; tmp?: string }>('android real-world states', { extra: [] });

states.before(async (ctx) => {
  ctx.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-android-states-'));
  ctx.rig = await startRig();
});
states.after(async (ctx) => {
  await ctx.rig?.stop();
  await Promise.all(ctx.extra.map((p) => p.close()));
  if (ctx.tmp) fs.rmSync(ctx.tmp, { recursive: true, force: true });
});

states('injection forbidden (MIUI): monkey says OK then dies; taps and typing are PERMISSION_DENIED naming the setting', async ({ rig }) => {
  const shell = rig!.phone.shell;
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await rig!.call('mobile_click_on_screen_at_coordinates', { x: 5, y: 5 });
  shell.quirks.injectionDenied = true;
  try {
    const screenBefore = rig!.phone.phone.currentScreen;
    for (const [tool, params] of [
      ['mobile_click_on_screen_at_coordinates', { x: 540, y: 1100 }],
      ['mobile_click_on_screen_at_coordinates', { x: 540, y: 1100 }],
      ['mobile_swipe_on_screen', { direction: 'up' }],
      ['mobile_press_button', { button: 'BACK' }],
      ['mobile_type_keys', { text: 'hello' }],
    ] as const) {
      const r = await rig!.call(tool, params);
      assert.is(r.code, 'PERMISSION_DENIED', `${tool}: ${JSON.stringify(r)}`);
      assert.match(String(r.message), /USB debugging \(Security settings\)/);
    }
    assert.is(rig!.phone.phone.currentScreen, screenBefore, 'nothing happened on the phone');
  } finally {
    shell.quirks.injectionDenied = false;
  }
  // Once the setting is on, input works again without reconnecting.
  assert.is((await rig!.call('mobile_press_button', { button: 'HOME' })).status, 'success');
  assert.is(rig!.phone.phone.foregroundPackage, 'com.google.android.apps.nexuslauncher');
});

states('injection forbidden, typing first: monkey accepts the text, dies, and the answer is still PERMISSION_DENIED', async ({ rig }) => {
  // A new engine: its monkey channel has not died yet, so the text goes to monkey's `type` first.
  const engine = rig!.engineWith({});
  const call = async (tool: string, params: object) => (await engine.call(tool, { device: rig!.phone.serial, ...params })) as Record<string, unknown>;
  await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const email = ((await call('mobile_list_elements_on_screen', {})).elements as { id: string; center: object }[]).find((e) => e.id === 'email');
  await call('mobile_click_on_screen_at_coordinates', email!.center);
  const before = rig!.phone.phone.fieldValue('email');
  rig!.phone.shell.quirks.injectionDenied = true;
  try {
    rig!.phone.stats.reset();
    const r = await call('mobile_type_keys', { text: 'hello world' });
    assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
    assert.match(String(r.message), /USB debugging \(Security settings\)/);
    // (The tap's acknowledging empty line may arrive after the reset, so look for the line rather than at the first chunk.)
    assert.ok(rig!.phone.stats.monkeyInput.includes('type "hello world"\nsleep 0\n'), `monkey was asked first: ${JSON.stringify(rig!.phone.stats.monkeyInput)}`);
    assert.is(rig!.phone.phone.fieldValue('email'), before, 'nothing was typed');
  } finally {
    rig!.phone.shell.quirks.injectionDenied = false;
  }
});

states('Wi-Fi a device policy keeps as it is: cmd wifi exits 0 without switching, and the tool says so instead of success', async ({ rig }) => {
  const shell = rig!.phone.shell;
  assert.is((await rig!.call('mobile_set_wifi', { enabled: true })).status, 'success');
  shell.quirks.wifiRefused = true;
  try {
    const r = await rig!.call('mobile_set_wifi', { enabled: false });
    assert.is(r.status, 'error', JSON.stringify(r));
    assert.match(String(r.message), /still on 3 s after switching it off .*device policy or user restriction/);
    assert.is(rig!.phone.phone.wifi, true, 'nothing changed on the phone');
  } finally {
    shell.quirks.wifiRefused = false;
  }
  assert.is((await rig!.call('mobile_set_wifi', { enabled: false })).status, 'success');
  assert.is(rig!.phone.phone.wifi, false);
  await rig!.call('mobile_set_wifi', { enabled: true });
});

states('refused installs name the reason and a SPEC code, never INTERNAL', async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.refused', label: 'Refused' });
  const cases: [string, string, RegExp][] = [
    ['INSTALL_PARSE_FAILED_NO_CERTIFICATES: Failed collecting certificates for /data/app/vmdl1.tmp/base.apk', 'INVALID_PARAMETER', /not signed/],
    ['INSTALL_FAILED_DEPRECATED_SDK_VERSION: App package must target at least SDK version 23, but found 22', 'UNSUPPORTED', /targetSdkVersion 23/],
    ['INSTALL_FAILED_INSUFFICIENT_STORAGE', 'UNSUPPORTED', /enough free storage/],
    ['INSTALL_FAILED_USER_RESTRICTED: Install canceled by user', 'PERMISSION_DENIED', /Install via USB/],
    ['INSTALL_FAILED_UPDATE_INCOMPATIBLE: Package com.example.refused signatures do not match', 'INVALID_PARAMETER', /another key/],
    // PackageManager.installStatusToString names, with the detail the package manager adds after the colon.
    ['INSTALL_FAILED_CONFLICTING_PROVIDER: Scanning Failed.: Can\'t install because provider name com.example.files (in package com.example.refused) is already used by com.example.other', 'INVALID_PARAMETER', /content provider authorit/],
    ['INSTALL_FAILED_DUPLICATE_PERMISSION: Package com.example.refused attempting to redeclare permission com.example.C2D_MESSAGE already owned by com.example.other', 'INVALID_PARAMETER', /permission/],
    ['INSTALL_FAILED_MISSING_SPLIT: Missing split for com.example.refused', 'INVALID_PARAMETER', /split/],
    ['INSTALL_FAILED_VERIFICATION_TIMEOUT', 'PERMISSION_DENIED', /verifier/],
  ];
  for (const [failure, code, reason] of cases) {
    rig!.phone.shell.quirks.installFailure = failure;
    const r = await rig!.call('mobile_install_app', { path: apk });
    assert.is(r.code, code, `${failure}: ${JSON.stringify(r)}`);
    assert.match(String(r.message), reason);
    assert.match(String(r.message), failure.split(':')[0]);
  }
});

states('launch without monkey: works where monkey aborts on "SYS_KEYS has no physical keys"; a failed start is reported', async ({ rig }) => {
  rig!.phone.shell.quirks.noPhysicalKeys = true;
  try {
    await rig!.call('mobile_press_button', { button: 'HOME' });
    assert.is((await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE })).status, 'success');
    assert.is(rig!.phone.phone.foregroundPackage, DEMO_PACKAGE);
    assert.ok(rig!.phone.stats.opened.some((s) => s.includes('am start -W -n') && s.includes(`${DEMO_PACKAGE}/.MainActivity`)));
  } finally {
    rig!.phone.shell.quirks.noPhysicalKeys = false;
  }
  // A package with no launcher activity (Settings has none in the emulation's query) is a clear error, not success.
  const r = await rig!.call('mobile_launch_app', { packageName: 'com.android.settings' });
  if (r.status !== 'success') {
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(String(r.message), /no launcher activity/);
  }
});

states('an app with two launcher activities (a debug build with LeakCanary) starts its own, not the package manager\'s chooser', async ({ rig }) => {
  const shell = rig!.phone.shell;
  shell.quirks.secondLauncher.set(DEMO_PACKAGE, 'leakcanary.internal.activity.LeakLauncherActivity');
  // A new engine: nothing remembered, so the launcher activity is resolved on the phone.
  const engine = rig!.engineWith({});
  try {
    await engine.call('mobile_press_button', { device: rig!.phone.serial, button: 'HOME' });
    const r = (await engine.call('mobile_launch_app', { device: rig!.phone.serial, packageName: DEMO_PACKAGE })) as { status: string };
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.is(rig!.phone.phone.foregroundPackage, DEMO_PACKAGE, 'the app is in front, not a chooser over the launcher');
    assert.not.ok(rig!.phone.stats.opened.some((s) => s.includes('am start') && s.includes('ResolverActivity')), 'the chooser was never started');
  } finally {
    shell.quirks.secondLauncher.clear();
  }
});

states('a disabled app (Settings › Apps › Disable) is said to be disabled, with how to enable it, not "use mobile_open_url"', async ({ rig }) => {
  const shell = rig!.phone.shell;
  const launched = await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  assert.is(launched.status, 'success', JSON.stringify(launched));
  shell.quirks.disabledApps.add(DEMO_PACKAGE);
  try {
    // Its launcher activity is remembered from the launch before: `am` now says it does not exist, and it is resolved afresh.
    const r = await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(String(r.message), `${DEMO_PACKAGE} is installed on ${rig!.phone.serial} but disabled, so it cannot start; enable it in Settings › Apps`);
    assert.not.match(String(r.message), 'mobile_open_url');
    const apps = (await rig!.call('mobile_list_apps')) as unknown as { apps: { packageName: string }[] };
    assert.not.ok(JSON.stringify(apps).includes(DEMO_PACKAGE), 'the launcher does not show it');
  } finally {
    shell.quirks.disabledApps.clear();
  }
  const again = await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  assert.is(again.status, 'success', JSON.stringify(again));
});

states('uninstalling an updated system app (Chrome) removes only its update: reported as not uninstalled, not as success', async ({ rig }) => {
  const shell = rig!.phone.shell;
  shell.quirks.updatedSystemApps.add('com.android.chrome');
  try {
    const r = await rig!.call('mobile_uninstall_app', { bundle_id: 'com.android.chrome' });
    assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
    assert.match(String(r.message), 'removed only the updates of com.android.chrome: it is a system app, and the version the phone came with stays installed');
    assert.ok(rig!.phone.phone.installedApps.some((a) => a.package === 'com.android.chrome'), 'still installed');
    // Without the update it is a plain system app, which pm refuses outright.
    const again = await rig!.call('mobile_uninstall_app', { bundle_id: 'com.android.chrome' });
    assert.is(again.code, 'PERMISSION_DENIED', JSON.stringify(again));
    assert.match(String(again.message), 'refuses to uninstall com.android.chrome (a system or device-admin app): Failure [DELETE_FAILED_INTERNAL_ERROR]');
  } finally {
    shell.quirks.updatedSystemApps.clear();
  }
});

states('an uninstall a device owner blocks (Failure [DELETE_FAILED_OWNER_BLOCKED]) is PERMISSION_DENIED naming the policy, not INTERNAL', async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.managed', label: 'Managed' });
  assert.is((await rig!.call('mobile_install_app', { path: apk })).status, 'success');
  rig!.phone.shell.quirks.uninstallFailure = 'DELETE_FAILED_OWNER_BLOCKED';
  const r = await rig!.call('mobile_uninstall_app', { bundle_id: 'com.example.managed' });
  assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
  assert.match(String(r.message), /device management .*Failure \[DELETE_FAILED_OWNER_BLOCKED\]/);
  assert.is((await rig!.call('mobile_uninstall_app', { bundle_id: 'com.example.managed' })).status, 'success', 'removable once the block is lifted');
});

states('a stuck device is listed as not responding and never hides or holds up a healthy one', async ({ rig, extra }) => {
  const stuck = await EmulatedPhone.start();
  extra.push(stuck);
  await rig!.server.connect(stuck.serial);
  stuck.adbd.faults.stall = /^(exec|shell):/;
  // The stuck phone costs the listing its probe deadline (half the call timeout) and its call the call timeout.
  const engine = rig!.engineWith({}, 2500);
  try {
    const { devices } = (await engine.call('mobile_list_available_devices', {})) as { devices: { id: string; state: string; message?: string }[] };
    const healthy = devices.find((d) => d.id === rig!.phone.serial);
    const frozen = devices.find((d) => d.id === stuck.serial);
    assert.is(healthy?.state, 'ready', JSON.stringify(devices));
    assert.is(frozen?.state, 'offline', JSON.stringify(devices));
    assert.match(frozen!.message ?? '', /not responding/);
    assert.equal(await engine.call('mobile_get_screen_size', { device: rig!.phone.serial }), { width: 1080, height: 2400 });
    const r = (await engine.call('mobile_get_screen_size', { device: stuck.serial })) as { code: string };
    assert.is(r.code, 'TIMEOUT');
  } finally {
    stuck.adbd.faults.stall = undefined;
    await rig!.server.disconnect(stuck.serial);
  }
});

states('screen off: woken before a tap, which then happens; listing after sleep wakes it instead of failing', async ({ rig }) => {
  const q = rig!.phone.shell.quirks;
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  // A fresh driver has not seen the screen awake, as one past the window in which an awake screen is
  // trusted (the swipe-lock test waits that window out).
  const engine = rig!.engineWith({});
  q.screenOff = true;
  const r = (await engine.call('mobile_list_elements_on_screen', { device: rig!.phone.serial })) as Record<string, unknown>;
  assert.ok(Array.isArray(r.elements), JSON.stringify(r));
  assert.not.ok(q.screenOff, 'woken with KEYCODE_WAKEUP');
  assert.ok(rig!.phone.stats.opened.some((s) => s.includes('input keyevent 224')));
});

states('a screen that never settles (uiautomator: "could not get idle state"): one dump, then UNSUPPORTED saying why, not retries ending in INTERNAL', async ({ rig }) => {
  const q = rig!.phone.shell.quirks;
  const engine = rig!.engineWith({ uiServer: 'off' });
  await engine.call('mobile_get_screen_size', { device: rig!.phone.serial });
  const before = rig!.phone.stats.opened.filter((s) => s.includes('uiautomator dump')).length;
  q.neverIdle = true;
  try {
    const r = (await engine.call('mobile_list_elements_on_screen', { device: rig!.phone.serial })) as { code: string; message: string };
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /could not get idle state/);
    assert.is(rig!.phone.stats.opened.filter((s) => s.includes('uiautomator dump')).length - before, 1, 'each dump waits 10 s on a phone: not asked again');
  } finally {
    q.neverIdle = false;
  }
});

states('Android\'s app error dialogs (crashed, not responding): the listing and a verb that misses its target say what shows and how to close it', async ({ rig }) => {
  const q = rig!.phone.shell.quirks;
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  try {
    q.appError = { kind: 'crash', label: 'MobileBridge Demo' };
    const crashed = (await rig!.call('mobile_list_elements_on_screen')) as { elements: { text?: string }[]; note?: string };
    assert.ok(crashed.elements.some((e) => e.text === 'Close app'), JSON.stringify(crashed.elements));
    assert.match(String(crashed.note), /app error dialog \("MobileBridge Demo keeps stopping"\): the app crashed/);
    assert.match(String(crashed.note), /tap "Close app"/);
    const verbs = await verbContext({ engine: rig!.engine, device: rig!.phone.serial, targetWaitMs: 300 });
    const missed = await runVerb(verbs, { action: 'tap', target: 'the Sign in button' });
    assert.is(missed.error?.code, 'ELEMENT_NOT_FOUND', JSON.stringify(missed));
    assert.match(missed.message, /the app crashed, and nothing reaches it until the dialog is closed/);
    assert.is(missed.message.split('the app crashed').length, 2, `said once, not with the generic dialog advice too: ${missed.message}`);
    assert.not.match(missed.message, /grant_permission/);

    q.appError = { kind: 'anr', label: 'MobileBridge Demo' };
    const stuck = (await rig!.call('mobile_list_elements_on_screen')) as { note?: string };
    assert.match(String(stuck.note), /"not responding" dialog \("MobileBridge Demo isn't responding"\)/);
    assert.match(String(stuck.note), /tap "Wait" to give it more time or "Close app"/);

    q.appError = undefined;
    const back = (await rig!.call('mobile_list_elements_on_screen')) as { note?: string };
    assert.is(back.note, undefined, 'no note once the dialog is gone');
  } finally {
    q.appError = undefined;
  }
});

states('swipe lock: dismissed, and the tap reaches the app; secure lock: a clear "locked" error, no fake success', async ({ rig }) => {
  const q = rig!.phone.shell.quirks;
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const email = (await rig!.call('mobile_list_elements_on_screen')).elements as { id: string; center: { x: number; y: number } }[];
  const field = email.find((e) => e.id === 'email')!;
  await new Promise((r) => setTimeout(r, 5100)); // past the window in which an awake screen is trusted
  q.screenOff = true;
  q.locked = true;
  assert.is((await rig!.call('mobile_click_on_screen_at_coordinates', field.center)).status, 'success');
  assert.not.ok(q.locked || q.screenOff);
  assert.ok(rig!.phone.phone.keyboardVisible, 'the tap reached the field');

  // The window was waited out once above; a fresh driver has not seen the screen awake either.
  const engine = rig!.engineWith({});
  q.screenOff = true;
  q.locked = true;
  q.secureLock = true;
  const stateReads = () => rig!.phone.stats.opened.filter((s) => s.includes('dumpsys power')).length;
  try {
    for (const [tool, params] of [['mobile_click_on_screen_at_coordinates', field.center], ['mobile_type_keys', { text: 'x' }], ['mobile_list_elements_on_screen', {}]] as const) {
      const before = stateReads();
      const r = (await engine.call(tool, { device: rig!.phone.serial, ...params })) as Record<string, unknown>;
      assert.is(r.code, 'PERMISSION_DENIED', `${tool}: ${JSON.stringify(r)}`);
      assert.match(String(r.message), /is locked with a PIN, pattern or password/);
      assert.match(String(r.message), /unlock it by hand/);
      // Nothing we send removes a PIN: one read (two when the screen had to be woken first), not a second of retries.
      assert.ok(stateReads() - before <= 2, `${tool}: ${stateReads() - before} screen-state reads for a refusal`);
    }
  } finally {
    Object.assign(q, { screenOff: false, locked: false, secureLock: false });
  }
});

states('an app shown over a secure lock screen (camera, a call, showWhenLocked) takes the tap: not refused as locked', async ({ rig }) => {
  const q = rig!.phone.shell.quirks;
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const field = ((await rig!.call('mobile_list_elements_on_screen')).elements as { id: string; center: { x: number; y: number } }[]).find((e) => e.id === 'email')!;
  Object.assign(q, { locked: true, secureLock: true, lockOccluded: true });
  // A fresh driver checks the screen before its first input.
  const engine = rig!.engineWith({});
  try {
    const r = (await engine.call('mobile_click_on_screen_at_coordinates', { device: rig!.phone.serial, ...field.center })) as { status?: string };
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.ok(rig!.phone.phone.keyboardVisible, 'the tap reached the field');
  } finally {
    Object.assign(q, { locked: false, secureLock: false, lockOccluded: false });
  }
});

states('wm size override: screenshot, screen size and element centres share one pixel space, and taps hit', async ({ rig }) => {
  const q = rig!.phone.shell.quirks;
  q.wmOverride = { width: 720, height: 1600 };
  const engine = rig!.engineWith({}); // a fresh driver reads wm size anew
  const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: rig!.phone.serial, ...params })) as Record<string, any>;
  try {
    await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
    await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
    assert.equal(await call('mobile_get_screen_size'), { width: 720, height: 1600 });
    const shot = await call('mobile_take_screenshot');
    assert.equal(shot.dimensions, { width: 720, height: 1600 }, 'screencap at the wm size');
    const els = (await call('mobile_list_elements_on_screen')).elements as { id: string; center: { x: number; y: number }; x: number; width: number }[];
    const email = els.find((e) => e.id === 'email')!;
    assert.ok(email.x + email.width <= 720, JSON.stringify(email));
    await call('mobile_click_on_screen_at_coordinates', email.center);
    assert.ok(rig!.phone.phone.keyboardVisible, 'the centre from the listing hit the field');
    await call('mobile_press_button', { button: 'BACK' });
  } finally {
    q.wmOverride = undefined;
  }
});

if (hasAdb()) states.run();
