import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RawImage } from '../../src/engine/driver.js';
import type { Engine } from '../../src/engine/engine.js';
import { rgbaFromRawFrame } from '../../src/engine/drivers/android/screencap.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

const raw = suite<{ rig?: AndroidRig }>('android screenshotRaw through the real adb server');

raw.before(async (ctx) => {
  ctx.rig = await startRig();
});
raw.after(async (ctx) => {
  await ctx.rig?.stop();
});

async function screenshotRaw(engine: Engine, serial: string): Promise<RawImage> {
  return engine.withDevice(serial, 'raw screenshot', (handle, ctx) => {
    if (!handle.screenshotRaw) throw new Error('the Android device handle offers no screenshotRaw');
    return handle.screenshotRaw(ctx);
  });
}

raw('raw screencap: RGBA pixels equal the phone\'s, no PNG involved', async ({ rig }) => {
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  // The app may still be settling (loading state, the status-bar clock): compare a capture taken
  // while the phone's screen stood still, i.e. the same before and after it.
  let image: RawImage | undefined;
  let phone: { data: Buffer } | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = Buffer.from((await rig!.phone.phone.screenRgba()).data);
    image = await screenshotRaw(rig!.engine, rig!.phone.serial);
    phone = await rig!.phone.phone.screenRgba();
    if (before.equals(phone.data)) break;
  }
  assert.equal({ width: image!.width, height: image!.height, channels: image!.channels }, { width: 1080, height: 2400, channels: 4 });
  assert.ok(image!.data.equals(phone!.data), 'pixels equal the phone\'s');
  assert.ok(rig!.phone.stats.opened.some((s) => /^exec:screencap( -d \S+)? 2>/.test(s)), 'used raw screencap, not screencap -p');
});

raw('PNG screencap option: the device\'s PNG decoded to the same pixels', async ({ rig }) => {
  const engine = rig!.engineWith({ screencap: 'png' });
  const image = await screenshotRaw(engine, rig!.phone.serial);
  assert.equal(image.channels, 4);
  assert.ok(image.data.equals((await rig!.phone.phone.screenRgba()).data));
});

if (hasAdb()) raw.run();

const formats = suite('raw screencap pixel formats to RGBA');

formats('BGRA_8888 swaps red and blue; RGBX_8888 gets an opaque alpha; RGBA_8888 is kept', () => {
  const frame = (format: number, bytes: number[]) => ({ width: 2, height: 1, format, pixels: Buffer.from(bytes) });
  assert.equal([...rgbaFromRawFrame(frame(5, [1, 2, 3, 4, 5, 6, 7, 8])).data], [3, 2, 1, 4, 7, 6, 5, 8]);
  assert.equal([...rgbaFromRawFrame(frame(2, [1, 2, 3, 0, 5, 6, 7, 99])).data], [1, 2, 3, 255, 5, 6, 7, 255]);
  const rgba = rgbaFromRawFrame(frame(1, [1, 2, 3, 4, 5, 6, 7, 8]));
  assert.equal({ bytes: [...rgba.data], width: rgba.width, height: rgba.height, channels: rgba.channels }, { bytes: [1, 2, 3, 4, 5, 6, 7, 8], width: 2, height: 1, channels: 4 });
});

formats.run();
