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
 * A peer that crashes after reading a call: the caller must not be told the peer "could not be
 * reached" (nothing happened) when the call, or part of a scenario, may have run there.
 */
const lost = suite<{ peer?: ScriptedPeer; agg?: Bridge; shared?: Peer }>('a peer lost while a call is out');

lost.before(async (ctx) => {
  ctx.peer = await ScriptedPeer.start();
  const shared = (ctx.shared = new Peer({ name: 'lab1', url: ctx.peer.url }, { firstRetryMs: 50, maxRetryMs: 200 }));
  ctx.agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: [shared] }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers: [shared], log: () => undefined });
  await until('the peer listed', () => shared.up && shared.owns(PHONE));
});

lost.after(async (ctx) => {
  await ctx.agg?.close();
  await ctx.peer?.close();
});

lost('a tap and a verb say they may have run there', async ({ peer, agg, shared }) => {
  const client = await connectBridge(agg!.wsUrl, { client: 'ci' });
  try {
    let crashedAt = 0;
    for (const [method, params] of [
      ['tools.call', { tool: 'mobile_press_button', parameters: { device: PHONE, button: 'HOME' } }],
      ['verbs.run', { device: PHONE, step: { id: 'back', action: 'press_back', description: 'back' } }],
    ] as const) {
      // The shared link lists the peer's devices again once it has reconnected after the last crash.
      await until('the peer back', () => peer!.requests.slice(crashedAt).some((q) => q.method === 'devices.list') && shared!.up && shared!.owns(PHONE));
      peer!.crashOn = method;
      const r = (await client.requestRaw(method, params)) as { code?: string; message?: string };
      assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
      assert.match(String(r.message), /was lost while the call was out/);
      assert.match(String(r.message), /may have run there/);
      assert.not.match(String(r.message), /could not be reached/);
      assert.ok(peer!.requests.some((q) => q.method === method), 'the peer read the call');
      peer!.crashOn = undefined;
      crashedAt = peer!.requests.length;
    }
  } finally {
    await client.close();
  }
});

lost.run();
