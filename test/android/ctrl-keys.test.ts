import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { UiElement } from '../../src/engine/types.js';
import { handleOf, hasFfmpeg, take, until } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/**
 * Ctrl+letter shortcuts (input.key with modifiers ["CTRL"]) on Android over the real adb server:
 * scrcpy's INJECT_KEYCODE with Ctrl's meta state while it runs, `input keycombination` (Android 13+)
 * without it, and a clear UNSUPPORTED where neither exists.
 */

const test = suite<{ rig?: AndroidRig }>('Android Ctrl shortcuts');

test.before(async (ctx) => {
  if (hasAdb()) ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});

/** The sign-in form with "old" typed into Email, through `engine`. */
async function filledEmail(rig: AndroidRig, call: (tool: string, params?: object) => Promise<Record<string, unknown>>): Promise<void> {
  await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const els = (await call('mobile_list_elements_on_screen')).elements as UiElement[];
  await call('mobile_click_on_screen_at_coordinates', els.find((e) => e.id === 'email')!.center);
  await call('mobile_clear_text').catch(() => undefined);
  await call('mobile_type_keys', { text: 'old' });
  await until(() => rig.phone.phone.fieldValue('email') === 'old', 'typed old');
}

test('with scrcpy running: Ctrl down, the letter with META_CTRL_ON, Ctrl up; typing then replaces the selection', async ({ rig }) => {
  if (!rig || !hasFfmpeg()) return;
  const video = await (await handleOf(rig)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(video, 2);
    await filledEmail(rig, rig.call);
    rig.phone.scrcpy.injected.length = 0;
    rig.phone.stats.reset();
    const pressed = await rig.engine.pressKey(rig.phone.serial, 'A', {}, ['CTRL']);
    assert.is(pressed.status, 'success', JSON.stringify(pressed));
    assert.equal(rig.phone.scrcpy.injected.filter((e) => e.startsWith('key')), ['key 29 ctrl', 'key 113'], 'the letter came up with Ctrl held (the emulation logs key ups), then Ctrl');
    assert.ok(!rig.phone.stats.opened.some((s) => /input /.test(s)), 'no input process');
    await rig.call('mobile_type_keys', { text: 'new' });
    await until(() => rig.phone.phone.fieldValue('email') === 'new', 'the selection replaced');
  } finally {
    await video.close();
  }
});

test('without scrcpy: `input keycombination KEYCODE_CTRL_LEFT KEYCODE_A` on Android 13 and later; before, UNSUPPORTED and nothing pressed', async ({ rig }) => {
  if (!rig) return;
  const engine = rig.engineWith({ scrcpy: { graceMs: 0 } });
  const call = (tool: string, params: object = {}) => engine.call(tool, { device: rig.phone.serial, ...params }) as Promise<Record<string, unknown>>;
  try {
    await filledEmail(rig, call);
    rig.phone.stats.reset();
    assert.is((await engine.pressKey(rig.phone.serial, 'A', {}, ['CTRL'])).status, 'success');
    assert.ok(rig.phone.stats.opened.some((s) => /input keycombination KEYCODE_CTRL_LEFT KEYCODE_A/.test(s)), rig.phone.stats.opened.join(' | '));
    await call('mobile_type_keys', { text: 'new' });
    await until(() => rig.phone.phone.fieldValue('email') === 'new', 'the selection replaced');
  } finally {
    await engine.close();
  }
  for (const release of [{ version: '12', sdk: 31 }, { version: '11', sdk: 30 }]) {
    rig.phone.shell.quirks.release = release;
    const older = rig.engineWith({ scrcpy: { graceMs: 0 } });
    try {
      const olderCall = (tool: string, params: object = {}) => older.call(tool, { device: rig.phone.serial, ...params }) as Promise<Record<string, unknown>>;
      await filledEmail(rig, olderCall);
      const refused = (await older.pressKey(rig.phone.serial, 'A', {}, ['CTRL'])) as { code?: string; message?: string };
      assert.is(refused.code, 'UNSUPPORTED', `Android ${release.version}: ${JSON.stringify(refused)}`);
      assert.match(refused.message ?? '', /keycombination/);
      await olderCall('mobile_type_keys', { text: '+' });
      await until(() => rig.phone.phone.fieldValue('email') === 'old+', `Android ${release.version}: nothing was selected`);
    } finally {
      rig.phone.shell.quirks.release = undefined;
      await older.close();
    }
  }
});

test.run();
