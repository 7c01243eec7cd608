import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { until } from '../bridge/helpers.js';
import { ScriptedPeer } from './scripted-peer.js';

const PHONE = 'scripted-phone';

test('a call on a device of a peer listed offline answers DEVICE_NOT_FOUND at once with the peer\'s reason, not a TIMEOUT after connecting', async () => {
  const peer = await ScriptedPeer.start();
  const shared = new Peer({ name: 'lab1', url: peer.url }, { firstRetryMs: 50, maxRetryMs: 200, pingMs: 100, connectTimeoutMs: 2_000 });
  const agg = await startBridge({
    engine: createEngine({ virtual: false, extraDrivers: [shared] }),
    host: '127.0.0.1',
    port: 0,
    webRoot: '/nonexistent',
    peers: [shared],
    callTimeoutMs: 5_000,
    peerLinks: { pingMs: 100, connectTimeoutMs: 2_000 },
    log: () => undefined,
  });
  const client = await connectBridge(agg.wsUrl, { client: 'agent' });
  try {
    await until('the peer listed', () => shared.up && shared.owns(PHONE));
    // Frozen: it accepts connections and reads, but answers neither requests nor pings.
    peer.silent = true;
    peer.deaf = true;
    await until('the peer marked down', () => !shared.up && shared.whyDown !== undefined);
    const listed = (await client.request('devices.list', {})) as { devices: { id: string; state?: string }[] };
    assert.is(listed.devices.find((d) => d.id === PHONE)?.state, 'offline');
    const asked = peer.requests.length;
    const started = performance.now();
    const r = (await client.callTool('mobile_take_screenshot', { device: PHONE })) as { code?: string; message?: string };
    const took = performance.now() - started;
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
    assert.match(String(r.message), /device scripted-phone is offline: it is on peer bridge ws:\/\/127\.0\.0\.1:\d+\/ws, which is down \(.+\)/);
    assert.match(String(r.message), /come back by themselves/);
    assert.ok(took < 1_500, `answered after ${Math.round(took)} ms, not at once`);
    assert.is(peer.requests.length, asked, 'nothing was sent to the frozen peer');
    const lock = (await client.request('devices.lock', { device: PHONE })) as { code?: string };
    assert.is(lock.code, 'DEVICE_NOT_FOUND', JSON.stringify(lock));
  } finally {
    await client.close();
    await agg.close();
    await peer.close();
  }
});

test.run();
