import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge, BridgeOptions } from '../../src/bridge/index.js';
import type { DecodedFrame } from '../../src/protocol/index.js';
import { decodeWithFfmpeg, encodeClip, type ClipPacket } from '../support/h264-clip.js';
import { replayVideoDriver, type ReplayControl } from '../support/replay-video.js';
import { systemTool } from '../support/system-tools.js';
import { ANDROID, OpenedClients, RawClient, sleep, testBridge, until } from './helpers.js';

const test = suite('bridge live video (fan-out, GOP cache, slow subscribers, fallback)');
const ffmpeg = systemTool('ffmpeg', 'the live-video tests replay an H.264 clip it encodes');
const DEVICE = 'replay-android-1';
const SIZE = { width: 360, height: 800 };

let clip: ClipPacket[];
let bridge: Bridge;
let control: ReplayControl;
const clients = new OpenedClients();

async function start(video: BridgeOptions['video'] = {}): Promise<void> {
  const replay = replayVideoDriver(clip, SIZE, DEVICE);
  control = replay.control;
  ({ bridge } = await testBridge({ extraDrivers: [replay.driver], video: { graceMs: 200, retryMs: 200, retryMaxMs: 400, startTimeoutMs: 2000, ...video } }));
}

function client(): Promise<RawClient> {
  return clients.open(bridge.wsUrl);
}

/** Decodes the messages' bytes, in order, with ffmpeg (test/support/h264-clip.ts). */
const decode = (frames: DecodedFrame[]) => decodeWithFfmpeg(ffmpeg!, frames.map((f) => f.image));

/** Every message after a gap in seq must be a key frame with its configuration: never a delta whose reference was skipped. */
function assertNoBrokenPictures(frames: DecodedFrame[]): number {
  let gaps = 0;
  assert.ok(frames[0].header.key && frames[0].header.config, 'first message holds config + key frame');
  for (let i = 1; i < frames.length; i++) {
    if (frames[i].header.seq !== frames[i - 1].header.seq + 1) {
      gaps++;
      assert.ok(frames[i].header.key, `message ${i} after a gap (${frames[i - 1].header.seq} → ${frames[i].header.seq}) is a key frame`);
    }
  }
  return gaps;
}

test.before(async () => {
  if (ffmpeg) clip = await encodeClip(ffmpeg, { ...SIZE, fps: 30, seconds: 2, gop: 15 });
});

test.after.each(async () => {
  await clients.closeAll();
  await bridge?.close();
});

test('h264 subscribers share one device stream; a late joiner decodes from its first message', async () => {
  if (!ffmpeg) return;
  await start();
  const a = await client();
  const subA = await a.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  assert.equal({ format: subA.format, source: subA.source, fallback_reason: subA.fallback_reason }, { format: 'h264', source: 'scrcpy', fallback_reason: undefined });
  await until('frames for the first viewer', () => a.frames.length >= 20, 8000);
  // Joins mid-group: the replay's key frames are 15 frames apart.
  await until('mid-group', () => a.frames.at(-1)!.header.key === false && a.frames.at(-2)!.header.key === false);
  const b = await client();
  const subB = await b.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  await until('frames for the late joiner', () => b.frames.length >= 10, 8000);
  assert.is(control.opened, 1, 'one device stream for two viewers');
  const first = b.frames[0];
  assert.is(first.header.subscription, subB.subscription);
  assert.is(first.header.format, 'h264');
  assert.ok(first.header.key && first.header.config, 'first message: config + key frame');
  assert.is(first.header.width, SIZE.width);
  assert.is(first.header.device_width, SIZE.width);
  const alone = await decode([first]);
  assert.is(alone.errors, '');
  assert.is(alone.pictures, 1, 'the first message decodes on its own');
  const got = b.frames.slice();
  const all = await decode(got);
  assert.is(all.errors, '');
  assert.is(all.pictures, got.length, 'every message the late joiner got decodes');
  assertNoBrokenPictures(a.frames);
});

test('a subscriber that stops reading is skipped to the next key frame, never sent a delta without it', async () => {
  if (!ffmpeg) return;
  await start({ maxQueuedBytes: 32 * 1024 });
  const fast = await client();
  const slow = await client();
  await fast.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  await slow.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  await until('both receive', () => fast.frames.length > 5 && slow.frames.length > 5, 8000);
  // Stop reading, and make the device produce faster than loopback buffers absorb.
  const socket = (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
  socket.pause();
  control.fps = 400;
  await until('the bridge skips the slow reader', () => (bridge.hub.stats().video[DEVICE]?.skipped ?? 0) > 50, 15000);
  socket.resume();
  control.fps = 30;
  const fastCount = fast.frames.length;
  await until('the slow reader catches up', () => slow.frames.length > 0 && fast.frames.length > fastCount + 20, 15000);
  await sleep(300);
  const got = slow.frames.slice();
  const gaps = assertNoBrokenPictures(got);
  assert.ok(gaps > 0, 'the slow reader missed frames');
  const decoded = await decode(got);
  assert.is(decoded.errors, '', 'what the slow reader got decodes without errors');
  assert.is(decoded.pictures, got.length);
  assert.ok(control.keyRequests > 0, 'the bridge asked the encoder for a key frame');
  assert.is(assertNoBrokenPictures(fast.frames) <= 2, true, 'the reading subscriber was not held back');
});

test('video that cannot start falls back to screenshots with the reason, then recovers without a restart', async () => {
  if (!ffmpeg) return;
  await start();
  control.failStart = 'scrcpy-server 3.3.1: push refused (read-only file system)';
  const c = await client();
  const sub = await c.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264', maxWidth: 180 } });
  assert.is(sub.format, 'jpeg');
  assert.is(sub.source, 'screencap');
  assert.match(String(sub.fallback_reason), /push refused/);
  const jpeg = await until('a screenshot frame', () => c.frames.find((f) => f.header.format === 'jpeg'), 5000);
  assert.is(jpeg.header.width, 180);
  control.failStart = undefined;
  const up = await c.notification('stream.changed', (p) => p.format === 'h264', 5000);
  assert.equal(up, { subscription: sub.subscription, device: DEVICE, format: 'h264', source: 'scrcpy' });
  const firstVideo = await until('video frames', () => c.frames.find((f) => f.header.format === 'h264'), 5000);
  assert.ok(firstVideo.header.key && firstVideo.header.config);

  // The encoder dies mid-stream: screenshots within 5 s, said why, and video again after the backoff.
  const broken = Date.now();
  // Counted before the break: the first screenshot may arrive together with the notification.
  const count = c.frames.length;
  // Retries fail until the test allows them, so the screenshots can be seen in between.
  control.failStart = 'scrcpy-server exited: encoder unavailable';
  for (const s of control.live) s.break('encoder error: MediaCodec.CodecException');
  const down = await c.notification('stream.changed', (p) => p.format === 'jpeg', 5000);
  assert.is(down.source, 'screencap');
  assert.match(String(down.fallback_reason), /MediaCodec\.CodecException/);
  await until('screenshots after the break', () => c.frames.slice(count).find((f) => f.header.format === 'jpeg'), 5000);
  assert.ok(Date.now() - broken < 5000);
  control.failStart = undefined;
  await c.notification('stream.changed', (p) => p.format === 'h264', 5000);
  assert.ok(control.opened >= 2);
});

test('the device stream stops after the grace period once the last viewer leaves', async () => {
  if (!ffmpeg) return;
  await start();
  const c = await client();
  const sub = await c.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  await until('frames', () => c.frames.length > 0, 8000);
  const leaving = performance.now();
  await c.call('devices.unsubscribe', { subscription: sub.subscription });
  const virtual = await c.call('devices.subscribe', { device: ANDROID, screen: { format: 'h264' } });
  assert.equal([virtual.format, virtual.source], ['jpeg', 'virtual']);
  assert.match(String(virtual.fallback_reason), /virtual-android-1 has no live video/);
  await until('the stream closed', () => control.closed === 1, 3000);
  // Kept for the grace period (200 ms) after the last viewer left. Counted from before the request was
  // sent, which a busy machine only lengthens (looking right after the answer, a stall of 200 ms
  // between the bridge's answer and the test reading it let the grace period run out first).
  const kept = control.closedAt! - leaving;
  assert.ok(kept >= 195, `closed ${kept.toFixed(0)} ms after the last viewer left, within the 200 ms grace period`);
  assert.is(control.live.size, 0);
});

test('no video: --no-video and devices without it give screenshots and say why', async () => {
  if (!ffmpeg) return;
  await start({ enabled: false });
  const c = await client();
  const off = await c.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  assert.equal([off.format, off.source], ['jpeg', 'screencap']);
  assert.match(String(off.fallback_reason), /--no-video/);
  const virtual = await c.call('devices.subscribe', { device: ANDROID, screen: { format: 'h264' } });
  assert.equal([virtual.format, virtual.source], ['jpeg', 'virtual']);
  assert.match(String(virtual.fallback_reason), /--no-video/);
  const png = await c.call('devices.subscribe', { device: ANDROID, screen: { format: 'png' } });
  assert.equal([png.format, png.source, png.fallback_reason], ['png', 'virtual', undefined]);
  await until('jpeg frames for both video subscriptions', () => new Set(c.frames.filter((f) => f.header.format === 'jpeg').map((f) => f.header.subscription)).size === 2, 5000);
  assert.is(control.opened, 0);
});

test.run();
