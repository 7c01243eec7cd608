import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AndroidDevice } from '../../src/engine/drivers/android/android-device.js';
import type { Engine } from '../../src/engine/engine.js';
import { isToolFailure } from '../../src/engine/errors.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { parseDisplayManagerAwake, parseDisplayManagerRotation } from '../../src/engine/drivers/android/display-manager-dump.js';
import { parseHierarchyRotation } from '../../src/engine/drivers/android/shown-rotation.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** The screen side on a device that lacks commands a phone has (absent-commands.ts, quirks rawScreencap and absent). */
const absent = suite<{ rig?: AndroidRig }>('android screens on a device that lacks commands');

absent.before(async (ctx) => {
  ctx.rig = await startRig();
});
absent.after(async (ctx) => {
  await ctx.rig?.stop();
});
absent.after.each(async ({ rig }) => {
  const shell = rig!.phone.shell;
  delete shell.quirks.rawScreencap;
  shell.quirks.absent.clear();
  shell.quirks.fixedOrientation.clear();
  shell.quirks.screenOff = false;
  shell.settings.set('system/user_rotation', '0');
  await rig!.phone.phone.setOrientation('portrait', { signal: new AbortController().signal });
});

const handle = (engine: Engine, serial: string) => engine.withDevice(serial, 'inspect', async (d) => d as AndroidDevice);
const rawAsked = (rig: AndroidRig) => rig.phone.stats.opened.filter((s) => /^exec:screencap( -d \S+)? 2>/.test(s)).length;

for (const kind of ['png', 'refused'] as const) {
  absent(`raw screencap answered ${kind === 'png' ? 'with a PNG' : 'with a usage error'}: agents' screenshots, saved ones and viewer frames are the phone's PNG, and raw is not asked again`, async ({ rig }) => {
    rig!.phone.shell.quirks.rawScreencap = kind;
    const serial = rig!.phone.serial;
    const dir = await mkdtemp(join(tmpdir(), 'mb-absent-'));
    try {
      for (const screencap of ['auto', 'raw'] as const) {
        const engine = rig!.engineWith({ screencap });
        const before = rawAsked(rig!);
        const shot = await new LocalBackend(engine).screenshot(serial, { maxSize: 400 });
        if (isToolFailure(shot)) throw new Error(`${shot.code}: ${shot.message}`);
        assert.equal([shot.deviceWidth, shot.deviceHeight], [1080, 2400]);
        const file = join(dir, `${screencap}.png`);
        assert.equal(await engine.call('mobile_save_screenshot', { device: serial, saveTo: file }), { status: 'success', path: file });
        assert.equal((await sharp(await readFile(file)).metadata()).width, 1080);
        const frame = await engine.withDevice(serial, 'frame', (d, ctx) => d.screenshotRaw!(ctx));
        assert.equal([frame.width, frame.height, frame.data.length], [1080, 2400, 1080 * 2400 * 4]);
        await new LocalBackend(engine).screenshot(serial, { maxSize: 400 });
        assert.is(rawAsked(rig!) - before, 1, 'raw screencap asked once on this device');
        assert.match((await handle(engine, serial)).captureChoice.rawRefusal ?? '', /instead of a raw frame/);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

for (const lacking of [['dumpsys input'], ['dumpsys input', 'dumpsys display']]) {
  absent(`without ${lacking.join(' and ')}: orientation and screen size read from ${lacking.length === 1 ? 'dumpsys display' : 'the UI hierarchy'}, rotation set and confirmed`, async ({ rig }) => {
    for (const command of lacking) rig!.phone.shell.quirks.absent.add(command);
    const engine = rig!.engineWith({ uiServer: 'off' });
    const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: rig!.phone.serial, ...params })) as Record<string, unknown>;
    assert.equal(await call('mobile_get_orientation'), { orientation: 'portrait' });
    assert.is((await call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
    assert.is(rig!.phone.phone.orientation, 'landscape');
    assert.equal(await call('mobile_get_orientation'), { orientation: 'landscape' });
    assert.equal(await call('mobile_get_screen_size'), { width: 2400, height: 1080 });
    // An app that keeps portrait is reported, not passed off as turned (the setting alone would say landscape).
    await call('mobile_set_orientation', { orientation: 'portrait' });
    rig!.phone.shell.quirks.fixedOrientation.set(rig!.phone.phone.foregroundPackage, 'portrait');
    const refused = await call('mobile_set_orientation', { orientation: 'landscape' });
    assert.is(refused.code, 'UNSUPPORTED', JSON.stringify(refused));
    assert.match(String(refused.message), 'still shows portrait 2 s after rotation was locked to landscape');
  });
}

absent('with no command that shows the rotation, orientation is refused plainly and a rotation is not reported as done', async ({ rig }) => {
  for (const command of ['dumpsys input', 'dumpsys display', 'uiautomator']) rig!.phone.shell.quirks.absent.add(command);
  const engine = rig!.engineWith({ uiServer: 'off' });
  const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: rig!.phone.serial, ...params })) as Record<string, unknown>;
  const read = await call('mobile_get_orientation');
  assert.is(read.code, 'UNSUPPORTED', JSON.stringify(read));
  assert.match(String(read.message), 'shows its display rotation in none of `dumpsys input`, `dumpsys display` and its UI hierarchy');
  // Taps are checked against the screen size: it stays the natural one rather than failing.
  assert.equal(await call('mobile_get_screen_size'), { width: 1080, height: 2400 });
  const set = await call('mobile_set_orientation', { orientation: 'landscape' });
  assert.is(set.code, 'UNSUPPORTED', JSON.stringify(set));
  assert.match(String(set.message), 'was locked to landscape (accelerometer_rotation 0, user_rotation 1), but whether the display turned is not confirmed');
});

absent('without dumpsys power a sleeping screen is still seen (dumpsys display) and woken before a tap', async ({ rig }) => {
  const quirks = rig!.phone.shell.quirks;
  quirks.absent.add('dumpsys power');
  quirks.screenOff = true;
  const engine = rig!.engineWith({});
  const tapped = (await engine.call('mobile_click_on_screen_at_coordinates', { device: rig!.phone.serial, x: 540, y: 1200 })) as Record<string, unknown>;
  assert.is(tapped.status, 'success', JSON.stringify(tapped));
  assert.is(quirks.screenOff, false, 'the screen was woken');
  assert.ok(rig!.phone.stats.opened.some((s) => s.includes('input keyevent 224')), 'woken with KEYCODE_WAKEUP');
});

/** Android 9's layout: the logical displays straight under DisplayManagerService, two spaces in; display 2 turned, display 0 not. */
const ANDROID_9_DISPLAY_DUMP = [
  'Logical Displays: size=2',
  '  Display 0:',
  '    mDisplayId=0',
  '    mBaseDisplayInfo=DisplayInfo{"Built-in Screen, displayId 0", uniqueId "local:0", app 1080 x 2160, real 1080 x 2160, largest app 1080 x 2160, smallest app 1080 x 2160, mode 1, defaultMode 1, modes [{id=1, width=1080, height=2160, fps=60.0}], colorMode 0, supportedColorModes [0], hdrCapabilities android.view.Display$HdrCapabilities@40f16308, rotation 0, density 420 (403.411 x 403.411) dpi, layerStack 0, appVsyncOff 1000000, presDeadline 16666666, type BUILT_IN, state ON, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, removeMode 0}',
  '    mOverrideDisplayInfo=DisplayInfo{"Built-in Screen, displayId 0", uniqueId "local:0", app 2160 x 1080, real 2160 x 1080, largest app 2160 x 2028, smallest app 1080 x 948, mode 1, defaultMode 1, modes [{id=1, width=1080, height=2160, fps=60.0}], colorMode 0, supportedColorModes [0], hdrCapabilities android.view.Display$HdrCapabilities@40f16308, rotation 3, density 420 (403.411 x 403.411) dpi, layerStack 0, appVsyncOff 1000000, presDeadline 16666666, type BUILT_IN, state ON, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, removeMode 0}',
  '  Display 2:',
  '    mDisplayId=2',
  '    mOverrideDisplayInfo=DisplayInfo{"HDMI Screen, displayId 2", rotation 1, type HDMI}',
].join('\n');

absent('the rotation and power state of display 0 are its override\'s; a base info or an override not set yet shows none', () => {
  assert.is(parseDisplayManagerRotation(ANDROID_9_DISPLAY_DUMP), 3);
  assert.is(parseDisplayManagerRotation(ANDROID_9_DISPLAY_DUMP.replace(/mOverrideDisplayInfo=DisplayInfo\{"Built-in[^\n]*/, 'mOverrideDisplayInfo=null')), undefined);
  assert.is(parseDisplayManagerRotation("Can't find service: display\n"), undefined);
  assert.is(parseDisplayManagerAwake(ANDROID_9_DISPLAY_DUMP), true);
  assert.is(parseDisplayManagerAwake(ANDROID_9_DISPLAY_DUMP.replaceAll('state ON', 'state DOZE_SUSPEND')), false);
  assert.is(parseHierarchyRotation('<?xml version=\'1.0\' ?><hierarchy rotation="1"><node/></hierarchy>'), 1);
  assert.is(parseHierarchyRotation('ERROR: null root node returned by UiTestAutomationBridge.'), undefined);
});

if (hasAdb()) absent.run();
