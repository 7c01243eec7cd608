import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { UiElement } from '../../src/engine/types.js';
import { handleOf, hasFfmpeg, slowInputServices, take, until } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';
import { rows, shift } from './list-rows.js';

/**
 * Streamed touch on Android (issue 17) over the real adb server: scrcpy's INJECT_TOUCH_EVENT while it
 * runs, `input motionevent` without it, one swipe on release where `input` has no motionevent.
 */

const test = suite<{ rig?: AndroidRig }>('Android streamed touch');

test.before(async (ctx) => {
  if (hasAdb()) ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});


async function onList(rig: AndroidRig): Promise<Map<string, number>> {
  await rig.call('mobile_open_url', { url: 'mbdemo://screen/home' });
  const before = await rows(rig.call);
  assert.ok(before.size > 3, 'the list is on screen');
  return before;
}

const touch = (rig: AndroidRig, action: 'down' | 'move' | 'up' | 'cancel', x: number, y: number) => rig.engine.touchEvent(rig.phone.serial, action, { x, y }, { origin: 'test' });

test('with scrcpy running: INJECT_TOUCH_EVENT per event (finger pointer, pressure 1 then 0), the list follows before the finger lifts', async ({ rig }) => {
  if (!rig || !hasFfmpeg()) return;
  const video = await (await handleOf(rig)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(video, 2);
    const before = await onList(rig);
    rig.phone.stats.reset();
    const log = rig.phone.scrcpy.touchLog;
    log.length = 0;
    assert.equal(await touch(rig, 'down', 540, 1600), { status: 'success', streamed: true });
    await touch(rig, 'move', 540, 1500);
    await touch(rig, 'move', 540, 1300);
    await until(() => log.length >= 3, 'three touch events at the server');
    const during = shift(before, await rows(rig.call));
    // Video space is 544x1200 for 1080x2400: a point survives the round trip within a couple of pixels.
    assert.ok(Math.abs(during + 300) <= 4, `the list moved ${during} px with the finger still down`);
    const up = (await touch(rig, 'up', 540, 1300)) as { status: string; streamed: boolean };
    assert.equal([up.status, up.streamed], ['success', true]);
    await until(() => log.length >= 4, 'the up');
    assert.match(log[0], /^down 5\d\d,1\d{3} p=1\.00 id=-2$/, log[0]);
    assert.match(log[1], /^move .* p=1\.00 id=-2$/);
    assert.match(log[3], /^up .* p=0\.00 id=-2$/);
    assert.ok(!rig.phone.scrcpy.injected.some((e) => e.startsWith('dropped')), 'every event carried the current video size');
    assert.equal(slowInputServices(rig.phone.stats.opened), [], 'no input process per event');
  } finally {
    await video.close();
  }
});

test('the server injects a touch outside the screen as it is (scrcpy does not check), and no window receives it', async ({ rig }) => {
  if (!rig || !hasFfmpeg()) return;
  const handle = await handleOf(rig);
  const video = await handle.openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(video, 2);
    await rig.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
    const screen = rig.phone.phone.currentScreen;
    const log = rig.phone.scrcpy.touchLog;
    log.length = 0;
    const ctx = { signal: new AbortController().signal };
    // Straight to the driver: the engine itself refuses a down outside the screen.
    assert.is(await handle.touch!('down', 1079, 2600, ctx), true);
    await handle.touch!('up', 1079, 2600, ctx);
    await until(() => log.length >= 2, 'both events at the server');
    assert.match(log[0], /^down 10\d\d,2600 /);
    assert.is(rig.phone.phone.currentScreen, screen, 'nothing reacted');
    assert.is(rig.phone.phone.focusedField, undefined);
  } finally {
    await video.close();
  }
});

test('a touch on the last row and column stays on the screen: the video coordinate never reaches the video size, which PositionMapper maps one pixel past the screen', async ({ rig }) => {
  if (!rig || !hasFfmpeg()) return;
  const handle = await handleOf(rig);
  const video = await handle.openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(video, 2);
    const log = rig.phone.scrcpy.touchLog;
    log.length = 0;
    const ctx = { signal: new AbortController().signal };
    // 2399 × 1200 / 2400 = 1199.5 rounds to 1200, the video height; scrcpy maps that back to y = 2400.
    assert.is(await handle.touch!('down', 1079, 2399, ctx), true);
    await handle.touch!('up', 1079, 2399, ctx);
    await until(() => log.length >= 2, 'both events at the server');
    const at = /^down (\d+),(\d+) /.exec(log[0]);
    assert.ok(at && Number(at[1]) < 1080 && Number(at[2]) < 2400 && Number(at[2]) >= 2396, `${log[0]} is inside the 1080x2400 screen, near its corner`);
  } finally {
    await video.close();
  }
});

test('scrcpy refusing injection: a drag it refuses from the start goes through `input motionevent`; one refused midway fails instead of reporting success', async ({ rig }) => {
  if (!rig || !hasFfmpeg()) return;
  for (const midway of [false, true]) {
    // An engine of its own each time: after a refusal its scrcpy session takes no more input.
    const engine = rig.engineWith({ scrcpy: { graceMs: 0 } });
    const t = (action: 'down' | 'move' | 'up' | 'cancel', y: number) => engine.touchEvent(rig.phone.serial, action, { x: 540, y }, { origin: 'test' }) as Promise<unknown> as Promise<Record<string, unknown>>;
    const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
    try {
      await take(video, 2);
      await onList(rig);
      const motion = rig.phone.shell.motionEvents;
      motion.length = 0;
      rig.phone.scrcpy.touchLog.length = 0;
      rig.phone.scrcpy.faults.refuseInjection = !midway;
      assert.equal(await t('down', 1600), { status: 'success', streamed: true });
      if (!midway) {
        assert.ok(motion.length > 0, 'the refused down went through input motionevent');
        assert.is((await t('move', 1500)).status, 'success');
        assert.is((await t('up', 1500)).status, 'success');
        assert.equal(rig.phone.scrcpy.touchLog, [], 'scrcpy injected nothing');
        continue;
      }
      assert.ok(rig.phone.scrcpy.touchLog.length > 0, 'the down went through scrcpy');
      rig.phone.scrcpy.faults.refuseInjection = true;
      const move = await t('move', 1500);
      assert.is(move.code, 'INTERNAL', JSON.stringify(move));
      assert.match(String(move.message), /scrcpy on .* stopped during the drag \(.*INJECT_EVENTS permission/);
      await t('cancel', 1500);
    } finally {
      rig.phone.scrcpy.faults.refuseInjection = false;
      await video.close();
      await engine.close();
    }
  }
});

test('without scrcpy: one `input motionevent` per event, and the list still follows the finger', async ({ rig }) => {
  if (!rig) return;
  const engine = rig.engineWith({ scrcpy: { graceMs: 0 } });
  const before = await onList(rig);
  const motion = rig.phone.shell.motionEvents;
  motion.length = 0;
  const t = (action: 'down' | 'move' | 'up', y: number) => engine.touchEvent(rig.phone.serial, action, { x: 540, y }, { origin: 'test' });
  assert.equal(await t('down', 1600), { status: 'success', streamed: true });
  await t('move', 1450);
  assert.is(shift(before, await rows(rig.call)), -150, 'moved with the finger down');
  const up = (await t('up', 1400)) as { status: string; streamed: boolean };
  assert.equal([up.status, up.streamed], ['success', true]);
  assert.equal(motion, ['down 540,1600', 'move 540,1450', 'up 540,1400']);
  assert.is(shift(before, await rows(rig.call)), -200);
});

test('where `input` has no motionevent: the down says so, and the drag becomes one swipe on release', async ({ rig }) => {
  if (!rig) return;
  const engine = rig.engineWith({});
  rig.phone.shell.quirks.noMotionEvent = true;
  try {
    const before = await onList(rig);
    const t = (action: 'down' | 'move' | 'up', y: number) => engine.touchEvent(rig.phone.serial, action, { x: 540, y }, { origin: 'test' });
    const down = (await t('down', 1600)) as { streamed: boolean; message: string };
    assert.is(down.streamed, false);
    assert.match(down.message, /cannot stream touches/);
    await t('move', 1400);
    assert.is(shift(before, await rows(rig.call)), 0, 'nothing moves before release');
    const up = (await t('up', 1300)) as { status: string; message: string };
    assert.is(up.status, 'success');
    assert.match(up.message, /replayed as one swipe from \(540, 1600\) to \(540, 1300\) on release/);
    assert.is(shift(before, await rows(rig.call)), -300);
  } finally {
    rig.phone.shell.quirks.noMotionEvent = false;
  }
});

test('Android 10 has no `input motionevent CANCEL`: a cancelled drag is lifted with UP where it is, and the answer says so instead of reporting a cancel', async ({ rig }) => {
  if (!rig) return;
  const engine = rig.engineWith({ scrcpy: { graceMs: 0 } });
  rig.phone.shell.quirks.release = { version: '10', sdk: 29 };
  try {
    const before = await onList(rig);
    const motion = rig.phone.shell.motionEvents;
    motion.length = 0;
    rig.phone.stats.reset();
    const t = (action: 'down' | 'move' | 'cancel', y: number) => engine.touchEvent(rig.phone.serial, action, { x: 540, y }, { origin: 'test' }) as Promise<unknown> as Promise<Record<string, unknown>>;
    assert.equal(await t('down', 1600), { status: 'success', streamed: true });
    await t('move', 1450);
    const cancel = await t('cancel', 1450);
    assert.is(cancel.code, 'UNSUPPORTED', JSON.stringify(cancel));
    assert.match(String(cancel.message), /cannot cancel a touch: its `input motionevent` takes DOWN, UP and MOVE only \(Android 10\)\. The finger was lifted at \(540, 1450\) instead/);
    assert.equal(motion, ['down 540,1600', 'move 540,1450', 'up 540,1450'], 'the finger is not left down');
    assert.is(shift(before, await rows(rig.call)), -150, 'the drag ended where the finger was');

    // Learned once: the next cancel lifts at once, without asking for CANCEL again.
    assert.is((await t('down', 1000)).status, 'success');
    assert.is((await t('cancel', 1000)).code, 'UNSUPPORTED');
    assert.equal(motion.slice(3), ['down 540,1000', 'up 540,1000']);
    assert.is(rig.phone.stats.opened.filter((c) => /motionevent CANCEL/.test(c)).length, 1, rig.phone.stats.opened.join('\n'));
  } finally {
    rig.phone.shell.quirks.release = undefined;
    await engine.close();
  }
});

test('keys: BACKSPACE is KEYCODE_DEL through `input keyevent` without scrcpy', async ({ rig }) => {
  if (!rig) return;
  // An engine of its own: rig.engine may still have scrcpy running from the tests above (grace period).
  const engine = rig.engineWith({ scrcpy: { graceMs: 0 } });
  const call = (tool: string, params: object = {}) => engine.call(tool, { device: rig.phone.serial, ...params }) as Promise<Record<string, unknown>>;
  await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const els = (await call('mobile_list_elements_on_screen')).elements as UiElement[];
  await call('mobile_click_on_screen_at_coordinates', els.find((e) => e.id === 'email')!.center);
  await call('mobile_type_keys', { text: 'abc' });
  await until(() => rig.phone.phone.fieldValue('email').endsWith('abc'), 'typed abc');
  const typed = rig.phone.phone.fieldValue('email');
  rig.phone.stats.reset();
  assert.is((await engine.pressKey(rig.phone.serial, 'BACKSPACE')).status, 'success');
  await until(() => rig.phone.phone.fieldValue('email') === typed.slice(0, -1), 'one character deleted');
  assert.ok(rig.phone.stats.opened.some((s) => /input keyevent 67/.test(s)), rig.phone.stats.opened.join(' | '));
});

test.run();
