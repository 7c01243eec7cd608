import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import type { ActivityRecentResult, DeviceActivityParams, DeviceLockParams } from '../../src/protocol/index.js';
import { testBridge, until } from '../bridge/helpers.js';

const ANDROID = 'virtual-android-1';

/**
 * A viewer through an aggregator recognises its own lock and actions by its session id (web
 * pair-debugging): the peer's ids of the aggregator's sessions must come back as the aggregator's.
 */
const sessions = suite<{ peer?: Bridge; agg?: Bridge }>('session ids of a peer\'s lock holders and activity through an aggregator');

sessions.before(async (ctx) => {
  ctx.peer = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  const peers = [new Peer({ name: 'lab1', url: ctx.peer.wsUrl }, { firstRetryMs: 50 })];
  ctx.agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  await until('the peer listed', () => peers[0].owns(ANDROID), 10_000);
});

sessions.after(async (ctx) => {
  await ctx.agg?.close();
  await ctx.peer?.close();
});

sessions('lock answers, device.lock, device.activity and activity.recent carry the aggregator\'s session ids', async ({ agg }) => {
  const viewer = await connectBridge(agg!.wsUrl, { client: 'viewer' });
  const agent = await connectBridge(agg!.wsUrl, { client: 'agent' });
  try {
    const locks: DeviceLockParams[] = [];
    const acts: DeviceActivityParams[] = [];
    viewer.on('device.lock', (p) => locks.push(p as DeviceLockParams));
    viewer.on('device.activity', (p) => acts.push(p as DeviceActivityParams));
    await viewer.request('devices.subscribe', { device: ANDROID, screen: { maxWidth: 100 } });
    const lock = (await viewer.request('devices.lock', { device: ANDROID })) as { holder?: { session: string } };
    assert.is(lock.holder?.session, viewer.session, JSON.stringify(lock));
    const tap = (await viewer.callTool('mobile_press_button', { device: ANDROID, button: 'HOME' })) as { status?: string };
    assert.is(tap.status, 'success', JSON.stringify(tap));
    await until('the viewer\'s own action heard', () => acts.find((a) => a.tool === 'mobile_press_button'));
    assert.is(acts.find((a) => a.tool === 'mobile_press_button')?.session, viewer.session, JSON.stringify(acts));
    const recent = (await agent.request('activity.recent', { device: ANDROID })) as ActivityRecentResult;
    assert.is(recent.lock?.holder.session, viewer.session, JSON.stringify(recent.lock));
    assert.is(recent.entries.find((e) => e.tool === 'mobile_press_button')?.session, viewer.session);
    const refused = (await agent.callTool('mobile_press_button', { device: ANDROID, button: 'HOME' })) as { code?: string; message?: string };
    assert.is(refused.code, 'PERMISSION_DENIED', JSON.stringify(refused));
    assert.ok(refused.message?.includes(viewer.session!), refused.message);
    locks.length = 0;
    await agent.request('devices.lock', { device: ANDROID, takeover: true });
    const taken = await until('the takeover heard', () => locks.find((l) => l.holder !== null));
    assert.is(taken.holder?.session, agent.session, JSON.stringify(taken));
    assert.is(taken.previous?.session, viewer.session, 'the viewer sees that it lost control');
  } finally {
    await viewer.close();
    await agent.close();
  }
});

sessions.run();
