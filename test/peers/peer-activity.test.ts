import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import type { ActivityRecentResult } from '../../src/protocol/index.js';
import { testBridge, until } from '../bridge/helpers.js';

const ANDROID = 'virtual-android-1';
const LISTED = `${ANDROID}@lab1`;

/** A peer with a virtual phone behind an aggregator with one of its own: the peer's is listed `virtual-android-1@lab1`. */
const activity = suite<{ peer?: Bridge; agg?: Bridge }>('activity.recent of a peer\'s phone through an aggregator');

activity.before(async (ctx) => {
  ctx.peer = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  const peers = [new Peer({ name: 'lab1', url: ctx.peer.wsUrl }, { firstRetryMs: 50 })];
  ctx.agg = await startBridge({ engine: createEngine({ virtual: { devices: ['android'] }, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  await until('the peer listed', () => peers[0].owns(ANDROID), 10_000);
});

activity.after(async (ctx) => {
  await ctx.agg?.close();
  await ctx.peer?.close();
});

activity('a late viewer sees the peer\'s lock holder and history, named by the listed id; the aggregator\'s own phone is not confused with it', async ({ agg }) => {
  const ci = await connectBridge(agg!.wsUrl, { client: 'ci-job' });
  const viewer = await connectBridge(agg!.wsUrl, { client: 'viewer' });
  try {
    const lock = (await ci.request('devices.lock', { device: LISTED })) as { device?: string; code?: string };
    assert.is(lock.device, LISTED, JSON.stringify(lock));
    const tap = (await ci.callTool('mobile_press_button', { device: LISTED, button: 'HOME' })) as { status?: string };
    assert.is(tap.status, 'success', JSON.stringify(tap));
    const recent = (await viewer.request('activity.recent', { device: LISTED })) as ActivityRecentResult;
    assert.is(recent.device, LISTED);
    assert.is(recent.lock?.device, LISTED, JSON.stringify(recent.lock));
    assert.match(String(recent.lock?.holder.client), /^ci-job via /);
    const press = recent.entries.find((e) => e.tool === 'mobile_press_button');
    assert.ok(press, JSON.stringify(recent.entries));
    assert.ok(recent.entries.every((e) => e.device === LISTED), JSON.stringify(recent.entries.map((e) => e.device)));
    const own = (await viewer.request('activity.recent', { device: ANDROID })) as ActivityRecentResult;
    assert.is(own.lock, null, 'the aggregator\'s own phone is free');
    assert.ok(!own.entries.some((e) => e.tool === 'mobile_press_button'), 'the peer phone\'s press is not the own phone\'s');
  } finally {
    await ci.close();
    await viewer.close();
  }
});

activity.run();
