import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { decodeWithFfmpeg, encodeClip } from '../support/h264-clip.js';
import { replayVideoDriver, type ReplayControl } from '../support/replay-video.js';
import { systemTool } from '../support/system-tools.js';
import { OpenedClients, testBridge, until } from './helpers.js';

/**
 * A resumed h264 subscriber was sent the whole cached group of pictures again, from its key frame:
 * seq went back and up to 8 MiB were sent twice (audit 24, b3 #4). It now goes on from the next key frame.
 */
const test = suite('bridge: an h264 subscriber of a resumed session');
const ffmpeg = systemTool('ffmpeg', 'the live-video tests replay an H.264 clip it encodes');
const DEVICE = 'replay-android-1';
const SIZE = { width: 360, height: 800 };

let bridge: Bridge | undefined;
let control: ReplayControl;
const clients = new OpenedClients();

test.after.each(async () => {
  await clients.closeAll();
  await bridge?.close();
  bridge = undefined;
});

test('goes on from a fresh key frame, never back over frames it had', async () => {
  if (!ffmpeg) return;
  // Key frames 2 s apart, so the drop comes well inside a group.
  const clip = await encodeClip(ffmpeg, { ...SIZE, fps: 30, seconds: 4, gop: 60 });
  const replay = replayVideoDriver(clip, SIZE, DEVICE);
  control = replay.control;
  ({ bridge } = await testBridge({ extraDrivers: [replay.driver] }));
  const a = await clients.open(bridge.wsUrl);
  const hello = await a.call('session.hello', { client: 'viewer' });
  await a.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
  await until('frames well into a group', () => a.frames.length > 20 && !a.frames.at(-1)!.header.key && a.frames, 8000);
  const last = a.frames.at(-1)!.header.seq;
  const requests = control.keyRequests;
  a.ws.terminate();
  const b = await clients.open(bridge.wsUrl);
  const back = await b.call('session.hello', { client: 'viewer', resume: hello.session, resume_token: hello.resume_token, received: 0 });
  assert.is(back.resumed, true);
  await until('frames after the resume', () => b.frames.length >= 5, 8000);
  const got = b.frames.slice();
  const seqs = got.map((f) => f.header.seq);
  assert.ok(seqs.every((s) => s > last), `after seq ${last} came ${seqs.slice(0, 12).join(', ')}…`);
  assert.ok(got[0].header.key && got[0].header.config, 'the first message after the resume decodes on its own');
  assert.ok(control.keyRequests > requests, 'a key frame was asked for');
  const decoded = await decodeWithFfmpeg(ffmpeg, got.map((f) => f.image));
  assert.is(decoded.errors, '');
  assert.is(decoded.pictures, got.length);
});

test.run();
