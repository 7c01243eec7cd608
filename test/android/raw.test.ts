import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { RawImage } from '../../src/engine/driver.js';
import type { Engine } from '../../src/engine/engine.js';
import { isOpaqueFrame, parseRawScreencap, rgbaFromRawFrame, unreadableRawFormat } from '../../src/engine/drivers/android/screencap.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';
import { stillCapture } from './still-capture.js';

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
  // The app may still be settling (loading state, the status-bar clock).
  const { shot: image, phone } = await stillCapture(rig!, () => screenshotRaw(rig!.engine, rig!.phone.serial));
  assert.equal({ width: image.width, height: image.height, channels: image.channels }, { width: 1080, height: 2400, channels: 4 });
  assert.ok(image.data.equals(phone), 'pixels equal the phone\'s');
  assert.ok(rig!.phone.stats.opened.some((s) => /^exec:screencap( -d \S+)? 2>/.test(s)), 'used raw screencap, not screencap -p');
});

raw('PNG screencap option: the device\'s PNG decoded to the same pixels', async ({ rig }) => {
  const engine = rig!.engineWith({ screencap: 'png' });
  const { shot: image, phone } = await stillCapture(rig!, () => screenshotRaw(engine, rig!.phone.serial));
  assert.equal(image.channels, 4);
  assert.ok(image.data.equals(phone));
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

formats('RGB_565 widened to opaque RGBA by repeating each channel\'s top bits: 0 stays 0, full scale is 255', () => {
  const packed = Buffer.alloc(12);
  [0xf800, 0x07e0, 0x001f, 0x0000, 0xffff, 0x8410].forEach((v, i) => packed.writeUInt16LE(v, i * 2));
  const rgba = rgbaFromRawFrame({ width: 6, height: 1, format: 4, pixels: packed });
  assert.equal([...rgba.data], [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 255, 255, 255, 255, 255, 132, 130, 132, 255]);
  assert.ok(isOpaqueFrame({ width: 6, height: 1, format: 4, pixels: packed }));
});

formats('raw frames: the header size and bytes per pixel from the length; unreadable formats named, text is not a format', () => {
  const frame = (format: number, headerSize: 12 | 16, pixelBytes: number) => {
    const h = Buffer.alloc(headerSize);
    h.writeUInt32LE(3, 0);
    h.writeUInt32LE(2, 4);
    h.writeUInt32LE(format, 8);
    return Buffer.concat([h, Buffer.alloc(3 * 2 * pixelBytes, 7)]);
  };
  for (const headerSize of [12, 16] as const) {
    const f = parseRawScreencap(frame(4, headerSize, 2));
    assert.equal([f.width, f.height, f.format, f.headerSize, f.pixels.length], [3, 2, 4, headerSize, 12]);
    assert.is(unreadableRawFormat(frame(4, headerSize, 2)), undefined);
  }
  assert.match(String(unreadableRawFormat(frame(43, 16, 4))), /pixel format 43 \(RGBA_1010102\).*screencap -p/);
  assert.match(String(unreadableRawFormat(frame(3, 12, 3))), /RGB_888/);
  assert.throws(() => parseRawScreencap(frame(22, 16, 8)), /pixel format 22 \(RGBA_FP16\)/);
  // RGBA_8888 named in the header, two bytes a pixel in the output: not a frame of that format.
  assert.is(unreadableRawFormat(frame(1, 16, 2)), undefined);
  assert.throws(() => parseRawScreencap(frame(1, 16, 2)), /does not hold a 3×2 frame/);
  assert.is(unreadableRawFormat(Buffer.from('Failed to take screenshot (Error Code: -1)\n')), undefined);
});

formats.run();
