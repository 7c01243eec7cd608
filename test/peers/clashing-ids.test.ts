import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import type { DecodedFrame } from '../../src/protocol/index.js';
import { closePeerLab, labClient, type PeerLab } from './peer-lab.js';
import { RawClient, testBridge, until } from '../bridge/helpers.js';

/**
 * SPEC §10: "where two sources report the same id it becomes id@name". Bridges started the same way
 * all have `virtual-android-1`: an aggregator with its own virtual phone and two peers with theirs
 * must list three devices that can each be reached, not one id three times.
 */

const ANDROID = 'virtual-android-1';
const IOS = 'virtual-ios-1';

type Lab = PeerLab;

const lab = suite<{ lab?: Lab }>('peers whose device ids clash');

lab.before(async (ctx) => {
  const a = (await testBridge({ virtual: { devices: ['android', 'ios'] } })).bridge;
  const b = (await testBridge({ virtual: { devices: ['android', 'ios'] } })).bridge;
  const peers = [new Peer({ name: 'a', url: a.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 }), new Peer({ name: 'b', url: b.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 })];
  // The aggregator's own virtual Android phone has the peers' Android id; only the peers have an iPhone.
  const agg = await startBridge({ engine: createEngine({ virtual: { devices: ['android'] }, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  ctx.lab = { a, b, agg, clients: [] };
  await until('both peers listed', () => peers.every((p) => p.up && p.owns(ANDROID) && p.owns(IOS)), 10_000);
});

lab.after((ctx) => closePeerLab(ctx.lab));

lab('a clashing peer device is listed as id@peer; the bridge\'s own keeps its id', async ({ lab }) => {
  const c = await labClient(lab!, 'lister');
  const { devices } = (await c.request('devices.list', {})) as { devices: DeviceInfo[] };
  assert.equal(
    devices.map((d) => [d.id, d.source]).sort(),
    [
      [ANDROID, 'virtual'],
      [`${ANDROID}@a`, 'a'],
      [`${ANDROID}@b`, 'b'],
      [`${IOS}@a`, 'a'],
      [`${IOS}@b`, 'b'],
    ].sort(),
  );
  assert.is(new Set(devices.map((d) => d.id)).size, devices.length, 'every id is listed once');
});

lab('calls reach the device the id names: the bare id is the bridge\'s own, id@peer is that peer\'s', async ({ lab }) => {
  const l = lab!;
  const c = await labClient(l, 'caller');
  const foreground = async (bridge: Bridge) => ((await bridge.engine.call('mobile_get_foreground_app', { device: ANDROID })) as { package: string }).package;
  const launched = (await c.callTool('mobile_launch_app', { device: `${ANDROID}@b`, packageName: 'com.mobilebridge.demo' })) as { status?: string };
  assert.is(launched.status, 'success', JSON.stringify(launched));
  assert.is(await foreground(l.b), 'com.mobilebridge.demo', 'acted on peer b');
  assert.is.not(await foreground(l.a), 'com.mobilebridge.demo', 'not on peer a');
  assert.is.not(await foreground(l.agg), 'com.mobilebridge.demo', 'not on the aggregator\'s own phone');

  const local = (await c.callTool('mobile_launch_app', { device: ANDROID, packageName: 'com.mobilebridge.demo' })) as { status?: string };
  assert.is(local.status, 'success', JSON.stringify(local));
  assert.is(await foreground(l.agg), 'com.mobilebridge.demo', 'the bare id is the aggregator\'s own phone');
  assert.is.not(await foreground(l.a), 'com.mobilebridge.demo');

  const lock = (await c.request('devices.lock', { device: `${ANDROID}@a` })) as { device?: string };
  assert.is(lock.device, `${ANDROID}@a`, 'answers name the device as the caller did');
  await c.request('devices.unlock', { device: `${ANDROID}@a` });
});

lab('a bare id that only peers report is ambiguous: DEVICE_NOT_FOUND names the choices', async ({ lab }) => {
  const c = await labClient(lab!, 'ambiguous');
  const r = (await c.callTool('mobile_get_screen_size', { device: IOS })) as { code?: string; message?: string };
  assert.is(r.code, 'DEVICE_NOT_FOUND');
  assert.match(r.message ?? '', `use one of ${IOS}@a, ${IOS}@b`);
});

lab('devices.lease of an ambiguous bare id names the choices instead of waiting for a device it can never match', async ({ lab }) => {
  const c = await labClient(lab!, 'ci');
  const r = (await c.requestRaw('devices.lease', { device: IOS, timeout_ms: 0 })) as { code?: string; message?: string };
  assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
  assert.match(r.message ?? '', `use one of ${IOS}@a, ${IOS}@b`);
  const got = (await c.requestRaw('devices.lease', { device: `${IOS}@b`, timeout_ms: 0 })) as { device?: string; source?: string };
  assert.is(got.device, `${IOS}@b`, JSON.stringify(got));
  await c.request('devices.unlock', { device: `${IOS}@b` });
});

lab('frames, element events and activity of id@peer carry that id', async ({ lab }) => {
  const l = lab!;
  const viewer = await labClient(l, 'viewer');
  const actor = await labClient(l, 'actor');
  const frames: DecodedFrame[] = [];
  viewer.onFrame((f) => frames.push(f));
  const elements: { device: string }[] = [];
  viewer.on('elements.changed', (p) => elements.push(p));
  const activity: { device: string; tool?: string; parameters?: { device?: string } }[] = [];
  viewer.on('device.activity', (p) => activity.push(p));
  const sub = (await viewer.request('devices.subscribe', { device: `${IOS}@a`, screen: { maxWidth: 200 }, elements: true })) as { device?: string };
  assert.is(sub.device, `${IOS}@a`);
  await until('a frame and an element snapshot', () => frames.length > 0 && elements.length > 0, 10_000);
  assert.is(frames[0].header.device, `${IOS}@a`);
  assert.is(elements[0].device, `${IOS}@a`);
  await actor.callTool('mobile_press_button', { device: `${IOS}@a`, button: 'HOME' });
  await until('the press shown to the viewer', () => activity.some((e) => e.tool === 'mobile_press_button'), 10_000);
  assert.ok(activity.every((e) => e.device === `${IOS}@a`), JSON.stringify(activity));
  const press = activity.find((e) => e.tool === 'mobile_press_button');
  assert.is(press?.parameters?.device, `${IOS}@a`, 'the call\'s parameters name the device as listed here');
});

lab('locks and fingers on two peers\' devices of the same id all go when their holder disconnects', async ({ lab }) => {
  const l = lab!;
  const x = await RawClient.open(l.agg.wsUrl);
  const y = await labClient(l, 'y');
  try {
    await x.call('session.hello', { client: 'x' });
    for (const peer of ['a', 'b']) {
      const lock = (await x.call('devices.lock', { device: `${ANDROID}@${peer}` })) as { device?: string };
      assert.is(lock.device, `${ANDROID}@${peer}`, JSON.stringify(lock));
      const down = (await x.call('input.touch', { device: `${ANDROID}@${peer}`, action: 'down', x: 100, y: 100 })) as { code?: string };
      assert.not.ok(down.code, JSON.stringify(down));
    }
    assert.ok(l.a.locks.holder(ANDROID) && l.b.locks.holder(ANDROID), 'both peers hold the lock');
    x.ws.terminate();
    // Well within the 30 s resume grace: the drop itself frees both, not the end of the session.
    await until('both peers\' locks released', () => !l.a.locks.holder(ANDROID) && !l.b.locks.holder(ANDROID), 5000);
    for (const peer of ['a', 'b']) {
      const device = `${ANDROID}@${peer}`;
      // x's finger is cancelled on the peer right after the unlock; until then a down answers PERMISSION_DENIED.
      let down: { code?: string; message?: string } = {};
      for (const give = Date.now() + 5000; Date.now() < give; ) {
        down = (await y.request('input.touch', { device, action: 'down', x: 100, y: 100 })) as typeof down;
        if (!down.code) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.not.ok(down.code, `${device}: ${JSON.stringify(down)}`);
      await y.request('input.touch', { device, action: 'cancel', x: 100, y: 100 });
    }
  } finally {
    x.ws.terminate();
  }
});

lab.run();
