import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createAdbClient } from '../../src/engine/drivers/android/adb-client.js';
import { DEFAULT_SCRCPY_OPTIONS, ScrcpyManager } from '../../src/engine/drivers/android/scrcpy/scrcpy-manager.js';
import { disconnection } from '../../src/engine/drivers/android/scrcpy/device-state.js';
import { ToolError } from '../../src/engine/errors.js';
import { handleOf, hasFfmpeg, take } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** A phone unplugged while it streams: its own rig, since the phone stays unplugged. */
const test = suite<{ rig?: AndroidRig }>('scrcpy: a stream ended by a disconnect says so, and is not restarted');

test.before(async (ctx) => {
  if (hasAdb() && hasFfmpeg()) ctx.rig = await startRig();
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});

test('adb\'s words for a device it no longer reaches are recognised; other failures are not', () => {
  assert.is(disconnection(new Error("Failure: 'device offline'")), 'device offline');
  assert.is(disconnection(new Error("Failure: 'device '127.0.0.1:5999' not found'")), "device '127.0.0.1:5999' not found");
  assert.is(disconnection(new Error("Failure: 'device not found'")), 'device not found');
  assert.is(disconnection(new Error("Failure: 'no devices/emulators found'")), 'no devices/emulators found');
  assert.is(disconnection(new Error("Failure: 'closed'")), undefined);
  assert.is(disconnection(new Error('failed to copy: No space left on device')), undefined);
});

test('unplugged mid-stream: the stream fails with DEVICE_NOT_FOUND saying the device disconnected, and no restart is tried', async ({ rig }) => {
  if (!rig) return;
  // restartAfterMs 0 stands for a stream that ran long enough to be restarted after an encoder error.
  const engine = rig.engineWith({ scrcpy: { graceMs: 200, bindTimeoutMs: 1_500, restartAfterMs: 0 } });
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  const it = video.packets()[Symbol.asyncIterator]();
  await take(it, 2);
  const launches = rig.phone.scrcpy.launches;
  await rig.phone.adbd.close();
  const failure = await take(it, 10_000, 10_000).then(() => undefined, (err: unknown) => err);
  assert.instance(failure, ToolError, String(failure));
  const { code, message } = failure as ToolError;
  assert.is(code, 'DEVICE_NOT_FOUND', message);
  assert.match(message, /^scrcpy-server on \S+ stopped: the device disconnected \(adb: (device offline|device '[^']+' not found)\)/);
  assert.not.match(message, /cause is unknown|restarting failed|free space/);
  assert.is(rig.phone.scrcpy.launches, launches, 'no new server was started');
  await video.close();
});

test('a start on a device adb reports offline: DEVICE_NOT_FOUND saying so, not "check free space"', async ({ rig }) => {
  if (!rig) return;
  // The manager on its own (the engine drops a device that went offline before any push).
  const device = createAdbClient({ host: '127.0.0.1', port: rig.server.port, source: 'test' }, undefined).getDevice(rig.phone.serial);
  const size = { width: 1080, height: 2400 };
  const manager = new ScrcpyManager(device, rig.phone.serial, { read: async () => size, known: () => size }, { ...DEFAULT_SCRCPY_OPTIONS, graceMs: 0, bindTimeoutMs: 1_500 });
  try {
    const failure = await manager.openVideo({ maxSize: 1200, maxFps: 30 }).then(() => undefined, (err: unknown) => err);
    assert.instance(failure, ToolError, String(failure));
    const { code, message } = failure as ToolError;
    assert.is(code, 'DEVICE_NOT_FOUND', message);
    assert.match(message, /disconnected before scrcpy-server could be pushed \(adb: (device offline|device '[^']+' not found)\)/);
    assert.not.match(message, /free space/);
  } finally {
    await manager.close();
  }
});

test.run();
