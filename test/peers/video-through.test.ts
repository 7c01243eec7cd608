import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import type { DecodedFrame } from '../../src/protocol/index.js';
import { RawClient, testBridge, until } from '../bridge/helpers.js';
import { decodeWithFfmpeg, encodeClip } from '../support/h264-clip.js';
import { replayVideoDriver } from '../support/replay-video.js';
import { systemTool } from '../support/system-tools.js';

const ffmpeg = systemTool('ffmpeg', 'the video pass-through test replays an H.264 clip it encodes');
const DEVICE = 'replay-android-1';
const SIZE = { width: 360, height: 800 };

/** Decodes the messages' bytes, in order, with ffmpeg (test/support/h264-clip.ts). */
const decode = (frames: DecodedFrame[]) => decodeWithFfmpeg(ffmpeg!, frames.map((f) => f.image));

test('H.264 through an aggregator: one device stream on the peer for 10 viewers, bytes unchanged, each decodes from its first message', async () => {
  if (!ffmpeg) return;
  const clip = await encodeClip(ffmpeg, { ...SIZE, fps: 30, seconds: 2, gop: 15 });
  const replay = replayVideoDriver(clip, SIZE, DEVICE);
  const { bridge: peerBridge } = await testBridge({ extraDrivers: [replay.driver], video: { graceMs: 200, retryMs: 200, retryMaxMs: 400, startTimeoutMs: 2000 } });
  const peer = new Peer({ name: 'lab1', url: peerBridge.wsUrl }, { firstRetryMs: 50 });
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: [peer] }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers: [peer], log: () => undefined });
  const clients: RawClient[] = [];
  try {
    await until('the peer listed', () => peer.owns(DEVICE), 10_000);
    const direct = await RawClient.open(peerBridge.wsUrl);
    clients.push(direct);
    await direct.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } });
    const viewers = await Promise.all(Array.from({ length: 10 }, () => RawClient.open(agg.wsUrl)));
    clients.push(...viewers);
    const subs: Record<string, unknown>[] = [];
    for (const v of viewers) subs.push(await v.call('devices.subscribe', { device: DEVICE, screen: { format: 'h264' } }));
    for (const s of subs) assert.equal({ format: s.format, source: s.source }, { format: 'h264', source: 'scrcpy' }, 'the aggregator names the format the peer really sends');
    await until('20 messages for every viewer', () => viewers.every((v) => v.frames.length >= 20), 10_000);
    assert.is(replay.control.opened, 1, 'one video stream on the device for the direct viewer and all ten through the aggregator');
    const relay = agg.peers!.stats().lab1;
    assert.is(relay.upstreamSubscriptions, 1);

    const bySeq = new Map(direct.frames.map((f) => [f.header.seq, f]));
    for (const [i, v] of viewers.entries()) {
      const first = v.frames[0];
      assert.ok(first.header.config && first.header.key, `viewer ${i} starts with configuration + key frame: ${JSON.stringify(v.frames.slice(0, 3).map((f) => f.header))}`);
      assert.ok(v.frames.every((f) => f.header.subscription === subs[i].subscription));
      for (const f of v.frames) {
        const same = bySeq.get(f.header.seq);
        if (same) assert.ok(Buffer.from(same.image).equals(Buffer.from(f.image)), `seq ${f.header.seq}: the same bytes as the direct viewer got`);
      }
    }
    const { pictures, errors } = await decode(viewers[9].frames);
    assert.is(errors, '', 'ffmpeg decodes the relayed stream without complaint');
    assert.ok(pictures >= 20, `${pictures} pictures decoded`);
  } finally {
    for (const c of clients) await c.close();
    await agg.close();
    await peerBridge.close();
  }
});

test.run();
