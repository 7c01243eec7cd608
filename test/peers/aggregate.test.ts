import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import type { DecodedFrame } from '../../src/protocol/index.js';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import type { TouchPhase } from '../../src/engine/types.js';
import { closePeerLab, labClient, type PeerLab } from './peer-lab.js';
import { RawClient, testBridge, until } from '../bridge/helpers.js';

const ANDROID = 'virtual-android-1';
const IOS = 'virtual-ios-1';

interface Lab extends PeerLab {
  peers: Peer[];
}

const lab = suite<{ lab?: Lab }>('a bridge aggregating two bridges');

async function peerBridge(platform: 'android' | 'ios', port = 0): Promise<Bridge> {
  return (await testBridge({ virtual: { devices: [platform] }, port })).bridge;
}

lab.before(async (ctx) => {
  const a = await peerBridge('android');
  const b = await peerBridge('ios');
  const peers = [new Peer({ name: 'a', url: a.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 }), new Peer({ name: 'b', url: b.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 })];
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  ctx.lab = { a, b, peers, agg, clients: [] };
  await until('both peers listed', () => peers.every((p) => p.up) && peers[0].owns(ANDROID) && peers[1].owns(IOS), 10_000);
});

lab.after((ctx) => closePeerLab(ctx.lab));

lab('the peers\' devices are listed as the aggregator\'s own, source = peer name', async ({ lab }) => {
  const c = await labClient(lab!, 'lister');
  const { devices } = (await c.request('devices.list', {})) as { devices: DeviceInfo[] };
  const byId = new Map(devices.map((d) => [d.id, d]));
  assert.is(byId.get(ANDROID)?.source, 'a');
  assert.is(byId.get(IOS)?.source, 'b');
});

lab('tools, verbs and locks pass through to the peer, with activity to the watchers', async ({ lab }) => {
  const l = lab!;
  const one = await labClient(l, 'one');
  const two = await labClient(l, 'two');
  const launched = (await one.callTool('mobile_launch_app', { device: ANDROID, packageName: 'com.mobilebridge.demo' })) as { status?: string };
  assert.is(launched.status, 'success', JSON.stringify(launched));
  const onPeer = (await l.a.engine.call('mobile_get_foreground_app', { device: ANDROID })) as { package: string };
  assert.is(onPeer.package, 'com.mobilebridge.demo', 'the call acted on the peer\'s phone');

  const activity: { tool?: string; verb?: string; client?: string }[] = [];
  two.on('device.activity', (p) => activity.push(p));
  const elementEvents: { subscription: string; reset?: boolean; added: unknown[] }[] = [];
  two.on('elements.changed', (p) => elementEvents.push(p));
  const watching = await two.subscribe(ANDROID, { elements: true });
  await until('the element snapshot through the aggregator', () => elementEvents.some((e) => e.reset && e.added.length > 0));
  assert.ok(elementEvents.every((e) => e.subscription === watching.subscription), 'element events carry the viewer\'s own subscription id');
  const verb = (await one.request('verbs.run', { device: ANDROID, step: { action: 'tap', target: 'the Sign in button' } })) as { status?: string };
  assert.ok(verb.status, JSON.stringify(verb));
  await until('the verb\'s activity reached the other viewer', () => activity.some((a) => a.verb === 'tap' && /one via/.test(a.client ?? '')));

  const lock = (await one.request('devices.lock', { device: ANDROID })) as { holder?: { client?: string } };
  assert.match(lock.holder?.client ?? '', /one via/);
  const refused = (await two.callTool('mobile_press_button', { device: ANDROID, button: 'BACK' })) as { code?: string };
  assert.is(refused.code, 'PERMISSION_DENIED', 'the peer tells the two sessions apart');
  await one.request('devices.unlock', { device: ANDROID });
});

lab('10 viewers through the aggregator: one subscription on the peer, each frame encoded once there', async ({ lab }) => {
  const l = lab!;
  const viewers = await Promise.all(Array.from({ length: 10 }, (_, i) => labClient(l, `viewer-${i}`)));
  const frames: DecodedFrame[][] = viewers.map(() => []);
  const subs: string[] = [];
  viewers.forEach((v, i) => v.onFrame((f) => frames[i].push({ header: f.header, image: f.image.slice() })));
  for (const v of viewers) subs.push((await v.subscribe(ANDROID, { screen: { format: 'jpeg', maxWidth: 360, maxFps: 30 } })).subscription);
  await until('every viewer has a frame', () => frames.every((f) => f.length >= 1), 10_000);
  const before = l.a.hub.stats().frames[ANDROID]?.encodes ?? 0;
  const home = (await viewers[0].callTool('mobile_press_button', { device: ANDROID, button: 'HOME' })) as { status?: string };
  assert.is(home.status, 'success', JSON.stringify(home));
  await until(`every viewer saw the screen change (${frames.map((f) => f.length).join(',')})`, () => frames.every((f) => f.length >= 2), 10_000);
  assert.is(l.a.stats().subscriptions, 2, 'the peer holds the relay\'s one frame subscription (+ the elements one of the earlier test)');
  const encodes = (l.a.hub.stats().frames[ANDROID]?.encodes ?? 0) - before;
  const relayed = l.agg.peers!.stats().a;
  assert.ok(encodes >= 1);
  assert.is(relayed.upstreamSubscriptions, 2, 'one screen subscription for ten viewers (+ the elements one)');
  // Each frame the peer encoded arrived once, however many viewers watch.
  assert.ok(relayed.received <= (l.a.hub.stats().frames[ANDROID]?.encodes ?? 0), JSON.stringify({ relayed, frames: l.a.hub.stats().frames }));
  frames.forEach((f, i) => {
    assert.ok(f.every((x) => x.header.subscription === subs[i]), 'each viewer sees its own subscription id');
    assert.is(f[0].image[0], 0xff, 'JPEG bytes pass unchanged');
  });
  const last = frames.map((f) => f[f.length - 1]);
  assert.ok(last.every((f) => Buffer.compare(Buffer.from(f.image), Buffer.from(last[0].image)) === 0 || f.header.seq !== last[0].header.seq));
});

lab('a lock taken through the aggregator goes as soon as its holder disconnects; a resume does not bring it back', async ({ lab }) => {
  const l = lab!;
  const x = await RawClient.open(l.agg.wsUrl);
  let x2: RawClient | undefined;
  try {
    const hello = (await x.call('session.hello', { client: 'x' })) as { session: string; resume_token: string };
    const lock = (await x.call('devices.lock', { device: IOS })) as { holder?: { client?: string } };
    assert.match(lock.holder?.client ?? '', /x via/, JSON.stringify(lock));
    const y = await labClient(l, 'y');
    const locks: { holder: unknown }[] = [];
    y.on('device.lock', (p) => locks.push(p));
    await y.request('devices.subscribe', { device: IOS });
    const refused = (await y.callTool('mobile_press_button', { device: IOS, button: 'HOME' })) as { code?: string };
    assert.is(refused.code, 'PERMISSION_DENIED', 'x holds the lock on the peer');

    x.ws.terminate();
    // Within the 30 s resume grace: the lock must not wait for it.
    await until('the lock on the peer released', () => locks.some((e) => e.holder === null));
    const pressed = (await y.callTool('mobile_press_button', { device: IOS, button: 'HOME' })) as { status?: string };
    assert.is(pressed.status, 'success', JSON.stringify(pressed));

    x2 = await RawClient.open(l.agg.wsUrl);
    const resumed = (await x2.call('session.hello', { client: 'x', resume: hello.session, resume_token: hello.resume_token, received: 0 })) as { resumed?: boolean };
    assert.ok(resumed.resumed, JSON.stringify(resumed));
    const still = (await y.callTool('mobile_press_button', { device: IOS, button: 'HOME' })) as { status?: string };
    assert.is(still.status, 'success', 'the resumed session did not get the lock back');
  } finally {
    x.ws.terminate();
    await x2?.close();
  }
});

lab('a finger put down through the aggregator is lifted on the peer as soon as its holder disconnects', async ({ lab }) => {
  const l = lab!;
  const x = await RawClient.open(l.agg.wsUrl);
  try {
    await x.call('session.hello', { client: 'x' });
    const y = await labClient(l, 'y');
    const activity: { tool?: string; parameters?: { action?: string } }[] = [];
    y.on('device.activity', (p) => activity.push(p));
    await y.request('devices.subscribe', { device: ANDROID, elements: false });
    const down = (await x.call('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 })) as { status?: string };
    assert.is(down.status, 'success', JSON.stringify(down));
    await x.call('input.touch', { device: ANDROID, action: 'move', x: 500, y: 1400 });
    const busy = (await y.request('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 })) as { code?: string };
    assert.is(busy.code, 'PERMISSION_DENIED', 'x\'s finger is down on the peer');

    x.ws.terminate();
    // Within the 30 s resume grace (and the peer's 15 s idle cancel): the finger must not wait for them.
    const ended = await until('the touch stream ended on the peer', () => activity.find((a) => a.tool === 'input.touch'));
    assert.is(ended.parameters?.action, 'cancel');
    const mine = (await y.request('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 })) as { status?: string };
    assert.is(mine.status, 'success', JSON.stringify(mine));
    await y.request('input.touch', { device: ANDROID, action: 'cancel', x: 500, y: 1500 });
  } finally {
    x.ws.terminate();
  }
});

lab('a session resumed on a new socket while the old one looks open: its finger on the peer is lifted, its lock there stays', async ({ lab }) => {
  const l = lab!;
  const x = await RawClient.open(l.agg.wsUrl);
  let x2: RawClient | undefined;
  try {
    const hello = (await x.call('session.hello', { client: 'x' })) as { session: string; resume_token: string };
    await x.call('devices.lock', { device: ANDROID });
    const y = await labClient(l, 'y');
    const activity: { tool?: string; parameters?: { action?: string } }[] = [];
    y.on('device.activity', (p) => activity.push(p));
    await y.request('devices.subscribe', { device: ANDROID, elements: false });
    const down = (await x.call('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 })) as { status?: string };
    assert.is(down.status, 'success', JSON.stringify(down));

    x2 = await RawClient.open(l.agg.wsUrl);
    const resumed = (await x2.call('session.hello', { client: 'x', resume: hello.session, resume_token: hello.resume_token, received: 0 })) as { resumed?: boolean };
    assert.ok(resumed.resumed, JSON.stringify(resumed));
    // Within the peer's 15 s idle cancel: the finger must not wait for it.
    const ended = await until('the touch stream ended on the peer', () => activity.find((a) => a.tool === 'input.touch'));
    assert.is(ended.parameters?.action, 'cancel');
    const refused = (await y.callTool('mobile_press_button', { device: ANDROID, button: 'HOME' })) as { code?: string };
    assert.is(refused.code, 'PERMISSION_DENIED', 'the session still holds the lock on the peer');
    const again = (await x2.call('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 })) as { status?: string };
    assert.is(again.status, 'success', JSON.stringify(again));
    await x2.call('input.touch', { device: ANDROID, action: 'cancel', x: 500, y: 1500 });
    await x2.call('devices.unlock', { device: ANDROID });
  } finally {
    x.ws.terminate();
    await x2?.close();
  }
});

lab('a peer killed and restarted: its devices go offline and come back, and the viewers\' subscriptions resume', async ({ lab }) => {
  const l = lab!;
  const viewer = await labClient(l, 'survivor');
  const changes: { added: DeviceInfo[]; removed: string[] }[] = [];
  viewer.on('devices.changed', (c) => changes.push(c));
  const frames: DecodedFrame[] = [];
  viewer.onFrame((f) => frames.push(f));
  const { subscription } = await viewer.subscribe(IOS, { screen: { format: 'jpeg', maxWidth: 200 } });
  await until('a first frame', () => frames.length >= 1, 10_000);

  const port = l.b.port;
  await l.b.close();
  // SPEC §10: it stays listed, offline with the reason, as the devices of adb and --wda sources do.
  const offline = await until('the peer\'s device announced offline', () => changes.flatMap((c) => c.added).find((d) => d.id === IOS && d.state === 'offline'), 10_000);
  assert.match(offline.message ?? '', /^peer .* is unreachable.*its devices return by themselves/);
  const gone = (await viewer.callTool('mobile_get_screen_size', { device: IOS })) as { code?: string };
  assert.is(gone.code, 'DEVICE_NOT_FOUND');

  l.b = await peerBridge('ios', port);
  await until('the device announced again', () => changes.some((c) => c.added.some((d) => d.id === IOS && d.state !== 'offline')), 10_000);
  const seen = frames.length;
  await until('frames again on the same subscription', () => frames.length > seen, 10_000);
  assert.is(frames[frames.length - 1].header.subscription, subscription);
  const size = (await viewer.callTool('mobile_get_screen_size', { device: IOS })) as { width?: number };
  assert.ok(size.width, JSON.stringify(size));
});

lab.run();

const moved = suite('a session resumed on a new socket while a touch it sent through the aggregator is out');

moved('a finger the peer puts down after the move is lifted there', async () => {
  // The peer's phone holds the down until told to go on, so that the session moves meanwhile.
  const driver = new VirtualDriver({ devices: ['android'] });
  const phone = driver.device(ANDROID)!;
  const told: TouchPhase[] = [];
  let goOn!: () => void;
  const downHeld = new Promise<void>((resolve) => (goOn = resolve));
  const touch = phone.touch.bind(phone);
  phone.touch = async (phase, x, y, ctx) => {
    told.push(phase);
    if (phase === 'down') await downHeld;
    return touch(phase, x, y, ctx);
  };
  const { bridge: peerBridge } = await testBridge({ engine: createEngine({ virtual: false, extraDrivers: [driver] }) });
  const peer = new Peer({ name: 'a', url: peerBridge.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 });
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: [peer] }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers: [peer], log: () => undefined });
  const old = await RawClient.open(agg.wsUrl);
  let back: RawClient | undefined;
  try {
    await until('the peer listed', () => peer.up && peer.owns(ANDROID));
    const hello = (await old.call('session.hello', { client: 'x' })) as { session: string; resume_token: string };
    old.send({ jsonrpc: '2.0', id: 100, method: 'input.touch', params: { device: ANDROID, action: 'down', x: 500, y: 1500 } });
    await until('the down on the peer\'s phone', () => told.includes('down'));
    back = await RawClient.open(agg.wsUrl);
    await back.call('session.hello', { client: 'x', resume: hello.session, resume_token: hello.resume_token, received: 0 });
    goOn();
    // Within the peer's 15 s idle cancel.
    await until('the finger lifted on the peer\'s phone', () => told.includes('cancel'));
    assert.equal(told, ['down', 'cancel']);
  } finally {
    goOn();
    old.ws.terminate();
    await back?.close();
    await agg.close();
    await peerBridge.close();
  }
});

moved.run();
