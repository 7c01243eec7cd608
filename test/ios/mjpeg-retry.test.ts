import { createServer, type Server, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import type { DeviceHandle } from '../../src/engine/driver.js';
import { MjpegStream } from '../../src/engine/drivers/ios/mjpeg-stream.js';
import { makeRig, SIM_UDID, type Rig } from './rig.js';

/**
 * WDA's MJPEG server answers with its HTTP header at once, but after a failed screenshot it waits 2 s, then 4 s…
 * before the next (FBMjpegServer.m): a late first picture is a live server, not a missing one.
 */

const test = suite('iOS live video: WebDriverAgent MJPEG screenshots that fail at first');

let rig: Rig | undefined;
let silent: Server | undefined;
const held: Socket[] = [];

test.after.each(async () => {
  await rig?.close().catch(() => undefined);
  rig = undefined;
  for (const s of held.splice(0)) s.destroy();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
  silent = undefined;
});

test('the first two MJPEG screenshots fail: openVideo waits out WDA’s 2 s and 4 s back-off and goes live', async () => {
  rig = await makeRig();
  const device: DeviceHandle = await rig.engine.withDevice(SIM_UDID, 'test', async (d) => d);
  rig.wda.mjpeg.failNextScreenshots = 2;
  const stream = await device.openVideo!({ maxSize: 0, maxFps: 10 });
  try {
    const first = await stream.packets()[Symbol.asyncIterator]().next();
    assert.is(first.done, false);
    assert.ok(rig.wda.mjpeg.recent.some((jpeg) => jpeg.equals(first.value!.data)), 'WDA’s own picture');
    assert.equal(rig.wda.mjpeg.backoffs, [2000, 4000], 'the emulated server backed off as FBMjpegServer.m does');
  } finally {
    await stream.close();
  }
});

test('screenshots that keep failing are told apart from a server that is not there', async () => {
  rig = await makeRig();
  rig.wda.mjpeg.failScreenshots = true;
  const wait = { firstPictureMs: 300, answeredMs: 1500 };
  const err = await MjpegStream.open({ host: '127.0.0.1', port: rig.wda.mjpeg.portNumber, label: 'simulator test' }, wait).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.match(String(err?.message), /answered but sent no picture within 1500 ms: WebDriverAgent could not take a screenshot/);
  assert.ok(rig.wda.mjpeg.backoffs.length >= 1, 'it tried, and backed off');

  // Something that accepts the connection and never answers is what the short wait is for.
  silent = createServer((s) => held.push(s));
  await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', () => resolve()));
  const port = (silent.address() as { port: number }).port;
  const quiet = await MjpegStream.open({ host: '127.0.0.1', port, label: 'simulator test' }, wait).then(
    () => undefined,
    (e: Error) => e,
  );
  assert.match(String(quiet?.message), /sent nothing within 300 ms \(does this WebDriverAgent build have the MJPEG server/);
});

test.run();
