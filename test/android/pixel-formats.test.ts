import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RawImage } from '../../src/engine/driver.js';
import type { AndroidDevice } from '../../src/engine/drivers/android/android-device.js';
import type { Engine } from '../../src/engine/engine.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { isToolFailure } from '../../src/engine/errors.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';
import { stillCapture } from './still-capture.js';

/** Displays whose captures are not RGBA_8888: raw screencap's header names the format (screencap.cpp). */
const formats = suite<{ rig?: AndroidRig }>('android raw screencap in other pixel formats');

formats.before(async (ctx) => {
  ctx.rig = await startRig();
  await ctx.rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
});
formats.after(async (ctx) => {
  await ctx.rig?.stop();
});

const device = (engine: Engine, serial: string) => engine.withDevice(serial, 'inspect', async (d) => d as AndroidDevice);
const screenshotRaw = (engine: Engine, serial: string) => engine.withDevice(serial, 'raw screenshot', (d, ctx) => d.screenshotRaw!(ctx));

/** The phone's screen as a 16-bit display holds it: each channel cut to its top 5/6/5 bits, widened again by repeating them. */
async function phoneIn565(rig: AndroidRig): Promise<Buffer> {
  const rgba = Buffer.from((await rig.phone.phone.screenRgba()).data);
  const widen = (v: number, bits: number) => ((v >> (8 - bits)) * 255 + ((1 << bits) - 1) / 2) / ((1 << bits) - 1);
  for (let i = 0; i < rgba.length; i += 4) {
    rgba[i] = Math.floor(widen(rgba[i], 5));
    rgba[i + 1] = Math.floor(widen(rgba[i + 1], 6));
    rgba[i + 2] = Math.floor(widen(rgba[i + 2], 5));
  }
  return rgba;
}

/** Largest difference of any channel between two RGBA buffers. */
function maxDifference(a: Buffer, b: Buffer): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

formats('RGB_565 (a 16-bit display): raw frames widened to the phone\'s colours, whole and streamed, never the phone\'s PNG', async ({ rig }) => {
  rig!.phone.shell.quirks.pixelFormat = 'RGB_565';
  try {
    const engine = rig!.engineWith({ screencap: 'raw' });
    const serial = rig!.phone.serial;
    rig!.phone.stats.reset();
    // Compared with a screen that stood still during the capture (the app may still be settling).
    let image: RawImage | undefined;
    let want: Buffer | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = await phoneIn565(rig!);
      image = await screenshotRaw(engine, serial);
      want = await phoneIn565(rig!);
      if (before.equals(want)) break;
    }
    assert.equal([image!.width, image!.height, image!.channels], [1080, 2400, 4]);
    // Bit repetition and rounding to the nearest level agree to within one level.
    assert.ok(maxDifference(image!.data, want!) <= 1, 'the 565 colours, widened');
    const { png } = await engine.withDevice(serial, 'screenshot', (d, ctx) => d.screenshot(ctx));
    const decoded = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    assert.equal([decoded.info.width, decoded.info.height, decoded.info.channels], [1080, 2400, 3], 'an opaque PNG');
    // Agents' screenshots: the first raw capture is read whole, later ones are shrunk as they arrive.
    const backend = new LocalBackend(engine);
    for (let i = 0; i < 2; i++) {
      const s = await backend.screenshot(serial, {});
      if (isToolFailure(s)) throw new Error(`${s.code}: ${s.message}`);
      assert.equal([s.width, s.height, s.deviceWidth, s.deviceHeight], [540, 1200, 1080, 2400]);
    }
    assert.ok(!rig!.phone.stats.opened.some((s) => s.includes('screencap -p')), rig!.phone.stats.opened.join('\n'));
    assert.is((await device(engine, serial)).captureChoice.rawRefusal, undefined);
  } finally {
    rig!.phone.shell.quirks.pixelFormat = 'RGBA_8888';
  }
});

formats('RGBA_1010102 (a wide-colour capture): the phone\'s PNG instead, with the reason kept, from the first screenshot on', async ({ rig }) => {
  rig!.phone.shell.quirks.pixelFormat = 'RGBA_1010102';
  try {
    const engine = rig!.engineWith({ screencap: 'raw' });
    const serial = rig!.phone.serial;
    rig!.phone.stats.reset();
    const { shot, phone } = await stillCapture(rig!, () => engine.withDevice(serial, 'screenshot', (d, ctx) => d.screenshot(ctx)));
    assert.equal([shot.width, shot.height], [1080, 2400]);
    assert.ok((await sharp(shot.png).ensureAlpha().raw().toBuffer()).equals(phone), 'the phone\'s screen');
    assert.match(String((await device(engine, serial)).captureChoice.rawRefusal), /pixel format 43 \(RGBA_1010102\)/);
    rig!.phone.stats.reset();
    await screenshotRaw(engine, serial);
    const s = await new LocalBackend(engine).screenshot(serial, {});
    if (isToolFailure(s)) throw new Error(`${s.code}: ${s.message}`);
    const captures = rig!.phone.stats.opened.filter((o) => o.startsWith('exec:screencap'));
    assert.ok(captures.length === 2 && captures.every((o) => o.includes('-p')), `raw is not asked again: ${captures.join(', ')}`);
  } finally {
    rig!.phone.shell.quirks.pixelFormat = 'RGBA_8888';
  }
});

formats('a format change met while streaming an agent\'s screenshot: that call still answers, with the phone\'s PNG', async ({ rig }) => {
  const engine = rig!.engineWith({ screencap: 'raw' });
  const serial = rig!.phone.serial;
  const backend = new LocalBackend(engine);
  // The first capture is read whole (the header size is learnt), the next one streams.
  assert.not.ok(isToolFailure(await backend.screenshot(serial, {})));
  rig!.phone.shell.quirks.pixelFormat = 'RGBA_1010102';
  try {
    rig!.phone.stats.reset();
    const s = await backend.screenshot(serial, {});
    if (isToolFailure(s)) throw new Error(`${s.code}: ${s.message}`);
    assert.equal([s.deviceWidth, s.deviceHeight], [1080, 2400]);
    const captures = rig!.phone.stats.opened.filter((o) => o.startsWith('exec:screencap'));
    assert.equal(captures.map((o) => o.includes('-p')), [false, true], captures.join(', '));
    assert.match(String((await device(engine, serial)).captureChoice.rawRefusal), /RGBA_1010102/);
  } finally {
    rig!.phone.shell.quirks.pixelFormat = 'RGBA_8888';
  }
});

if (hasAdb()) formats.run();
