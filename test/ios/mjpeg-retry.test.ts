import { createServer, type Server, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import sharp from 'sharp';

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
  const wait = { firstPictureMs: 300, answeredMs: 1500, stalledMs: 12_000 };
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

/** How the stream ended: its error, 'ended' without one, or 'still live' if it was still running after `guardMs`. */
async function ending(stream: MjpegStream, guardMs: number): Promise<string> {
  const drained = (async () => {
    for await (const _ of stream.packets()) continue;
    return 'ended';
  })().catch((e: Error) => e.message);
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still live'), guardMs)));
  try {
    return await Promise.race([drained, guard]);
  } finally {
    clearTimeout(timer);
  }
}

test('a live stream whose pictures stop (every screenshot fails from then on) ends saying it stalled instead of showing its last picture as live', async () => {
  rig = await makeRig();
  const stream = await MjpegStream.open({ host: '127.0.0.1', port: rig.wda.mjpeg.portNumber, label: 'simulator test' }, { firstPictureMs: 3000, answeredMs: 10_000, stalledMs: 1000 });
  try {
    rig.wda.mjpeg.failScreenshots = true;
    assert.match(await ending(stream, 15_000), /MJPEG server of simulator test sent no picture for 1 s though it sends one at least every 11 s .*the stream stalled/);
  } finally {
    await stream.close();
  }
});

test('a part cut short and then silence (the link stopped carrying bytes) is a stall too: a partial picture keeps nothing alive', async () => {
  const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336' } }).jpeg().toBuffer();
  const part = Buffer.concat([Buffer.from(`--BoundaryString\r\nContent-type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`), jpeg, Buffer.from('\r\n\r\n')]);
  silent = createServer((s) => {
    held.push(s);
    s.once('data', () => {
      s.write('HTTP/1.0 200 OK\r\nServer: WDA MJPEG Server\r\nContent-Type: multipart/x-mixed-replace; boundary=--BoundaryString\r\n\r\n');
      s.write(part);
      // The next part's header and half its picture, then nothing more, the connection left open.
      s.write(part.subarray(0, part.length - jpeg.length / 2));
    });
  });
  await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', () => resolve()));
  const port = (silent.address() as { port: number }).port;
  const stream = await MjpegStream.open({ host: '127.0.0.1', port, label: 'iPhone test' }, { firstPictureMs: 3000, answeredMs: 10_000, stalledMs: 500 });
  try {
    assert.match(await ending(stream, 8000), /iPhone test sent no picture for 0.5 s .*stalled/);
  } finally {
    await stream.close();
  }
});

test.run();
