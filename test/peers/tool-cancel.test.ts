import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { Engine } from '../../src/engine/engine.js';
import { connectBridge } from '../../src/protocol/node.js';
import { until } from '../bridge/helpers.js';
import { RecordingDriver } from '../engine/recording-driver.js';

test('a tools.call sent to a peer\'s device is stopped there when its caller cancels it at the aggregator', async () => {
  const driver = new RecordingDriver(['lab-phone']);
  driver.delayMs = 60_000;
  const bridges: Bridge[] = [];
  try {
    const peerBridge = await startBridge({ engine: new Engine({ drivers: [driver] }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', log: () => undefined });
    bridges.push(peerBridge);
    const peer = new Peer({ name: 'lab', url: peerBridge.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 });
    const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: [peer] }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers: [peer], log: () => undefined });
    bridges.unshift(agg);
    await until('the peer listed', () => peer.up && peer.owns('lab-phone'), 10_000);
    const client = await connectBridge(agg.wsUrl, { client: 'agent' });
    try {
      const controller = new AbortController();
      const call = client.requestRaw('tools.call', { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: 'lab-phone', x: 5, y: 5 } }, controller.signal) as Promise<{ code?: string; message?: string; may_have_run?: boolean }>;
      await until('the tap running on the peer', () => driver.log.includes('start lab-phone tap 5,5'), 10_000);
      controller.abort();
      const answer = await call;
      assert.is(answer.code, 'INTERNAL', JSON.stringify(answer));
      assert.match(String(answer.message), /cancelled by its caller while it ran/);
      assert.is(answer.may_have_run, true);
      assert.not.ok(driver.log.includes('end lab-phone tap 5,5'), 'the peer told its tap to stop');
    } finally {
      await client.close();
    }
  } finally {
    for (const b of bridges) await b.close();
  }
});

test.run();
