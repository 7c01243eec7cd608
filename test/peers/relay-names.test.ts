import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Peer } from '../../src/bridge/peers/peer.js';
import type { BridgeClient } from '../../src/protocol/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, testBridge, until } from '../bridge/helpers.js';

/**
 * The aggregator has a virtual-android-1 of its own, so the peer's is listed virtual-android-1@b.
 * What the peer says about its phone when a viewer subscribes (why there is no live video, why the
 * subscription failed) named the peer's bare id, which here is the aggregator's own phone: the
 * viewer was told about the wrong device.
 */
test('a viewer subscribing to a peer\'s device listed id@peer is told about it by that id, not the peer\'s bare one', async () => {
  const { bridge: b } = await testBridge({ virtual: { devices: ['android'] } });
  const peer = new Peer({ name: 'b', url: b.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 });
  const { bridge: agg } = await testBridge({ virtual: { devices: ['android'] }, extraDrivers: [peer], peers: [peer] });
  const listed = `${ANDROID}@b`;
  let client: BridgeClient | undefined;
  try {
    client = await connectBridge(agg.wsUrl, { client: 'viewer' });
    await until('the peer listed', () => peer.up && peer.owns(ANDROID), 10_000);
    const sub = (await client.request('devices.subscribe', { device: listed, screen: { format: 'h264' } })) as { fallback_reason?: string };
    assert.match(String(sub.fallback_reason), `${listed} has no live video`);
    await client.request('devices.unsubscribe', { subscription: (sub as { subscription: string }).subscription });
    await b.close();
    await until('the peer down', () => !peer.up && peer.whyDown !== undefined, 10_000);
    const refused = (await client.requestRaw('devices.subscribe', { device: listed, screen: { format: 'jpeg' } })) as { code?: string; message?: string };
    assert.is(refused.code, 'DEVICE_NOT_FOUND', JSON.stringify(refused));
    assert.match(String(refused.message), `device ${listed} is on peer bridge`);
    assert.not.match(String(refused.message), new RegExp(`${ANDROID}(?!@b)`), 'the aggregator\'s own phone is not named');
  } finally {
    await client?.close();
    await agg.close();
    await b.close();
  }
});

test.run();
