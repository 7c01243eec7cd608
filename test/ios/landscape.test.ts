import { connect } from 'node:net';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { DeviceHandle, VideoPacket, VideoStream } from '../../src/engine/driver.js';
import { exifOrientation } from '../../src/engine/drivers/ios/jpeg-orientation.js';
import { MjpegParser } from '../../src/engine/drivers/ios/mjpeg-stream.js';
import { until } from '../bridge/helpers.js';
import { find, makeRig, SIM_UDID, type Rig, type RigOptions } from './rig.js';

const test = suite('iOS in landscape: screenshots, size, taps and live video as the user sees the screen');
const DEMO = 'com.mobilebridge.demo';
/** The virtual iPhone 15 in landscape, in pixels. */
const LANDSCAPE = { width: 2556, height: 1179 };

let rig: Rig | undefined;

test.after.each(async () => {
  await rig?.close().catch(() => undefined);
  rig = undefined;
});

async function landscapeRig(options: RigOptions = {}): Promise<Rig> {
  rig = await makeRig(options);
  await rig.call('mobile_launch_app', { packageName: DEMO });
  assert.is((await rig.call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
  return rig;
}

function handle(r: Rig): Promise<DeviceHandle> {
  return r.engine.withDevice(SIM_UDID, 'test', async (d) => d);
}

async function packetsOf(stream: VideoStream, n: number): Promise<VideoPacket[]> {
  const out: VideoPacket[] = [];
  for await (const p of stream.packets()) {
    out.push(p);
    if (out.length === n) break;
  }
  return out;
}

/** Mean difference per channel between a picture (turned as its EXIF says) and the phone's screen as the user sees it. */
async function differenceFromScreen(r: Rig, picture: Buffer): Promise<number> {
  const screen = await sharp((await r.device.screenPng()).png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const shown = await sharp(picture).rotate().removeAlpha().resize(screen.info.width, screen.info.height, { fit: 'fill' }).raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < shown.length; i++) sum += Math.abs(shown[i] - screen.data[i]);
  return sum / shown.length;
}

/** Parts straight from the emulated MJPEG server, as WDA sends them. */
async function rawParts(r: Rig, n: number): Promise<Buffer[]> {
  const socket = connect({ host: '127.0.0.1', port: r.wda.mjpeg.portNumber });
  const parser = new MjpegParser();
  const parts: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => parts.push(...parser.push(chunk)));
  socket.write('GET / HTTP/1.1\r\n\r\n');
  try {
    await until(`${n} parts`, () => parts.length >= n, 8000);
  } finally {
    socket.destroy();
  }
  return parts;
}

test('screen size and screenshot are the landscape screen, upright', async () => {
  const r = await landscapeRig();
  assert.equal(await r.call('mobile_get_orientation'), { orientation: 'landscape' });
  assert.equal(await r.call('mobile_get_screen_size'), LANDSCAPE);
  const shot = await r.call('mobile_take_screenshot');
  assert.equal(shot.dimensions, LANDSCAPE);
  assert.ok((await differenceFromScreen(r, Buffer.from(shot.image, 'base64'))) < 1, 'the screenshot shows the screen as it is seen');
});

test('a tap at a listed element’s centre lands on that element in landscape', async () => {
  const r = await landscapeRig();
  const password = find((await r.call('mobile_list_elements_on_screen')).elements, 'Password');
  // Its centre lies beyond a portrait screen's width: only landscape coordinates reach it.
  assert.ok(password.center.x > LANDSCAPE.height, JSON.stringify(password));
  await r.call('mobile_click_on_screen_at_coordinates', password.center);
  assert.is(r.device.focusedField, 'password');
  // The keyboard now covers part of the screen: the listing says where the other field went.
  const email = find((await r.call('mobile_list_elements_on_screen')).elements, 'Email');
  await r.call('mobile_click_on_screen_at_coordinates', email.center);
  assert.is(r.device.focusedField, 'email');
});

test('the emulated WDA stores landscape MJPEG pictures portrait with an EXIF orientation until mjpegFixOrientation', async () => {
  const r = await landscapeRig();
  assert.is(r.wda.mjpeg.settings.mjpegFixOrientation, false, 'FBConfiguration.m leaves it NO');
  const [stored] = await rawParts(r, 1);
  const meta = await sharp(stored).metadata();
  assert.equal([meta.width, meta.height, meta.orientation], [LANDSCAPE.height, LANDSCAPE.width, 8]);
  assert.ok((await differenceFromScreen(r, stored)) < 6, 'turned as its EXIF says, it is the screen');
  r.wda.mjpeg.settings.mjpegFixOrientation = true;
  const fixed = (await rawParts(r, 3)).at(-1)!;
  const upright = await sharp(fixed).metadata();
  assert.equal([upright.width, upright.height, upright.orientation], [LANDSCAPE.width, LANDSCAPE.height, undefined]);
});

test('live video in landscape: WDA is asked to draw pictures upright, and they are relayed unchanged', async () => {
  const r = await landscapeRig();
  const device = await handle(r);
  const stream = await device.openVideo!({ maxSize: 0, maxFps: 20 });
  try {
    assert.is(r.wda.mjpeg.settings.mjpegFixOrientation, true);
    // A picture taken before the settings arrived may still be portrait-stored: the last one counts.
    const p = (await packetsOf(stream, 3)).at(-1)!;
    assert.equal([p.width, p.height], [LANDSCAPE.width, LANDSCAPE.height]);
    assert.is(exifOrientation(p.data), 1);
    assert.ok(r.wda.mjpeg.recent.some((sent) => sent.equals(p.data)), 'WDA’s own bytes, not turned here');
    assert.ok((await differenceFromScreen(r, p.data)) < 6);
  } finally {
    await stream.close();
  }
});

test('live video from a WDA before 5.15.1 (no mjpegFixOrientation): portrait-stored pictures are turned upright, either side', async () => {
  const r = await landscapeRig({ wda: { before5_15: true } });
  const device = await handle(r);
  for (const side of ['landscapeRight', 'landscapeLeft'] as const) {
    r.wda.orientation.side = side;
    const stream = await device.openVideo!({ maxSize: 0, maxFps: 20 });
    try {
      assert.not.ok('mjpegFixOrientation' in r.wda.mjpeg.settings, 'the build does not know the setting');
      const p = (await packetsOf(stream, 3)).at(-1)!;
      assert.is(exifOrientation(r.wda.mjpeg.recent.at(-1)!), side === 'landscapeRight' ? 8 : 6, 'WDA sent them portrait-stored');
      assert.equal([p.width, p.height], [LANDSCAPE.width, LANDSCAPE.height], side);
      const meta = await sharp(p.data).metadata();
      assert.equal([meta.width, meta.height, meta.orientation ?? 1], [LANDSCAPE.width, LANDSCAPE.height, 1], side);
      assert.ok((await differenceFromScreen(r, p.data)) < 6, side);
    } finally {
      await stream.close();
    }
  }
  // Back in portrait the pictures are upright as they come, and relayed unchanged.
  await r.call('mobile_set_orientation', { orientation: 'portrait' });
  const stream = await device.openVideo!({ maxSize: 0, maxFps: 20 });
  try {
    const p = (await packetsOf(stream, 3)).at(-1)!;
    assert.equal([p.width, p.height], [LANDSCAPE.height, LANDSCAPE.width]);
    assert.ok(r.wda.mjpeg.recent.some((sent) => sent.equals(p.data)));
  } finally {
    await stream.close();
  }
});

test('exifOrientation reads the tag without decoding: 6 and 8 as written, 1 when absent or cut short', async () => {
  const square = sharp({ create: { width: 8, height: 4, channels: 3, background: '#336699' } });
  for (const orientation of [6, 8]) {
    const jpeg = await square.clone().jpeg().withMetadata({ orientation }).toBuffer();
    assert.is(exifOrientation(jpeg), orientation);
    for (const cut of [4, 12, 30, 60]) assert.ok([1, orientation].includes(exifOrientation(jpeg.subarray(0, cut))), `cut at ${cut}`);
  }
  assert.is(exifOrientation(await square.clone().jpeg().toBuffer()), 1);
});

test.run();
