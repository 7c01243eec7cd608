import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import { connectBridge } from '../../src/protocol/node.js';
import { testBridge, until } from '../bridge/helpers.js';
import { deadPort } from '../support/dead-port.js';

/**
 * A lab script that polls GET /api/devices got {"devices": []} while its only peer bridge was down
 * from the start, with nothing saying why, where devices.list (and the viewer, MCP list_devices and
 * `mobilebridge devices`) named the peer that did not answer. Both carry the same listing now.
 */
test('GET /api/devices names the sources that do not answer, as devices.list does', async () => {
  const { bridge: up } = await testBridge({ virtual: { devices: ['android'] } });
  const dead = await deadPort();
  const peers = [new Peer({ name: 'lab1', url: up.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 }), new Peer({ name: 'lab2', url: `ws://127.0.0.1:${dead}` }, { firstRetryMs: 50, maxRetryMs: 200 })];
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  const client = await connectBridge(agg.wsUrl, { client: 'test' });
  try {
    await until('lab1 listed and lab2 noted', () => peers[0].owns('virtual-android-1') && agg.engine.sourceProblems().length > 0, 10_000);
    const listed = (await client.request('devices.list', {})) as { devices: DeviceInfo[]; notes?: string[] };
    const api = (await (await fetch(`${agg.url}api/devices`)).json()) as { devices: DeviceInfo[]; notes?: string[] };
    assert.equal(api.devices, listed.devices);
    assert.equal(api.notes, listed.notes);
    assert.match(String(api.notes?.[0]), new RegExp(`^peer lab2: peer bridge ws://127\\.0\\.0\\.1:${dead} is unreachable`));
    // Nothing to report: no notes key, as devices.list.
    await peers[1].close();
    const quiet = (await (await fetch(`${up.url}api/devices`)).json()) as Record<string, unknown>;
    assert.equal(Object.keys(quiet), ['devices']);
  } finally {
    await client.close();
    await agg.close();
    await up.close();
  }
});

test.run();
