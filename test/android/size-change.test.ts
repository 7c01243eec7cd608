import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/**
 * A size override set or removed while the phone stays connected (`wm size 720x1600`, `wm size
 * reset`, a phone's Screen resolution setting): listings, screenshots and taps move to the new
 * pixel space together.
 */
const change = suite<{ rig?: AndroidRig }>('android: a screen size changed mid-session is followed by listings and the screenshots after them');

interface Listed { id: string; x: number; width: number; center: { x: number; y: number } }

change.before(async (ctx) => {
  ctx.rig = await startRig();
});
change.after(async (ctx) => {
  await ctx.rig?.stop();
});

for (const uiServer of ['off', 'auto'] as const) {
  change(`uiServer ${uiServer}: an override set, then removed`, async ({ rig }) => {
    const q = rig!.phone.shell.quirks;
    const engine = rig!.engineWith({ uiServer, screencap: 'raw' });
    const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: rig!.phone.serial, ...params })) as Record<string, any>;
    const email = async () => ((await call('mobile_list_elements_on_screen')).elements as Listed[]).find((e) => e.id === 'email')!;
    try {
      await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
      await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
      assert.equal((await call('mobile_take_screenshot')).dimensions, { width: 1080, height: 2400 });
      assert.ok((await email()).width > 720);

      q.wmOverride = { width: 720, height: 1600 };
      const small = await email();
      assert.ok(small.x + small.width <= 720, JSON.stringify(small));
      assert.equal((await call('mobile_take_screenshot')).dimensions, { width: 720, height: 1600 }, 'the screenshot is in the listing\'s pixels');
      await call('mobile_click_on_screen_at_coordinates', small.center);
      assert.ok(rig!.phone.phone.keyboardVisible, 'the listed centre hit the field');
      await call('mobile_press_button', { button: 'BACK' });

      q.wmOverride = undefined;
      const whole = await email();
      assert.ok(whole.width > 720, `not cut to the old 720 px width: ${JSON.stringify(whole)}`);
      assert.equal((await call('mobile_take_screenshot')).dimensions, { width: 1080, height: 2400 });
    } finally {
      q.wmOverride = undefined;
    }
  });
}

for (const screencap of ['raw', 'png'] as const) {
  change(`screencap ${screencap}: screenshots taken right after the change, before any listing, have the new size and their taps hit`, async ({ rig }) => {
    const q = rig!.phone.shell.quirks;
    const serial = rig!.phone.serial;
    const engine = rig!.engineWith({ uiServer: 'off', screencap });
    const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: serial, ...params })) as Record<string, any>;
    const whole = async () => {
      const png = await engine.withDevice(serial, 'screenshot', (d, ctx) => d.screenshot(ctx));
      const raw = await engine.withDevice(serial, 'screenshot', (d, ctx) => d.screenshotRaw!(ctx));
      return [png.width, png.height, raw.width, raw.height];
    };
    try {
      await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
      await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
      // Twice: the second agent's screenshot streams (the header size is learnt from the first).
      for (let i = 0; i < 2; i++) assert.equal((await call('mobile_take_screenshot')).dimensions, { width: 1080, height: 2400 });
      const email = ((await call('mobile_list_elements_on_screen')).elements as Listed[]).find((e) => e.id === 'email')!;

      q.wmOverride = { width: 720, height: 1600 };
      assert.equal((await call('mobile_take_screenshot')).dimensions, { width: 720, height: 1600 }, 'the agent\'s screenshot has the new size');
      assert.equal(await whole(), [720, 1600, 720, 1600], 'saved and viewer captures too');
      // The field where the screenshot shows it now: the old listing's centre scaled to the new size.
      await call('mobile_click_on_screen_at_coordinates', { x: Math.round((email.center.x * 720) / 1080), y: Math.round((email.center.y * 1600) / 2400) });
      assert.ok(rig!.phone.phone.keyboardVisible, 'a tap at the screenshot\'s point hit the field');
      await call('mobile_press_button', { button: 'BACK' });

      q.wmOverride = undefined;
      assert.equal(await whole(), [1080, 2400, 1080, 2400], 'back to the panel size after the override is removed');
      assert.equal((await call('mobile_take_screenshot')).dimensions, { width: 1080, height: 2400 });
    } finally {
      q.wmOverride = undefined;
    }
  });
}

if (hasAdb()) change.run();
