import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import type { DeviceHandle, Driver } from '../../src/engine/driver.js';
import { ToolError } from '../../src/engine/errors.js';
import { encodeClip, type ClipPacket } from '../support/h264-clip.js';
import { replayVideoDriver } from '../support/replay-video.js';
import { systemTool } from '../support/system-tools.js';
import { OpenedClients, RawClient, testBridge, until } from './helpers.js';

/**
 * After the last h264 subscriber left, the device's state and its idle video stayed in the hub for
 * good (listed by /api/health), and a paused device's probe kept looking for it (audit 24, b3 #5).
 */
const test = suite('bridge: nothing of a device is kept once its video grace period is over');
const ffmpeg = systemTool('ffmpeg', 'the live-video tests replay an H.264 clip it encodes');
const DEVICE = 'replay-android-1';
const SIZE = { width: 360, height: 800 };

let clip: ClipPacket[];
let bridge: Bridge | undefined;
const clients = new OpenedClients();

test.before(async () => {
  if (ffmpeg) clip = await encodeClip(ffmpeg, { ...SIZE, fps: 30, seconds: 2, gop: 15 });
});

test.after.each(async () => {
  await clients.closeAll();
  await bridge?.close();
  bridge = undefined;
});

function client(): Promise<RawClient> {
  return clients.open(bridge!.wsUrl);
}

test('the last h264 subscriber leaves: after the grace period the device is gone from the hub', async () => {
  if (!ffmpeg) return;
  const replay = replayVideoDriver(clip, SIZE, DEVICE);
  ({ bridge } = await testBridge({ extraDrivers: [replay.driver], video: { graceMs: 200 } }));
  const c = await client();
  const sub = await c.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  await until('frames', () => c.frames.length > 0, 8000);
  await c.call('devices.unsubscribe', { subscription: sub.subscription });
  assert.is(bridge.hub.stats().devices, 1, 'kept through the grace period (a reload does not restart the encoder)');
  await until('the stream closed', () => replay.control.closed === 1, 5000);
  const stats = await until('the device forgotten', () => bridge!.hub.stats().devices === 0 && bridge!.hub.stats(), 5000);
  assert.equal(stats.video, {});
  // A new viewer starts it all again.
  const again = await c.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  assert.is(again.format, 'h264');
  await until('frames again', () => c.frames.some((f) => f.header.subscription === again.subscription), 8000);
});

test('a paused device whose last subscriber left is no longer looked for after the grace period', async () => {
  if (!ffmpeg) return;
  const replay = replayVideoDriver(clip, SIZE, DEVICE);
  const device = { away: false, looks: 0 };
  const driver: Driver = {
    ...replay.driver,
    listDevices: (ctx) => replay.driver.listDevices(ctx),
    close: () => replay.driver.close(),
    open: async (id, ctx) => {
      const h = await replay.driver.open(id, ctx);
      return (
        h &&
        (new Proxy(h, {
          get(target, prop) {
            const value = Reflect.get(target, prop, target) as unknown;
            if (typeof value !== 'function' || prop === 'openVideo') return value;
            return (...args: unknown[]) => {
              if (prop === 'screenSize') device.looks++;
              if (device.away) throw new ToolError('DEVICE_NOT_FOUND', `${DEVICE} vanished`);
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        }) as DeviceHandle)
      );
    },
  };
  ({ bridge } = await testBridge({ extraDrivers: [driver], video: { graceMs: 200 } }));
  const c = await client();
  // A jpeg subscriber notices the device going (its capture fails); the h264 one keeps the video live.
  const jpeg = await c.call('devices.subscribe', { device: DEVICE, screen: { format: 'jpeg', maxWidth: 180 } });
  const h264 = await c.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  await until('video frames', () => c.frames.some((f) => f.header.subscription === h264.subscription), 8000);
  device.away = true;
  await c.notification('subscription.paused', (p) => p.subscription === jpeg.subscription, 5000);
  await c.call('devices.unsubscribe', { subscription: jpeg.subscription });
  await c.call('devices.unsubscribe', { subscription: h264.subscription });
  await until('the device forgotten', () => bridge!.hub.stats().devices === 0, 5000);
  // Over two probe periods (2 s each) a probe still running looks twice; one look may have been under way.
  const looks = device.looks;
  await new Promise((r) => setTimeout(r, 4500));
  assert.ok(device.looks <= looks + 1, `no probe of the device nobody watches (${device.looks - looks} looks)`);
});

test.run();
