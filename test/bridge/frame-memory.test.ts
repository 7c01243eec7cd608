import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { shrinker } from '../../src/bridge/shrinker.js';
import type { VirtualDevice } from '../../src/engine/drivers/virtual/virtual-device.js';
import type { PixelSlotStats } from '../../src/engine/pixel-slots.js';
import { ANDROID, RawClient, scrollChurn as churn, testBridge, until } from './helpers.js';

/**
 * Issue 16, memory under load: the bytes the bridge holds for frames are bounded while screens
 * change, and go back when the subscribers leave; a subscriber that stops reading is dropped by
 * its budget while the others keep receiving. Counted in bytes and buffers held, not RSS.
 */
const test = suite('bridge frame memory');

let bridge: Bridge | undefined;

test.after.each(async () => {
  await bridge?.close();
  bridge = undefined;
});

const MB = 1024 * 1024;

async function phone(b: Bridge): Promise<VirtualDevice> {
  return b.engine.withDevice(ANDROID, 'test', async (d) => d as unknown as VirtualDevice);
}

test('screen buffers are reused while screens change, bounded per device, and given back when subscribers leave', async () => {
  ({ bridge } = await testBridge());
  const device = await phone(bridge);
  const screenBytes = 1080 * 2400 * 4;
  const actor = await RawClient.open(bridge.wsUrl);
  // Full-width PNG (decoded pixels), half-width JPEG (halved on the downscaler thread), a narrower WebP.
  const screens = [{ format: 'png' }, { format: 'jpeg', maxWidth: 540 }, { format: 'webp', maxWidth: 360 }, { format: 'jpeg', maxWidth: 540 }];
  const viewers = await Promise.all(screens.map(() => RawClient.open(bridge!.wsUrl)));
  await Promise.all(viewers.map((v, i) => v.call('devices.subscribe', { device: ANDROID, screen: { maxFps: 30, ...screens[i] } })));
  await until('first frames', () => viewers.every((v) => v.frames.length > 0), 15_000);

  const before = device.pixelSlots.stats;
  let peakHeld = 0;
  let peakScreens = 0;
  let peakLent = 0;
  const sampler = setInterval(() => {
    const frames = bridge!.hub.stats().frames[ANDROID];
    peakHeld = Math.max(peakHeld, frames?.heldBytes ?? 0);
    peakScreens = Math.max(peakScreens, frames?.heldScreens ?? 0);
    peakLent = Math.max(peakLent, device.pixelSlots.stats.lent);
  }, 10);
  const c = churn(actor);
  await until('many distinct screens', () => Math.min(...viewers.map((v) => new Set(v.frames.map((f) => f.header.seq)).size)) >= 12, 30_000);
  await c.stop();
  clearInterval(sampler);
  const during: PixelSlotStats = device.pixelSlots.stats;
  const drawn = during.allocated + during.reused - (before.allocated + before.reused);
  assert.ok(drawn >= 10, `only ${drawn} screens were drawn`);
  // Most screens are drawn into a slot an earlier one gave back, not into fresh memory.
  assert.ok(during.reused - before.reused > (during.allocated - before.allocated) * 2, `slots: ${JSON.stringify(during)} (before ${JSON.stringify(before)})`);
  // The current screen, one being drawn, and retired ones whose encodings still run: a handful, however many screens.
  assert.ok(peakLent <= 6, `${peakLent} screen buffers were lent out at once`);
  // The pipeline: the current screen and at most two older ones still being encoded, each its raw
  // pixels, their RGB decode (full-width PNG), their halved copy and the encodings.
  assert.ok(peakScreens <= 3, `the frame pipeline held ${peakScreens} screens at once`);
  const perScreen = screenBytes + (screenBytes * 3) / 4 + (screenBytes * 3) / 16 + 2 * MB;
  assert.ok(peakHeld <= 3 * perScreen, `the frame pipeline held ${(peakHeld / MB).toFixed(1)} MB at its peak`);

  // Everyone leaves: the pipeline stops and gives every screen back.
  await Promise.all([actor, ...viewers].map((v) => v.call('session.bye', {})));
  await until('the frame pipeline gone', () => bridge!.hub.stats().frames[ANDROID] === undefined, 10_000);
  // Only the device's own current screen stays lent (it is the device's; the next capture reuses it).
  await until('screens given back', () => device.pixelSlots.stats.lent <= 1 && shrinker.outputs.stats.lent === 0, 10_000);
  // Spare buffers are dropped after the idle time (3 s), so an idle bridge holds no frame memory. The
  // device gives its current screen back only after 5 s without a request, and the trim that drops it
  // may come up to two idle periods later: 11 s at the least, more on a busy machine.
  await until('spares dropped', () => device.pixelSlots.stats.spare === 0 && shrinker.outputs.stats.spare === 0, 25_000);
  assert.ok(device.pixelSlots.stats.lentBytes <= screenBytes, JSON.stringify(device.pixelSlots.stats));
});

test('a subscriber that stops reading is dropped by its budget; the others keep receiving', async () => {
  ({ bridge } = await testBridge({ frameStallMs: 500 }));
  const actor = await RawClient.open(bridge.wsUrl);
  const reader = await RawClient.open(bridge.wsUrl);
  const stalled = await RawClient.open(bridge.wsUrl);
  const stalledHello = await stalled.call('session.hello', { client: 'stops reading' });
  // Full-width PNG: the largest frames, so the operating system's socket buffers fill quickly.
  const screen = { format: 'png', maxFps: 30 };
  await reader.call('devices.subscribe', { device: ANDROID, screen });
  await stalled.call('devices.subscribe', { device: ANDROID, screen });
  await until('first frames', () => reader.frames[0] && stalled.frames[0], 15_000);
  const frameBytes = reader.frames[0].image.length;

  (stalled.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  let maxBuffered = 0;
  const sampler = setInterval(() => {
    maxBuffered = Math.max(maxBuffered, bridge!.bufferedBySession().get(stalledHello.session as string) ?? 0);
  }, 10);
  const c = churn(actor);
  const readerAtPause = reader.frames.length;
  // Dropped once its socket is full and a frame stayed unsent for 500 ms.
  await until('the stalled subscriber dropped', () => stalled.closeEvent ?? (bridge!.bufferedBySession().has(stalledHello.session as string) ? undefined : { code: 0, reason: 'gone' }), 30_000);
  const readerAtDrop = reader.frames.length;
  // And the reader is not held up by it: frames keep coming after the drop too.
  await until('frames after the drop', () => reader.frames.length >= readerAtDrop + 5, 15_000);
  await c.stop();
  clearInterval(sampler);
  assert.ok(readerAtDrop > readerAtPause, `the reader got no frames while its neighbour stalled (${readerAtPause} → ${readerAtDrop})`);
  // While it stalled, the bridge queued at most about one frame for it beyond the OS buffers.
  assert.ok(maxBuffered <= 2 * frameBytes + 64 * 1024, `the stalled subscriber's queue peaked at ${maxBuffered} bytes (frame ${frameBytes})`);
  assert.not.ok(bridge.bufferedBySession().has(stalledHello.session as string), 'the bridge let go of the stalled connection');
  (stalled.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  // The close frame waits behind the full socket buffers: a peer that reads again in time sees 1008,
  // one that does not is cut off 2 s later (1006).
  await until('close seen by the stalled client', () => stalled.closeEvent, 10_000);
  assert.ok([1008, 1006].includes(stalled.closeEvent!.code), JSON.stringify(stalled.closeEvent));
  await Promise.all([actor.close(), reader.close(), stalled.close()]);
});

test('a viewer of a still screen that stops reading is dropped within seconds (an unanswered ping), before any buffer fills', async () => {
  ({ bridge } = await testBridge({ frameStallMs: 1000 }));
  const reader = await RawClient.open(bridge.wsUrl);
  const stalled = await RawClient.open(bridge.wsUrl);
  const hello = await stalled.call('session.hello', { client: 'stops reading' });
  const screen = { format: 'jpeg', maxWidth: 360, maxFps: 30 };
  await reader.call('devices.subscribe', { device: ANDROID, screen });
  await stalled.call('devices.subscribe', { device: ANDROID, screen });
  await until('first frames', () => reader.frames[0] && stalled.frames[0], 15_000);
  // Nothing changes on screen, so no frame is ever left unsent: only the reading probe can tell.
  const pausedAt = performance.now();
  (stalled.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  await until('the stalled viewer let go', () => !bridge!.bufferedBySession().has(hello.session as string) || undefined, 10_000);
  const after = (performance.now() - pausedAt) / 1000;
  // At most: a probe interval (1 s) + the stall limit (1 s), then 2 s for a closing handshake it cannot answer.
  assert.ok(after < 5.5, `let go ${after.toFixed(1)} s after it stopped reading`);
  await new Promise((r) => setTimeout(r, 2500));
  assert.ok(bridge.bufferedBySession().size >= 1 && reader.closeEvent === undefined, 'the viewer that reads stays connected');
  (stalled.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  await Promise.all([reader.close(), stalled.close()]);
});

test.run();
