import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { until } from '../bridge/helpers.js';
import { ScriptedPeer } from './scripted-peer.js';

const PHONE = 'scripted-phone';

/**
 * A lock taken through an aggregator lives in the peer's session for the caller's link. When the
 * peer dies (kill -9, a crash: no goodbye) the lock is gone there; the holder must be told, not find
 * out when another session has taken the device.
 */
const lost = suite<{ peer?: ScriptedPeer; agg?: Bridge }>('a lock on a peer that died');

lost.before(async (ctx) => {
  ctx.peer = await ScriptedPeer.start();
  const peers = [new Peer({ name: 'lab1', url: ctx.peer.url }, { firstRetryMs: 50, maxRetryMs: 200 })];
  ctx.agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  await until('the peer listed', () => peers[0].up && peers[0].owns(PHONE), 10_000);
});

lost.after(async (ctx) => {
  await ctx.agg?.close();
  await ctx.peer?.close();
});

lost('the holder gets device.lock with holder null and the reason', async (ctx) => {
  const holder = await connectBridge(ctx.agg!.wsUrl, { client: 'holder' });
  try {
    const events: { device: string; holder: unknown; reason?: string }[] = [];
    holder.on('device.lock', (p) => events.push(p as (typeof events)[number]));
    await holder.request('devices.lock', { device: PHONE });
    assert.ok(ctx.peer!.requests.some((r) => r.method === 'devices.lock'), 'the lock went to the peer');
    // Every socket cut without a word, as when the peer's process is killed.
    await ctx.peer!.close();
    ctx.peer = undefined;
    const ended = await until('the lock reported ended', () => events.find((e) => e.holder === null), 10_000);
    assert.is(ended.device, PHONE);
    assert.match(String(ended.reason), /connection to peer bridge .* was lost/);
  } finally {
    await holder.close();
  }
});

lost.run();
