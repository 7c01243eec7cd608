import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { testBridge, until } from '../bridge/helpers.js';

const ANDROID = 'virtual-android-1';

/**
 * A viewer that locked a peer's phone through the aggregator and watches it. Someone at the peer
 * takes the lock over and lets it go. The peer tells the taken-over holder on its own link and every
 * watcher on the aggregator's shared link: the viewer must hear each change once, in order, and end
 * up seeing the phone free — not locked by a holder that has already left.
 */
const notes = suite<{ peer?: Bridge; agg?: Bridge }>('device.lock of a peer\'s phone through an aggregator');

notes.before(async (ctx) => {
  ctx.peer = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  const peers = [new Peer({ name: 'lab1', url: ctx.peer.wsUrl }, { firstRetryMs: 50 })];
  ctx.agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  await until('the peer listed', () => peers[0].owns(ANDROID), 10_000);
});

notes.after(async (ctx) => {
  await ctx.agg?.close();
  await ctx.peer?.close();
});

notes('a takeover and unlock at the peer reach a watching holder once each, the unlock last', async ({ peer, agg }) => {
  const viewer = await connectBridge(agg!.wsUrl, { client: 'viewer' });
  const local = await connectBridge(peer!.wsUrl, { client: 'at-the-peer' });
  try {
    const heard: { holder: { client?: string } | null }[] = [];
    viewer.on('device.lock', (p) => heard.push(p as (typeof heard)[number]));
    await viewer.request('devices.lock', { device: ANDROID });
    await viewer.request('devices.subscribe', { device: ANDROID, screen: { maxWidth: 100 } });
    heard.length = 0;
    await local.request('devices.lock', { device: ANDROID, takeover: true });
    await local.request('devices.unlock', { device: ANDROID });
    await until('the unlock heard', () => heard.some((e) => e.holder === null));
    // An answer on the viewer's own link to the peer comes after anything the peer sent on it before.
    await viewer.callTool('mobile_get_screen_size', { device: ANDROID });
    assert.equal(heard.map((e) => e.holder?.client ?? null), ['at-the-peer', null], JSON.stringify(heard));
  } finally {
    await viewer.close();
    await local.close();
  }
});

notes.run();
