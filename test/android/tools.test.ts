import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_CREDENTIALS, DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { writeApk } from '../harness/apk-builder.js';
import { hasAdb, startRig, until, type AndroidRig } from './setup.js';
import { stillCapture } from './still-capture.js';

const tools = suite<{ rig?: AndroidRig; tmp?: string }>('android tools through the real adb server');

tools.before(async (ctx) => {
  ctx.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-android-'));
  ctx.rig = await startRig();
});
tools.after(async (ctx) => {
  await ctx.rig?.stop();
  if (ctx.tmp) fs.rmSync(ctx.tmp, { recursive: true, force: true });
});

const elements = async (rig: AndroidRig) => (await rig.call('mobile_list_elements_on_screen')).elements as UiElement[];
const find = (els: UiElement[], id: string) => {
  const e = els.find((x) => x.id === id);
  if (!e) throw new Error(`no element ${id} in ${els.map((x) => x.id).join(', ')}`);
  return e;
};

tools('lists the emulated phone with model, version and ready state', async ({ rig }) => {
  const { devices } = (await rig!.engine.call('mobile_list_available_devices', {})) as { devices: unknown[] };
  assert.equal(devices, [{ id: rig!.phone.serial, os: 'Android', model: 'Virtual Pixel 8', version: '14', state: 'ready', source: 'android' }]);
});

tools('apps: list with labels; launch, foreground, terminate', async ({ rig }) => {
  const { apps } = (await rig!.call('mobile_list_apps')) as { apps: { package: string; name: string }[] };
  assert.ok(apps.some((a) => a.package === DEMO_PACKAGE && a.name === 'MobileBridge Demo'));
  assert.is((await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE })).status, 'success');
  assert.equal(await rig!.call('mobile_get_foreground_app'), { package: DEMO_PACKAGE });
  assert.is((await rig!.call('mobile_terminate_app', { packageName: DEMO_PACKAGE })).status, 'success');
  assert.is.not(rig!.phone.phone.foregroundPackage, DEMO_PACKAGE);
});

tools('APP_NOT_INSTALLED before launch, terminate, uninstall, clear — in one round trip each', async ({ rig }) => {
  for (const [tool, key] of [['mobile_launch_app', 'packageName'], ['mobile_terminate_app', 'packageName'], ['mobile_uninstall_app', 'bundle_id'], ['mobile_clear_app_data', 'packageName']]) {
    rig!.phone.stats.reset();
    const r = await rig!.call(tool, { [key]: 'com.example.absent' });
    assert.is(r.code, 'APP_NOT_INSTALLED', tool);
    assert.match(String(r.message), /com\.example\.absent is not installed/);
    assert.is(rig!.phone.stats.opened.length, 1, 'one round trip');
    assert.ok(rig!.phone.stats.opened[0].startsWith('exec:pm path com.example.absent && '), rig!.phone.stats.opened[0]);
  }
});

tools('sign in: elements, tap, type, submit; one round trip per listing, no process per tap', async ({ rig }) => {
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  let els = await elements(rig!);
  const email = find(els, 'email');
  assert.is(email.type, 'edittext');
  assert.is(email.class, 'android.widget.EditText');
  rig!.phone.stats.reset();
  await rig!.call('mobile_click_on_screen_at_coordinates', email.center);
  // Counted below only once the first tap's empty line (see below) has arrived.
  await until(() => rig!.phone.stats.monkeyInput.at(-1) === '\n', 'the first tap acknowledged');
  rig!.phone.stats.reset();
  await rig!.call('mobile_click_on_screen_at_coordinates', email.center);
  // The tap and the probe that confirms it was injected in one write, then the empty line that
  // acknowledges the first answer at once (monkey-channel.ts).
  assert.equal(rig!.phone.stats.opened, [], 'tap over the open monkey channel');
  const [x, y] = [email.center.x, email.center.y];
  // The empty line is written when the first answer arrives and may reach the phone after the call returned.
  await until(() => rig!.phone.stats.monkeyInput.length === 2, 'the empty line after the first answer');
  assert.equal(rig!.phone.stats.monkeyInput, [`tap ${x} ${y}\nsleep 0\n`, '\n']);
  rig!.phone.stats.reset();
  await elements(rig!);
  assert.is(rig!.phone.stats.roundTrips, 1, 'list elements');
  rig!.phone.stats.reset();
  const typed = await rig!.call('mobile_type_keys', { text: DEMO_CREDENTIALS.email });
  assert.is(typed.status, 'success');
  // Key events reach whatever is in front: the result does not claim a field took them.
  assert.match(String(typed.message), /; Android does not confirm that a text field took it/);
  assert.is(rig!.phone.phone.fieldValue('email'), DEMO_CREDENTIALS.email);
  // Typed over the monkey channel, confirmed by the probe: no `input` process.
  assert.equal(rig!.phone.stats.opened, []);
  await until(() => rig!.phone.stats.monkeyInput.length === 2, 'the empty line after the first answer');
  assert.equal(rig!.phone.stats.monkeyInput, [`type ${DEMO_CREDENTIALS.email}\nsleep 0\n`, '\n']);
  els = await elements(rig!);
  await rig!.call('mobile_click_on_screen_at_coordinates', find(els, 'password').center);
  await rig!.call('mobile_type_keys', { text: DEMO_CREDENTIALS.password, submit: true });
  // ENTER in the password field submits the form.
  assert.is.not(rig!.phone.phone.currentScreen, 'signin');
});

tools('text with shell metacharacters arrives exactly', async ({ rig }) => {
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  await rig!.call('mobile_click_on_screen_at_coordinates', find(await elements(rig!), 'email').center);
  const before = rig!.phone.phone.fieldValue('email');
  const text = `a'b "c" $HOME \`id\` & | ; ( ) < > * ? ~ # 100%s \\ end`;
  rig!.phone.stats.reset();
  await rig!.call('mobile_type_keys', { text });
  assert.is(rig!.phone.phone.fieldValue('email'), before + text);
  assert.ok(rig!.phone.stats.opened.some((s) => s.includes('input text')), 'monkey would lose the quotes: `input text` types it');
  // Monkey's line splitting would collapse the double space: `input text` again.
  rig!.phone.stats.reset();
  await rig!.call('mobile_type_keys', { text: 'two  spaces' });
  assert.is(rig!.phone.phone.fieldValue('email'), `${before}${text}two  spaces`);
  assert.ok(rig!.phone.stats.opened.some((s) => s.includes('input text')));
});


tools('screen: size, orientation round trip with swapped size, screenshot pixels equal the phone', async ({ rig }) => {
  assert.equal(await rig!.call('mobile_get_screen_size'), { width: 1080, height: 2400 });
  await rig!.call('mobile_set_orientation', { orientation: 'landscape' });
  assert.equal(await rig!.call('mobile_get_orientation'), { orientation: 'landscape' });
  assert.equal(await rig!.call('mobile_get_screen_size'), { width: 2400, height: 1080 });
  await rig!.call('mobile_set_orientation', { orientation: 'portrait' });
  assert.is(rig!.phone.phone.orientation, 'portrait');
  const { shot, phone } = await stillCapture(rig!, async () => (await rig!.call('mobile_take_screenshot')) as { image: string; dimensions: { width: number; height: number } });
  assert.equal(shot.dimensions, { width: 1080, height: 2400 });
  const decoded = await sharp(Buffer.from(shot.image, 'base64')).ensureAlpha().raw().toBuffer();
  assert.ok(decoded.equals(phone), 'raw path is lossless');
});

tools('a naturally landscape device (tablet, TV box): rotation 0 is landscape, so orientation is read and set from the natural size', async ({ rig }) => {
  const shell = rig!.phone.shell;
  shell.quirks.naturalLandscape = true;
  await rig!.phone.phone.setOrientation('landscape', { signal: new AbortController().signal });
  shell.settings.set('system/user_rotation', '0');
  // A new engine: the size it knows is read from this device's `wm size`.
  const engine = rig!.engineWith({});
  const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: rig!.phone.serial, ...params })) as Record<string, unknown>;
  try {
    assert.equal(await call('mobile_get_orientation'), { orientation: 'landscape' });
    assert.equal(await call('mobile_get_screen_size'), { width: 2400, height: 1080 });
    assert.is((await call('mobile_set_orientation', { orientation: 'portrait' })).status, 'success');
    assert.is(rig!.phone.phone.orientation, 'portrait');
    assert.is(shell.settings.get('system/user_rotation'), '1');
    assert.equal(await call('mobile_get_orientation'), { orientation: 'portrait' });
    assert.equal(await call('mobile_get_screen_size'), { width: 1080, height: 2400 });
    assert.is((await call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
    assert.is(rig!.phone.phone.orientation, 'landscape');
    assert.is(shell.settings.get('system/user_rotation'), '0');
  } finally {
    shell.quirks.naturalLandscape = false;
    shell.settings.set('system/user_rotation', '0');
    await rig!.phone.phone.setOrientation('portrait', { signal: new AbortController().signal });
  }
});

tools('set_orientation waits for the display to turn, and an app that fixes its orientation is reported, not passed off as rotated', async ({ rig }) => {
  const quirks = rig!.phone.shell.quirks;
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  quirks.rotationDelayMs = 300;
  try {
    assert.is((await rig!.call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
    assert.is(rig!.phone.phone.orientation, 'landscape', 'turned before the answer, not 300 ms after it');
    await rig!.call('mobile_set_orientation', { orientation: 'portrait' });
    quirks.fixedOrientation.set(DEMO_PACKAGE, 'portrait');
    const refused = await rig!.call('mobile_set_orientation', { orientation: 'landscape' });
    assert.is(refused.code, 'UNSUPPORTED', JSON.stringify(refused));
    assert.match(String(refused.message), `still shows portrait 2 s after rotation was locked to landscape: the app in front (${DEMO_PACKAGE}) fixes its orientation`);
    assert.is(rig!.phone.phone.orientation, 'portrait');
    // Under the lock screen (which keeps portrait on a phone) the app is not to blame.
    quirks.fixedOrientation.clear();
    quirks.locked = true;
    quirks.secureLock = true;
    const locked = await rig!.call('mobile_set_orientation', { orientation: 'landscape' });
    assert.is(locked.code, 'PERMISSION_DENIED', JSON.stringify(locked));
    assert.match(String(locked.message), 'still shows portrait 2 s after rotation was locked to landscape: the lock screen is showing, and it does not turn; unlock the phone');
    assert.is(rig!.phone.phone.orientation, 'portrait');
  } finally {
    quirks.locked = false;
    quirks.secureLock = false;
    quirks.rotationDelayMs = 0;
    quirks.fixedOrientation.clear();
    await rig!.call('mobile_set_orientation', { orientation: 'portrait' });
  }
});

tools('save screenshot: PNG or JPEG by the name, the raw capture encoded once on the host', async ({ rig, tmp }) => {
  // With `auto` a saved PNG may be the phone's own, as measured faster (whole-png.test.ts).
  const engine = rig!.engineWith({ screencap: 'raw' });
  rig!.phone.stats.reset();
  for (const [name, format] of [['shot.png', 'png'], ['shot.jpeg', 'jpeg']] as const) {
    const file = path.join(tmp!, name);
    assert.equal(await engine.call('mobile_save_screenshot', { device: rig!.phone.serial, saveTo: file }), { status: 'success', path: file });
    const meta = await sharp(file).metadata();
    assert.equal([meta.format, meta.width, meta.height], [format, 1080, 2400], name);
  }
  assert.ok(rig!.phone.stats.opened.filter((s) => s.startsWith('exec:screencap')).every((s) => !s.includes('-p')), 'raw screencap, not the phone\'s PNG');
});

tools('PNG screencap path and multi-display devices', async ({ rig }) => {
  rig!.phone.shell.quirks.secondDisplay = true;
  try {
    const engine = rig!.engineWith({ screencap: 'png' });
    const r = (await engine.call('mobile_take_screenshot', { device: rig!.phone.serial })) as { image: string; dimensions: unknown };
    assert.equal(r.dimensions, { width: 1080, height: 2400 });
    assert.ok(rig!.phone.stats.opened.some((s) => s.startsWith('exec:screencap -p -d 4619827259835644672')), 'captures the first display explicitly');
    assert.ok(Buffer.from(r.image, 'base64').subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])));
  } finally {
    rig!.phone.shell.quirks.secondDisplay = false;
  }
});

tools('uiautomator "null root node" is retried', async ({ rig }) => {
  rig!.phone.shell.quirks.nullRootDumps = 2;
  const els = await elements(rig!);
  assert.ok(els.length > 0);
  assert.is(rig!.phone.shell.quirks.nullRootDumps, 0);
});

tools('buttons, swipe, long press, double tap, URL, wifi', async ({ rig }) => {
  for (const button of ['BACK', 'HOME', 'VOLUME_UP', 'VOLUME_DOWN', 'ENTER']) assert.is((await rig!.call('mobile_press_button', { button })).status, 'success', button);
  assert.is(rig!.phone.phone.foregroundPackage, 'com.google.android.apps.nexuslauncher');
  assert.is((await rig!.call('mobile_open_url', { url: 'mbdemo://screen/home' })).status, 'success');
  assert.is(rig!.phone.phone.currentScreen, 'home');
  assert.is((await rig!.call('mobile_swipe_on_screen', { direction: 'up' })).status, 'success');
  assert.is((await rig!.call('mobile_long_press_on_screen_at_coordinates', { x: 540, y: 1200, duration: 600 })).status, 'success');
  assert.is((await rig!.call('mobile_double_tap_on_screen', { x: 540, y: 1200 })).status, 'success');
  assert.is((await rig!.call('mobile_open_url', { url: 'nohandler://x' })).code, 'INVALID_PARAMETER');
  await rig!.call('mobile_set_wifi', { enabled: false });
  assert.is(rig!.phone.phone.wifi, false);
  await rig!.call('mobile_set_wifi', { enabled: true });
  assert.is(rig!.phone.phone.wifi, true);
});

tools('a double tap is two taps inside GestureDetector\'s window: 40–300 ms from the first up to the second down', async ({ rig }) => {
  // GestureDetector.isConsideredDoubleTap: secondDown.getEventTime() - firstUp.getEventTime() within
  // [DOUBLE_TAP_MIN_TIME 40, DOUBLE_TAP_TIMEOUT 300], and the TAP message posted at the first down
  // (300 ms) still pending when the second down arrives.
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/home' });
  for (let round = 0; round < 3; round++) {
    rig!.phone.stats.reset();
    assert.is((await rig!.call('mobile_double_tap_on_screen', { x: 540, y: 1200 })).status, 'success');
    const taps = rig!.phone.stats.monkeyTaps;
    assert.is(taps.length, 2, JSON.stringify(taps));
    assert.equal([taps[0].x, taps[0].y, taps[1].x, taps[1].y], [540, 1200, 540, 1200]);
    const gap = taps[1].down - taps[0].up;
    assert.ok(gap >= 40 && gap <= 300, `first up to second down: ${gap.toFixed(1)} ms`);
    assert.ok(taps[1].down - taps[0].down < 300, `first down to second down: ${(taps[1].down - taps[0].down).toFixed(1)} ms`);
  }
});

tools('a point between pixels (an agent\'s x + width / 2) goes to monkey as whole pixels, which its Integer.parseInt reads', async ({ rig }) => {
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/home' });
  rig!.phone.stats.reset();
  assert.is((await rig!.call('mobile_double_tap_on_screen', { x: 540.5, y: 1199.6 })).status, 'success');
  const taps = rig!.phone.stats.monkeyTaps;
  assert.equal(taps.map((t) => [t.x, t.y]), [[541, 1200], [541, 1200]], 'both taps went through monkey');
  assert.ok(taps[1].down - taps[0].up <= 300, 'inside the double-tap window');
  assert.not.ok(rig!.phone.stats.opened.some((c) => c.includes('input tap')), rig!.phone.stats.opened.join('\n'));
});

tools('install through adbkit, uninstall, system apps refuse, SecurityException → PERMISSION_DENIED', async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.fresh', label: 'Fresh', versionName: '2.0' });
  const r = await rig!.call('mobile_install_app', { path: apk });
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.ok(rig!.phone.phone.installedApps.some((a) => a.package === 'com.example.fresh'));
  assert.is((await rig!.call('mobile_install_app', { path: path.join(tmp!, 'missing.apk') })).code, 'INVALID_PARAMETER');
  assert.is((await rig!.call('mobile_uninstall_app', { bundle_id: 'com.example.fresh' })).status, 'success');
  assert.is((await rig!.call('mobile_uninstall_app', { bundle_id: 'com.android.settings' })).code, 'PERMISSION_DENIED');
  rig!.phone.shell.quirks.securityDenied.add(DEMO_PACKAGE);
  try {
    assert.is((await rig!.call('mobile_clear_app_data', { packageName: DEMO_PACKAGE })).code, 'PERMISSION_DENIED');
  } finally {
    rig!.phone.shell.quirks.securityDenied.clear();
  }
  assert.is((await rig!.call('mobile_clear_app_data', { packageName: DEMO_PACKAGE })).status, 'success');
});

tools('a relaunch is one am start; an app removed behind our back is reported not installed', async ({ rig, tmp }) => {
  const pkg = 'com.example.relaunch';
  assert.is((await rig!.call('mobile_install_app', { path: writeApk(tmp!, { package: pkg, label: 'Relaunch', versionName: '1.0' }) })).status, 'success');
  assert.is((await rig!.call('mobile_launch_app', { packageName: pkg })).status, 'success');
  assert.is(rig!.phone.phone.foregroundPackage, pkg);
  await rig!.call('mobile_terminate_app', { packageName: pkg });
  rig!.phone.stats.reset();
  assert.is((await rig!.call('mobile_launch_app', { packageName: pkg })).status, 'success');
  assert.is(rig!.phone.phone.foregroundPackage, pkg);
  assert.equal(rig!.phone.stats.opened, [`exec:am start -W -n ${pkg}/.MainActivity -a android.intent.action.MAIN -c android.intent.category.LAUNCHER`]);
  // Removed on the phone, not through us: the remembered activity fails, and the device's answer is asked again.
  await rig!.phone.shell.run(`pm uninstall ${pkg}`);
  const r = await rig!.call('mobile_launch_app', { packageName: pkg });
  assert.is(r.code, 'APP_NOT_INSTALLED', JSON.stringify(r));
  assert.is.not(rig!.phone.phone.foregroundPackage, pkg);
  // Installed again through us: resolved afresh, no failed start first.
  assert.is((await rig!.call('mobile_install_app', { path: writeApk(tmp!, { package: pkg, label: 'Relaunch', versionName: '1.1' }) })).status, 'success');
  rig!.phone.stats.reset();
  assert.is((await rig!.call('mobile_launch_app', { packageName: pkg })).status, 'success');
  assert.match(rig!.phone.stats.opened[0], `exec:pm path ${pkg} && cmd package resolve-activity`);
  assert.is(rig!.phone.stats.opened.length, 2);
  assert.is((await rig!.call('mobile_uninstall_app', { bundle_id: pkg })).status, 'success');
});

tools('without the monkey channel every gesture falls back to input', async ({ rig }) => {
  rig!.phone.adbd.faults.refuse = /^tcp:|monkey --port/;
  try {
    const engine = rig!.engineWith({});
    rig!.phone.stats.reset();
    const r = await engine.call('mobile_click_on_screen_at_coordinates', { device: rig!.phone.serial, x: 10, y: 10 });
    assert.is((r as { status: string }).status, 'success');
    assert.ok(rig!.phone.stats.opened.includes('exec:input tap 10 10'));
  } finally {
    rig!.phone.adbd.faults.refuse = undefined;
  }
});

if (hasAdb()) tools.run();
