import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { isToolFailure } from '../../src/engine/errors.js';
import { encodeClip } from '../support/h264-clip.js';
import { replayVideoDriver } from '../support/replay-video.js';
import { systemTool } from '../support/system-tools.js';
import { RawClient, testBridge, until } from './helpers.js';

/**
 * Video that broke between the subscribe answer and the start of delivery left the subscriber with
 * jpeg frames after an answer saying h264, and no `stream.changed` (audit 24, b3 #6).
 */
const test = suite('bridge: video that changes between the subscribe answer and the first frame');
const ffmpeg = systemTool('ffmpeg', 'the live-video tests replay an H.264 clip it encodes');
const DEVICE = 'replay-android-1';
const SIZE = { width: 360, height: 800 };

let bridge: Bridge | undefined;
let client: RawClient | undefined;

test.after.each(async () => {
  await client?.close();
  await bridge?.close();
  bridge = client = undefined;
});

test('the subscriber is told with stream.changed, then gets the frames it names', async () => {
  if (!ffmpeg) return;
  const clip = await encodeClip(ffmpeg, { ...SIZE, fps: 30, seconds: 2, gop: 15 });
  const replay = replayVideoDriver(clip, SIZE, DEVICE);
  ({ bridge } = await testBridge({ extraDrivers: [replay.driver], video: { retryMs: 60_000, retryMaxMs: 60_000 } }));
  client = await RawClient.open(bridge.wsUrl);
  const hello = await client.call('session.hello', {});
  const session = bridge.sessions.get(hello.session as string)!;
  // What devices.subscribe does, with the answer (sub.info()) and the start of delivery pulled apart.
  const outcome = await bridge.hub.subscribe(session, { device: DEVICE, screen: { format: 'h264' }, elements: false });
  if (isToolFailure(outcome)) throw new Error(outcome.message);
  const answer = outcome.sub.info();
  assert.equal([answer.format, answer.source], ['h264', 'scrcpy']);
  replay.control.failStart = 'scrcpy-server exited';
  for (const s of replay.control.live) s.break('encoder error');
  await until('the video down', () => outcome.sub.stream?.format === 'jpeg', 5000);
  outcome.start();
  const changed = await client.notification('stream.changed', (p) => p.subscription === outcome.sub.id, 5000);
  assert.equal([changed.format, changed.source], ['jpeg', 'screencap']);
  assert.match(String(changed.fallback_reason), /encoder error/);
  await until('a screenshot frame', () => client!.frames.find((f) => f.header.format === 'jpeg'), 5000);
});

test.run();
