import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import type { BridgeClient, SubscriptionPausedParams } from '../../src/protocol/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, testBridge, until } from '../bridge/helpers.js';

/** A peer's device watched through an aggregator while the peer's subscriptions come and go, and while the peer itself goes. */
const relay = suite<{ a?: Bridge; agg?: Bridge; peer?: Peer; viewer?: BridgeClient }>('frames of a peer\'s device through an aggregator');

relay.before(async (ctx) => {
  ctx.a = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  const peer = (ctx.peer = new Peer({ name: 'a', url: ctx.a.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 }));
  ctx.agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: [peer] }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers: [peer], log: () => undefined });
  await until('the peer listed', () => peer.up && peer.owns(ANDROID), 10_000);
  ctx.viewer = await connectBridge(ctx.agg.wsUrl, { client: 'viewer' });
});

relay.after(async (ctx) => {
  await ctx.viewer?.close();
  await ctx.agg?.close();
  await ctx.a?.close();
});

async function upstream(agg: Bridge): Promise<number> {
  const health = (await (await fetch(`${agg.url}api/health`)).json()) as { peers: Record<string, { upstreamSubscriptions: number }> };
  return health.peers.a.upstreamSubscriptions;
}

relay('/api/health counts the subscriptions open on the peer now, not every one ever made', async ({ agg, viewer }) => {
  for (let i = 0; i < 3; i++) {
    const { subscription } = await viewer!.subscribe(ANDROID, { screen: { format: 'jpeg', maxWidth: 200, maxFps: 5 } });
    assert.is(await upstream(agg!), 1, `while subscribed (round ${i})`);
    await viewer!.unsubscribe(subscription);
    assert.is(await upstream(agg!), 0, `after the unsubscribe (round ${i})`);
  }
});

relay('a peer going down pauses its devices\' subscriptions with the reason, and they resume when it is back', async (ctx) => {
  const viewer = ctx.viewer!;
  const paused: SubscriptionPausedParams[] = [];
  const resumed: { subscription: string; device: string }[] = [];
  viewer.on('subscription.paused', (p) => paused.push(p));
  viewer.on('subscription.resumed', (p) => resumed.push(p));
  let frames = 0;
  viewer.onFrame(() => frames++);
  const { subscription } = await viewer.subscribe(ANDROID, { screen: { format: 'jpeg', maxWidth: 200, maxFps: 5 } });
  await until('a first frame', () => frames > 0, 10_000);
  const port = ctx.a!.port;
  await ctx.a!.close();
  const pause = await until('subscription.paused', () => paused[0], 10_000);
  assert.is(pause.subscription, subscription);
  assert.is(pause.device, ANDROID);
  assert.match(pause.reason, /peer bridge ws:\/\/127\.0\.0\.1:\d+\/ws, which has the device, is unreachable/);
  assert.match(pause.reason, /shutting down/, 'says why the peer went');
  ctx.a = (await testBridge({ virtual: { devices: ['android'] }, port })).bridge;
  await until('subscription.resumed', () => resumed.length > 0, 10_000);
  assert.equal(resumed, [{ subscription, device: ANDROID }]);
  const before = frames;
  await until('frames again', () => frames > before, 10_000);
  assert.is(paused.length, 1, 'told once, however many reconnect attempts failed');
});

relay('a peer that comes back aggregating this bridge (a cycle) ends its subscriptions, saying why, instead of leaving them paused', async (ctx) => {
  const viewer = ctx.viewer!;
  const ended: { subscription: string; device: string; reason: string }[] = [];
  viewer.on('subscription.ended', (p) => ended.push(p));
  const { subscription } = await viewer.subscribe(ANDROID, { screen: { format: 'jpeg', maxWidth: 200, maxFps: 5 } });
  const port = ctx.a!.port;
  await ctx.a!.close();
  // Restarted with --peer pointing at the aggregator: each would list the other's devices.
  const back = new Peer({ name: 'agg', url: ctx.agg!.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 });
  ctx.a = (await testBridge({ virtual: { devices: ['android'] }, port, peers: [back], extraDrivers: [back] })).bridge;
  // The previous test's subscription, still open, ends the same way.
  const end = await until('subscription.ended', () => ended.find((e) => e.subscription === subscription), 15_000);
  assert.match(end.reason, /a cycle/);
  assert.match(end.reason, /Remove the --peer that closes the cycle/);
});

relay.run();
