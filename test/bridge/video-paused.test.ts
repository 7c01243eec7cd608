import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import type { DeviceHandle, Driver } from '../../src/engine/driver.js';
import { ToolError } from '../../src/engine/errors.js';
import { encodeClip } from '../support/h264-clip.js';
import { replayVideoDriver } from '../support/replay-video.js';
import { systemTool } from '../support/system-tools.js';
import { OpenedClients, RawClient, testBridge, until, type Json } from './helpers.js';

/**
 * A subscription made while its device is paused (gone, not yet found again by the probe): it used
 * to be answered h264/scrcpy, hear `subscription.resumed` without ever having been paused, and
 * then get no frame at all, ever (audit 24, b3 #2).
 */
const test = suite('bridge: an h264 subscription made while the device is paused');
const ffmpeg = systemTool('ffmpeg', 'the live-video tests replay an H.264 clip it encodes');
const DEVICE = 'replay-android-1';
const SIZE = { width: 360, height: 800 };

let bridge: Bridge | undefined;
const clients = new OpenedClients();

test.after.each(async () => {
  await clients.closeAll();
  await bridge?.close();
  bridge = undefined;
});

/** The replay phone, whose calls (not its video) fail with DEVICE_NOT_FOUND while `away`, except `passes` of them. */
function vanishing(driver: Driver): { driver: Driver; device: { away: boolean; passes: number } } {
  const device = { away: false, passes: 0 };
  const wrap = (h: DeviceHandle): DeviceHandle =>
    new Proxy(h, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function' || prop === 'openVideo') return value;
        return (...args: unknown[]) => {
          if (device.away && device.passes-- <= 0) throw new ToolError('DEVICE_NOT_FOUND', `${DEVICE} vanished`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  return {
    device,
    driver: { ...driver, listDevices: (ctx) => driver.listDevices(ctx), close: () => driver.close(), open: async (id, ctx) => {
      const h = await driver.open(id, ctx);
      return h && wrap(h);
    } },
  };
}

function client(): Promise<RawClient> {
  return clients.open(bridge!.wsUrl);
}

test('it is told it is paused, and gets video (config + key frame first) once the device is back', async () => {
  if (!ffmpeg) return;
  const clip = await encodeClip(ffmpeg, { ...SIZE, fps: 30, seconds: 2, gop: 15 });
  const { driver, device } = vanishing(replayVideoDriver(clip, SIZE, DEVICE).driver);
  ({ bridge } = await testBridge({ extraDrivers: [driver], video: { graceMs: 200, retryMs: 200, retryMaxMs: 400, startTimeoutMs: 2000 } }));
  const a = await client();
  await a.call('devices.subscribe', { device: DEVICE, screen: { format: 'jpeg', maxFps: 10 } });
  await until('jpeg frames', () => a.frames.length > 0);
  device.away = true;
  await a.notification('subscription.paused', () => true, 5000);
  // Only the subscribe's own look at the device gets through: the probe keeps failing until the test says.
  device.passes = 1;
  const b = await client();
  const sub = await b.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  assert.equal([sub.format, sub.source], ['h264', 'scrcpy']);
  const mine = (p: Json) => p.subscription === sub.subscription;
  const paused = await b.notification('subscription.paused', mine, 5000);
  assert.match(String(paused.reason), /vanished/);
  device.away = false;
  await b.notification('subscription.resumed', mine, 5000);
  const first = await until('video for the subscription made while paused', () => b.frames.find((f) => f.header.subscription === sub.subscription), 8000);
  assert.ok(first.header.key && first.header.config, 'its first message decodes on its own');
});

test.run();
