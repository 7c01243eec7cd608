import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Engine } from '../../src/engine/engine.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { isToolFailure } from '../../src/engine/errors.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import type { UiElement } from '../../src/engine/types.js';
import { MAIN_PANEL } from '../harness/adbd/displays.js';
import { handleOf, hasFfmpeg, take, until } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** Devices with more than one physical display: screencap captures the one that shows the phone, and a fold's new size reaches listings and taps. */
const displays = suite<{ rig?: AndroidRig }>('android on multi-display devices: screenshots, listings and taps follow the display');

const OUTER_PANEL = '4619827259835644673';

displays.before(async (ctx) => {
  ctx.rig = await startRig();
  await ctx.rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
});
displays.after(async (ctx) => {
  await ctx.rig?.stop();
});

/** Whether a PNG screenshot is the phone's screen rather than an off panel's black (compared at a small size). */
async function showsPhone(rig: AndroidRig, png: Buffer): Promise<boolean> {
  const small = (image: ReturnType<typeof sharp>) => image.removeAlpha().resize(54, 120, { fit: 'fill' }).raw().toBuffer();
  const phone = await rig.phone.phone.screenRgba();
  const want = await small(sharp(phone.data, { raw: { width: phone.width, height: phone.height, channels: 4 } }));
  const got = await small(sharp(png));
  let diff = 0;
  for (let i = 0; i < got.length; i++) diff += Math.abs(got[i] - want[i]);
  return diff / got.length < 4;
}

const screenshot = async (engine: Engine, serial: string) => (await engine.withDevice(serial, 'screenshot', (d, ctx) => d.screenshot(ctx))).png;
const captures = (rig: AndroidRig) => rig.phone.stats.opened.filter((s) => s.startsWith('exec:screencap'));

for (const screencap of ['raw', 'png'] as const) {
  displays(`a folded foldable (${screencap}): the outer panel, which shows the phone, not the inner one listed first`, async ({ rig }) => {
    rig!.phone.shell.quirks.foldable = 'folded';
    try {
      const engine = rig!.engineWith({ screencap });
      rig!.phone.stats.reset();
      assert.ok(await showsPhone(rig!, await screenshot(engine, rig!.phone.serial)), 'the phone\'s screen, not a black panel');
      assert.ok(captures(rig!).every((s) => s.includes(` -d ${OUTER_PANEL}`)), captures(rig!).join('\n'));
    } finally {
      rig!.phone.shell.quirks.foldable = undefined;
    }
  });
}

displays('unfolded between two screenshots: the next one follows to the inner panel, one round trip more per capture', async ({ rig }) => {
  rig!.phone.shell.quirks.foldable = 'folded';
  try {
    const engine = rig!.engineWith({ screencap: 'raw' });
    const serial = rig!.phone.serial;
    await screenshot(engine, serial);
    rig!.phone.shell.quirks.foldable = 'open';
    rig!.phone.stats.reset();
    assert.ok(await showsPhone(rig!, await screenshot(engine, serial)));
    assert.equal(rig!.phone.stats.opened, ['exec:wm size; dumpsys input', `exec:screencap -d ${MAIN_PANEL} 2>/dev/null`]);
    // Agents' screenshots (shrunk on the way) take the same panel.
    rig!.phone.shell.quirks.foldable = 'folded';
    rig!.phone.stats.reset();
    const s = await new LocalBackend(engine).screenshot(serial, {});
    if (isToolFailure(s)) throw new Error(`${s.code}: ${s.message}`);
    assert.ok(await showsPhone(rig!, Buffer.from(s.data, 'base64')));
    assert.ok(captures(rig!).every((c) => c.includes(` -d ${OUTER_PANEL}`)), captures(rig!).join('\n'));
  } finally {
    rig!.phone.shell.quirks.foldable = undefined;
  }
});

displays('one display: no -d and no size read before each capture', async ({ rig }) => {
  const engine = rig!.engineWith({ screencap: 'raw' });
  await screenshot(engine, rig!.phone.serial);
  rig!.phone.stats.reset();
  await screenshot(engine, rig!.phone.serial);
  assert.equal(rig!.phone.stats.opened, ['exec:screencap 2>/dev/null']);
});

type Listed = { elements: UiElement[] };
const list = async (engine: Engine, serial: string) => ((await engine.call('mobile_list_elements_on_screen', { device: serial })) as Listed).elements;

displays('unfolded without a screenshot: the next listing and a tap use the inner panel\'s size', async ({ rig }) => {
  rig!.phone.shell.quirks.foldable = 'folded';
  try {
    const engine = rig!.engineWith({ uiServer: 'off' });
    const serial = rig!.phone.serial;
    await engine.call('mobile_open_url', { device: serial, url: 'mbdemo://screen/home' });
    assert.ok((await list(engine, serial)).some((e) => e.id === 'action_more'), 'folded: the toolbar action is listed');
    // A tap while folded: the engine remembers the outer panel's size for its checks.
    await engine.call('mobile_click_on_screen_at_coordinates', { device: serial, x: 540, y: 10 });
    rig!.phone.shell.quirks.foldable = 'open';
    rig!.phone.stats.reset();
    const more = (await list(engine, serial)).find((e) => e.id === 'action_more');
    // The inner panel is twice as wide: the toolbar's actions sit right of the outer panel's width.
    assert.ok(more && more.x >= 1080, `listed on the inner panel: ${JSON.stringify(more)}`);
    const tapped = (await engine.call('mobile_click_on_screen_at_coordinates', { device: serial, ...more!.center })) as { status: string; message: string };
    assert.is(tapped.status, 'success', tapped.message);
    assert.ok((await list(engine, serial)).some((e) => e.id === 'open_inbox'), 'the tap reached the action (the More screen is open)');
    assert.ok(!rig!.phone.stats.opened.some((c) => c.includes('screencap')), `no screenshot in between: ${rig!.phone.stats.opened.join(' | ')}`);
  } finally {
    rig!.phone.shell.quirks.foldable = undefined;
    await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  }
});

displays('a foldable reads its size with each listing and its orientation in the same round trip; one display reads it once', async ({ rig }) => {
  rig!.phone.shell.quirks.foldable = 'folded';
  try {
    const engine = rig!.engineWith({ uiServer: 'off' });
    const serial = rig!.phone.serial;
    await list(engine, serial);
    rig!.phone.stats.reset();
    await list(engine, serial);
    assert.equal([...rig!.phone.stats.opened].sort(), ['exec:uiautomator dump /dev/tty', 'exec:wm size; dumpsys input'], 'the size alongside the dump');
    rig!.phone.stats.reset();
    assert.equal(await engine.call('mobile_get_orientation', { device: serial }), { orientation: 'portrait' });
    assert.equal(rig!.phone.stats.opened, ['exec:wm size; dumpsys input']);
  } finally {
    rig!.phone.shell.quirks.foldable = undefined;
  }
  const single = rig!.engineWith({ uiServer: 'off' });
  await list(single, rig!.phone.serial);
  rig!.phone.stats.reset();
  await list(single, rig!.phone.serial);
  assert.equal(rig!.phone.stats.opened, ['exec:uiautomator dump /dev/tty'], 'one display: the size is remembered');
});

displays('scrcpy taps after unfolding map with the inner panel\'s size once a listing has read it', async ({ rig }) => {
  if (!hasFfmpeg()) return;
  rig!.phone.shell.quirks.foldable = 'folded';
  const engine = rig!.engineWith({ uiServer: 'off' });
  const serial = rig!.phone.serial;
  const video = await (await handleOf(rig!, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(video, 2);
    await engine.call('mobile_open_url', { device: serial, url: 'mbdemo://screen/home' });
    rig!.phone.shell.quirks.foldable = 'open';
    const more = (await list(engine, serial)).find((e) => e.id === 'action_more')!;
    rig!.phone.scrcpy.injected.length = 0;
    await engine.call('mobile_click_on_screen_at_coordinates', { device: serial, ...more.center });
    await until(() => rig!.phone.scrcpy.injected.length > 0, 'the tap over scrcpy');
    // Inner (x2 wide) coordinates back on the virtual phone's panel: half the x.
    const tap = /^tap (\d+),(\d+)$/.exec(rig!.phone.scrcpy.injected[0]);
    assert.ok(tap && Math.abs(Number(tap[1]) - more.center.x / 2) <= 3 && Math.abs(Number(tap[2]) - more.center.y) <= 3, `${rig!.phone.scrcpy.injected.join(' | ')} for ${JSON.stringify(more.center)}`);
  } finally {
    await video.close();
    rig!.phone.shell.quirks.foldable = undefined;
    await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  }
});

if (hasAdb()) displays.run();
