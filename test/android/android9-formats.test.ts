import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { hasAdb, startRig, type AndroidRig } from './setup.js';
import { rows, shift } from './list-rows.js';
import { stillCapture } from './still-capture.js';

/**
 * Android 8 and 9 (API 26–28) print displays, rotation and `input` differently from 10+
 * (test/harness/adbd/older-display-dumps.ts); the real driver, through the real adb server, against
 * a phone answering as those releases do.
 */
const test = suite<{ rig?: AndroidRig }>('android 8–9 formats');

test.before(async (ctx) => {
  if (hasAdb()) ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});

const RELEASES = [{ version: '8.1.0', sdk: 27 }, { version: '9', sdk: 28 }];
const signal = () => AbortSignal.timeout(5_000);

/** The phone answers as `release` for `work` (with a new engine, which reads the release anew), then as Android 14 in portrait again. */
async function on(rig: AndroidRig, release: { version: string; sdk: number }, work: (call: (tool: string, params?: object) => Promise<Record<string, unknown>>) => Promise<void>): Promise<void> {
  rig.phone.shell.quirks.release = release;
  try {
    const engine = rig.engineWith({});
    await work(async (tool, params = {}) => (await engine.call(tool, { device: rig.phone.serial, ...params })) as Record<string, unknown>);
  } finally {
    rig.phone.shell.quirks.release = undefined;
    rig.phone.shell.quirks.touchpadFirst = false;
    rig.phone.shell.quirks.secondDisplay = false;
    rig.phone.shell.settings.set('system/user_rotation', '0');
    await rig.phone.phone.setOrientation('portrait', { signal: signal() });
  }
}

test('the emulated 8–9 dumpsys input: no Android 10 viewport lines, the configuration\'s ViewportInternal entry and the touch mapper\'s SurfaceOrientation', async ({ rig }) => {
  if (!rig) return;
  rig.phone.shell.quirks.release = { version: '9', sdk: 28 };
  try {
    await rig.phone.phone.setOrientation('landscape', { signal: signal() });
    const out = (await rig.phone.shell.run('dumpsys input')).out.toString();
    assert.not.match(out, /Viewport INTERNAL/);
    assert.match(out, /^ {8}ViewportInternal:\n {10}Viewport: displayId=0, orientation=1, uniqueId='local:0', logicalFrame=\[0, 0, 2400, 1080\]/m);
    assert.match(out, /^ {8}ViewportExternal:\n {10}Viewport: displayId=-1, orientation=0, uniqueId='',/m);
    assert.match(out, /^ {6}SurfaceOrientation: 1$/m);
  } finally {
    rig.phone.shell.quirks.release = undefined;
    await rig.phone.phone.setOrientation('portrait', { signal: signal() });
  }
});

test('orientation after a rotation, and the screen size, on 8.1 and 9: read from the ViewportInternal entry even where a touchpad that never turns is listed first', async ({ rig }) => {
  if (!rig) return;
  for (const release of RELEASES) {
    await on(rig, release, async (call) => {
      // The touchpad's SurfaceOrientation stays 0: read first, it would say portrait after the turn.
      rig.phone.shell.quirks.touchpadFirst = true;
      assert.equal(await call('mobile_get_screen_size'), { width: 1080, height: 2400 }, release.version);
      const turned = await call('mobile_set_orientation', { orientation: 'landscape' });
      assert.is(turned.status, 'success', `${release.version}: ${JSON.stringify(turned)}`);
      assert.is(rig.phone.phone.orientation, 'landscape');
      assert.equal(await call('mobile_get_orientation'), { orientation: 'landscape' }, release.version);
      assert.equal(await call('mobile_get_screen_size'), { width: 2400, height: 1080 }, release.version);
      assert.is((await call('mobile_set_orientation', { orientation: 'portrait' })).status, 'success');
      assert.equal(await call('mobile_get_orientation'), { orientation: 'portrait' });
    });
  }
});

test('screenshots on 9: the panel is captured without -d and without asking SurfaceFlinger for a --display-id listing 9 does not have', async ({ rig }) => {
  if (!rig) return;
  await on(rig, { version: '9', sdk: 28 }, async (call) => {
    // What 9 prints for it: the whole dump, whose "Display 0 …" lines are no display listing.
    const dump = (await rig.phone.shell.run('dumpsys SurfaceFlinger --display-id')).out.toString();
    assert.match(dump, /^Display 0 color modes:$/m);
    assert.match(dump, /^Display 0 HWC layers:$/m);
    assert.match((await rig.phone.shell.run('screencap -d 4619827259835644672 -p')).out.toString(), /^Unable to get handle for display/, '9 takes built-in display numbers only');
    rig.phone.stats.reset();
    for (let i = 0; i < 2; i++) {
      const { shot, phone } = await stillCapture(rig, async () => (await call('mobile_take_screenshot')) as { image: string; dimensions: { width: number; height: number } });
      assert.equal(shot.dimensions, { width: 1080, height: 2400 });
      const decoded = await sharp(Buffer.from(shot.image, 'base64')).ensureAlpha().raw().toBuffer();
      assert.ok(decoded.equals(phone), 'the phone\'s pixels');
    }
    const opened = rig.phone.stats.opened;
    assert.ok(opened.some((s) => /screencap/.test(s)), JSON.stringify(opened));
    assert.not.ok(opened.some((s) => /screencap[^;]* -d /.test(s)), `no display named: ${JSON.stringify(opened)}`);
    assert.not.ok(opened.some((s) => s.includes('SurfaceFlinger')), `no SurfaceFlinger dump: ${JSON.stringify(opened)}`);
    assert.is(opened.filter((s) => s.includes('dumpsys input')).length, 1, `the size is read once, not before every capture: ${JSON.stringify(opened)}`);
  });
});

test('an 8.1 phone with an HDMI display: the ViewportExternal entry counts, the capture still takes the panel', async ({ rig }) => {
  if (!rig) return;
  await on(rig, { version: '8.1.0', sdk: 27 }, async (call) => {
    rig.phone.shell.quirks.secondDisplay = true;
    const shot = (await call('mobile_take_screenshot')) as { dimensions: { width: number; height: number } };
    assert.equal(shot.dimensions, { width: 1080, height: 2400 });
    assert.equal(await call('mobile_get_screen_size'), { width: 1080, height: 2400 });
    assert.not.ok(rig.phone.stats.opened.some((s) => /screencap[^;]* -d /.test(s)), JSON.stringify(rig.phone.stats.opened));
  });
});


test('swipes and streamed gestures on 9: input has no motionevent (usage on stderr, exit 0), so a drag is replayed as one swipe on release', async ({ rig }) => {
  if (!rig) return;
  await on(rig, { version: '9', sdk: 28 }, async (call) => {
    const usage = await rig.phone.shell.run('input motionevent DOWN 10 10');
    assert.match(usage.out.toString(), /^Error: Unknown command: motionevent\nUsage: input \[<source>\] <command> \[<arg>\.\.\.\]\n/);
    assert.is(usage.code, 0, 'Input.main returns normally');
    assert.is(rig.phone.shell.motionEvents.length, 0, 'nothing was touched');

    await call('mobile_open_url', { url: 'mbdemo://screen/home' });
    let before = await rows(call);
    assert.ok(before.size > 3, 'the list is on screen');
    assert.is((await call('mobile_swipe_on_screen', { direction: 'up' })).status, 'success');
    assert.ok(shift(before, await rows(call)) < 0, 'the list scrolled up');

    const engine = rig.engineWith({});
    const touch = (action: 'down' | 'move' | 'up', y: number) => engine.touchEvent(rig.phone.serial, action, { x: 540, y }, { origin: 'test' });
    before = await rows(call);
    const down = (await touch('down', 1600)) as { streamed: boolean };
    assert.is(down.streamed, false);
    await touch('move', 1400);
    const up = (await touch('up', 1300)) as { status: string; message: string };
    assert.is(up.status, 'success', up.message);
    assert.match(up.message, /replayed as one swipe/);
    assert.is(shift(before, await rows(call)), -300);
  });
});

if (hasAdb()) test.run();
