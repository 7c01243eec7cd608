import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { RawClient, sleep, testBridge, until } from '../bridge/helpers.js';

const ANDROID = 'virtual-android-1';

/**
 * CI jobs killed while they wait in the devices.lease line (kill -9: the socket drops, the session
 * stays for its resume grace). They must leave the line at once: the next live job gets the phone
 * when it frees, and the dead one never takes it.
 */
const crashed = suite<{ peer?: Bridge; agg?: Bridge }>('devices.lease: crashed waiters, id@peer');

crashed.before(async (ctx) => {
  ctx.peer = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  const peers = [new Peer({ name: 'lab1', url: ctx.peer.wsUrl }, { firstRetryMs: 50 })];
  ctx.agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  await until('the peer listed', () => peers[0].owns(ANDROID), 10_000);
});

crashed.after(async (ctx) => {
  await ctx.agg?.close();
  await ctx.peer?.close();
});

crashed('neither blocks the line nor takes the device (directly and through an aggregator)', async ({ peer, agg }) => {
  for (const url of [peer!.wsUrl, agg!.wsUrl]) {
    const holder = await RawClient.open(url);
    const dead = await RawClient.open(url);
    const next = await RawClient.open(url);
    try {
      for (const [c, name] of [[holder, 'ci-holder'], [dead, 'ci-dead'], [next, 'ci-next']] as const) await c.call('session.hello', { client: name });
      const first = await holder.call('devices.lease', { platform: 'android' });
      assert.ok(String(first.device).startsWith(ANDROID), JSON.stringify(first));
      dead.send({ jsonrpc: '2.0', id: 50, method: 'devices.lease', params: { platform: 'android', timeout_ms: 30_000 } });
      await sleep(300);
      next.send({ jsonrpc: '2.0', id: 60, method: 'devices.lease', params: { platform: 'android', timeout_ms: 30_000 } });
      await sleep(300);
      // A killed process: no close frame, no session.bye.
      dead.ws.terminate();
      await sleep(300);
      await holder.call('devices.unlock', { device: first.device });
      const got = (await next.response(60, 10_000)).result as { device?: string; holder?: { client?: string } };
      assert.is(got.device, first.device, JSON.stringify(got));
      assert.ok(got.holder?.client?.startsWith('ci-next'), JSON.stringify(got));
    } finally {
      await holder.close();
      await next.close();
    }
  }
});

crashed('devices.lease of id@peer works while the listing shows the bare id (no clash)', async ({ agg }) => {
  const c = await RawClient.open(agg!.wsUrl);
  try {
    await c.call('session.hello', { client: 'ci' });
    const got = await c.call('devices.lease', { device: `${ANDROID}@lab1`, timeout_ms: 0 });
    assert.is(got.device, `${ANDROID}@lab1`, JSON.stringify(got));
    assert.is(got.source, 'lab1');
  } finally {
    await c.close();
  }
});

crashed('devices.lease of a device that is not connected says so, not that it is locked', async ({ agg }) => {
  const c = await RawClient.open(agg!.wsUrl);
  try {
    await c.call('session.hello', { client: 'ci' });
    const r = await c.call('devices.lease', { device: 'virtual-andriod-1', timeout_ms: 0 });
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
    assert.match(String(r.message), 'device "virtual-andriod-1" not found');
    assert.match(String(r.message), ANDROID);
    assert.not.match(String(r.message), /locked/);
    const ios = await c.call('devices.lease', { platform: 'ios', timeout_ms: 0 });
    assert.is(ios.code, 'DEVICE_NOT_FOUND', JSON.stringify(ios));
    assert.match(String(ios.message), 'no ios device is connected to the bridge', JSON.stringify(ios));
  } finally {
    await c.close();
  }
});

crashed.run();
