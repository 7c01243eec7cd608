import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Engine } from '../../src/engine/engine.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { isToolFailure } from '../../src/engine/errors.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { MAIN_PANEL } from '../harness/adbd/displays.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** Devices with more than one physical display: screencap must capture the one that shows the phone. */
const displays = suite<{ rig?: AndroidRig }>('android screenshots on multi-display devices');

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

if (hasAdb()) displays.run();
