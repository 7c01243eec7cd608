import { connect } from 'node:net';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { startBridge, type Bridge } from '../../src/bridge/index.js';
import type { DeviceHandle, VideoPacket, VideoStream } from '../../src/engine/driver.js';
import { jpegSize, MjpegParser } from '../../src/engine/drivers/ios/mjpeg-stream.js';
import { OpenedClients, until } from '../bridge/helpers.js';
import { makeRig, PHONE_UDID, SIM_UDID, type Rig } from './rig.js';

const test = suite('iOS live video: WebDriverAgent MJPEG relay');

let rig: Rig | undefined;
let bridge: Bridge | undefined;
const clients = new OpenedClients();

test.after.each(async () => {
  await clients.closeAll();
  // The bridge closes the engine it was given; the rig's close then stops WDA and the fake tools.
  await bridge?.close();
  bridge = undefined;
  await rig?.close().catch(() => undefined);
  rig = undefined;
});

function handle(r: Rig, id = SIM_UDID): Promise<DeviceHandle> {
  return r.engine.withDevice(id, 'test', async (d) => d);
}

async function firstPackets(stream: VideoStream, n: number): Promise<VideoPacket[]> {
  const out: VideoPacket[] = [];
  for await (const p of stream.packets()) {
    out.push(p);
    if (out.length === n) break;
  }
  return out;
}

test('the emulated MJPEG server streams only after the client sends bytes, in WDA’s verbatim framing', async () => {
  rig = await makeRig();
  const port = rig.wda.mjpeg.portNumber;
  const silent = connect({ host: '127.0.0.1', port });
  let got = 0;
  silent.on('data', (d: Buffer) => (got += d.length));
  await new Promise((r) => setTimeout(r, 400));
  assert.is(got, 0, 'nothing before the client speaks');
  const bytes: Buffer[] = [];
  silent.on('data', (d: Buffer) => bytes.push(d));
  silent.write('x');
  await until('two parts', () => Buffer.concat(bytes).toString('latin1').split('--BoundaryString\r\n').length > 2, 5000);
  silent.destroy();
  const text = Buffer.concat(bytes).toString('latin1');
  assert.ok(text.startsWith('HTTP/1.0 200 OK\r\nServer: WDA MJPEG Server\r\nConnection: close\r\n'));
  assert.match(text, /Content-Type: multipart\/x-mixed-replace; boundary=--BoundaryString\r\n\r\n--BoundaryString\r\nContent-type: image\/jpeg\r\nContent-Length: \d+\r\n\r\n\xff\xd8/);
  // The parser copes with any chunking, one byte at a time included.
  const parser = new MjpegParser();
  const pictures: Buffer[] = [];
  const all = Buffer.concat(bytes);
  for (let i = 0; i < all.length; i++) pictures.push(...parser.push(all.subarray(i, i + 1)));
  assert.ok(pictures.length >= 1);
  const meta = await sharp(pictures[0]).metadata();
  assert.is(meta.format, 'jpeg');
  assert.equal(jpegSize(pictures[0]), { width: meta.width, height: meta.height });
});

test('openVideo sets framerate, scale, quality and upright pictures through /appium/settings and relays WDA’s JPEG bytes', async () => {
  rig = await makeRig();
  const device = await handle(rig);
  const size = (await rig.call('mobile_get_screen_size')) as { width: number; height: number };
  const stream = await device.openVideo!({ maxSize: 0, maxFps: 24 });
  try {
    assert.is(stream.codec, 'jpeg');
    assert.is(stream.source, 'wda-mjpeg');
    assert.equal(rig.wda.mjpeg.settings, { mjpegServerFramerate: 24, mjpegScalingFactor: 100, mjpegServerScreenshotQuality: 50, mjpegFixOrientation: true });
    assert.ok(rig.wda.requests.includes('POST /session/:id/appium/settings'));
    const [p] = await firstPackets(stream, 1);
    assert.equal([p.width, p.height, p.key, p.config], [size.width, size.height, true, false]);
    assert.ok(rig.wda.mjpeg.recent.some((sent) => sent.equals(p.data)), 'the bytes are WDA’s own, not re-encoded');
  } finally {
    await stream.close();
  }
  const scaled = await device.openVideo!({ maxSize: 1200, maxFps: 90 });
  try {
    const longest = Math.max(size.width, size.height);
    // WDA 5.15.1+ applies the factor twice when it draws pictures upright: the square root of the wanted one is sent.
    const wanted = Math.floor((1200 * 100) / longest);
    assert.is(rig.wda.mjpeg.settings.mjpegScalingFactor, Math.floor(Math.sqrt(wanted / 100) * 100));
    assert.is(rig.wda.mjpeg.settings.mjpegServerFramerate, 60);
    // A picture WDA was encoding when the settings changed may still come at the old scale (as on a real WDA).
    const p = (await firstPackets(scaled, 3)).at(-1)!;
    assert.ok(Math.max(p.width, p.height) <= 1200, `scaled picture ${p.width}x${p.height}`);
    assert.ok(Math.max(p.width, p.height) >= 1200 * 0.95, `not scaled twice: ${p.width}x${p.height}`);
  } finally {
    await scaled.close();
  }
  await until('the server forgets closed clients', () => rig!.wda.mjpeg.clients === 0, 3000);
});

test('bridge: full-width jpeg subscribers get WDA’s pictures unchanged; narrower ones the screenshot path', async () => {
  rig = await makeRig();
  bridge = await startBridge({ engine: rig.engine, port: 0, webRoot: '/nonexistent', log: () => {}, video: { maxSize: 0 } });
  const c = await clients.open(bridge.wsUrl);
  const full = await c.call('devices.subscribe', { device: SIM_UDID, screen: { format: 'jpeg' } });
  assert.equal([full.format, full.source, full.fallback_reason], ['jpeg', 'wda-mjpeg', undefined]);
  const narrow = await c.call('devices.subscribe', { device: SIM_UDID, screen: { format: 'jpeg', maxWidth: 200 } });
  assert.equal([narrow.format, narrow.source], ['jpeg', 'screenshot']);
  const h264 = await c.call('devices.subscribe', { device: SIM_UDID, screen: { format: 'h264' } });
  assert.equal([h264.format, h264.source], ['jpeg', 'wda-mjpeg']);
  await until('frames for all three', () => new Set(c.frames.map((f) => f.header.subscription)).size === 3, 8000);
  const relayed = c.frames.filter((f) => f.header.subscription === full.subscription);
  const sent = relayed.at(-1)!;
  assert.ok(rig.wda.mjpeg.recent.some((jpeg) => jpeg.equals(sent.image)), 'relayed without re-encoding');
  const meta = await sharp(sent.image).metadata();
  assert.equal([meta.width, meta.height], [sent.header.width, sent.header.height]);
  assert.is(c.frames.find((f) => f.header.subscription === narrow.subscription)!.header.width, 200);
  assert.is(bridge.hub.stats().video[SIM_UDID]?.starts, 1, 'one MJPEG connection for both video subscribers');
  assert.is(rig.wda.mjpeg.clients, 1);
});

test('bridge: MJPEG server unreachable → screenshots with the reason; back to MJPEG when it answers', async () => {
  rig = await makeRig();
  await rig.wda.mjpeg.stop();
  bridge = await startBridge({ engine: rig.engine, port: 0, webRoot: '/nonexistent', log: () => {}, video: { retryMs: 300, retryMaxMs: 600 } });
  const c = await clients.open(bridge.wsUrl);
  const sub = await c.call('devices.subscribe', { device: SIM_UDID, screen: { format: 'jpeg' } });
  assert.equal([sub.format, sub.source], ['jpeg', 'screenshot']);
  assert.match(String(sub.fallback_reason), /MJPEG server .* is unreachable: ECONNREFUSED/);
  await until('screenshot frames', () => c.frames.length > 0, 8000);
  await rig.wda.mjpeg.start();
  const up = await c.notification('stream.changed', (p) => p.source === 'wda-mjpeg', 8000);
  assert.equal(up, { subscription: sub.subscription, device: SIM_UDID, format: 'jpeg', source: 'wda-mjpeg' });
  // WDA dies mid-stream: back to screenshots within 5 s, with why.
  await rig.wda.mjpeg.stop();
  const down = await c.notification('stream.changed', (p) => p.source === 'screenshot', 5000);
  assert.match(String(down.fallback_reason), /closed the connection|unreachable/);
});

test('a USB iPhone streams through its own usbmuxd relay to port 9100, closed with the stream', async () => {
  rig = await makeRig({ phone: { version: '17.4.1', tunnel: true } });
  const device = await handle(rig, PHONE_UDID);
  const stream = await device.openVideo!({ maxSize: 0, maxFps: 10 });
  const [p] = await firstPackets(stream, 1);
  assert.is(p.key, true);
  assert.ok(rig.tools.usbmuxd.connects.includes(`${PHONE_UDID}:9100 → 0`), rig.tools.usbmuxd.connects.join('\n'));
  await stream.close();
  await until('the server forgets the client', () => rig!.wda.mjpeg.clients === 0, 3000);
});

test.run();
