import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { testBridge, until } from '../bridge/helpers.js';
import { ScriptedPeer } from './scripted-peer.js';

const ANDROID = 'virtual-android-1';
const LISTED = `${ANDROID}@lab1`;
/** The bare id, which on this aggregator is its own phone, not the peer's. */
const BARE = /virtual-(android|ios)-1(?!@)/;

/** A peer with virtual phones behind an aggregator with its own: the peer's are listed `…@lab1`. */
const messages = suite<{ peer?: Bridge; agg?: Bridge }>('messages about a peer\'s phone listed id@peer');

messages.before(async (ctx) => {
  ctx.peer = (await testBridge({ virtual: { devices: ['android', 'ios'] } })).bridge;
  const peers = [new Peer({ name: 'lab1', url: ctx.peer.wsUrl }, { firstRetryMs: 50 })];
  ctx.agg = await startBridge({ engine: createEngine({ virtual: { devices: ['android', 'ios'] }, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  await until('the peer listed', () => peers[0].owns(ANDROID) && peers[0].owns('virtual-ios-1'), 10_000);
});

messages.after(async (ctx) => {
  await ctx.agg?.close();
  await ctx.peer?.close();
});

messages('the peer\'s answers, refusals and not-found name its devices as listed here', async ({ agg }) => {
  const a = await connectBridge(agg!.wsUrl, { client: 'a' });
  const b = await connectBridge(agg!.wsUrl, { client: 'b' });
  try {
    const tap = (await a.callTool('mobile_click_on_screen_at_coordinates', { device: LISTED, x: 10, y: 10 })) as { status?: string; message?: string };
    assert.is(tap.status, 'success', JSON.stringify(tap));
    assert.ok(tap.message?.includes(LISTED), tap.message);
    assert.not.match(String(tap.message), BARE);
    await a.request('devices.lock', { device: LISTED });
    const refused = (await b.callTool('mobile_click_on_screen_at_coordinates', { device: LISTED, x: 10, y: 10 })) as { code?: string; message?: string };
    assert.is(refused.code, 'PERMISSION_DENIED', JSON.stringify(refused));
    assert.ok(refused.message?.includes(LISTED), refused.message);
    assert.not.match(String(refused.message), BARE);
    const none = (await a.callTool('mobile_get_screen_size', { device: 'nosuch@lab1' })) as { code?: string; message?: string };
    assert.is(none.code, 'DEVICE_NOT_FOUND', JSON.stringify(none));
    assert.ok(none.message?.includes('nosuch@lab1'), none.message);
    assert.ok(none.message?.includes(LISTED), none.message);
    assert.not.match(String(none.message), BARE);
  } finally {
    await a.close();
    await b.close();
  }
});

messages.run();

const lost = suite('the aggregator\'s own messages about a peer\'s phone');

lost('"may have run there: check the device" names the peer\'s phone, not the aggregator\'s own of that id', async () => {
  const peer = await ScriptedPeer.start([{ id: ANDROID, os: 'Android', model: 'Scripted', version: '1' }]);
  const shared = new Peer({ name: 'lab1', url: peer.url }, { firstRetryMs: 50, maxRetryMs: 200 });
  const agg = await startBridge({ engine: createEngine({ virtual: { devices: ['android'] }, extraDrivers: [shared] }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers: [shared], log: () => undefined });
  const client = await connectBridge(agg.wsUrl, { client: 'ci' });
  try {
    await until('the peer listed', () => shared.up && shared.owns(ANDROID));
    peer.crashOn = 'tools.call';
    const r = (await client.callTool('mobile_press_button', { device: LISTED, button: 'HOME' })) as { code?: string; message?: string };
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
    assert.match(String(r.message), /may have run there/);
    assert.ok(r.message?.startsWith(`mobile_press_button on ${LISTED}:`), r.message);
    assert.not.match(String(r.message), BARE);
  } finally {
    await client.close();
    await agg.close();
    await peer.close();
  }
});

lost.run();
