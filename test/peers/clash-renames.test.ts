import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { DeviceIds } from '../../src/engine/device-ids.js';
import type { Driver } from '../../src/engine/driver.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import type { DevicesChangedParams } from '../../src/protocol/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { testBridge, until } from '../bridge/helpers.js';
import { ScriptedPeer } from './scripted-peer.js';

const ANDROID = 'virtual-android-1';

const phone = (id: string): DeviceInfo => ({ id, os: 'Android', model: 'M', version: '1' });
const peerDriver = (name: string): Driver => ({ name, renameOnClash: true, listDevices: async () => [], open: async () => undefined, close: async () => undefined });

test('a peer whose ids start or stop clashing: the other peer\'s renamed devices are announced removed and added', () => {
  const a = peerDriver('a');
  const d = peerDriver('d');
  const ids = new DeviceIds([a, d]);
  assert.equal(ids.changed(a, { added: [phone('x'), phone('y')], removed: [] }).added.map((p) => p.id), ['x', 'y']);
  const arrival = ids.changed(d, { added: [phone('x')], removed: [] });
  assert.equal(arrival.added.map((p) => p.id).sort(), ['x@a', 'x@d']);
  assert.equal(arrival.removed, ['x']);
  assert.is(arrival.added.find((p) => p.id === 'x@a')?.model, 'M', 'announced with what a listed');
  const departure = ids.changed(d, { added: [], removed: ['x'] });
  assert.equal(departure.removed.sort(), ['x@a', 'x@d']);
  assert.equal(departure.added.map((p) => p.id), ['x']);
});

test('through an aggregator: a peer arriving with clashing ids renames the other peer\'s devices in devices.changed', async () => {
  const a = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  // Peer d does not answer at first (as a bridge started later), then does.
  const later = await ScriptedPeer.start([{ id: ANDROID, os: 'Android', model: 'Scripted', version: '1' }]);
  later.silent = true;
  const peers = [
    new Peer({ name: 'a', url: a.wsUrl }, { firstRetryMs: 50, maxRetryMs: 200 }),
    new Peer({ name: 'd', url: later.url }, { firstRetryMs: 50, maxRetryMs: 200, connectTimeoutMs: 300 }),
  ];
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  const viewer = await connectBridge(agg.wsUrl, { client: 'viewer' });
  try {
    await until('peer a listed', () => peers[0].up && peers[0].owns(ANDROID), 10_000);
    const before = (await viewer.request('devices.list', {})) as { devices: DeviceInfo[] };
    assert.equal(before.devices.map((x) => x.id), [ANDROID]);
    const changes: DevicesChangedParams[] = [];
    viewer.on('devices.changed', (c) => changes.push(c as DevicesChangedParams));
    later.silent = false;
    await until('peer d listed', () => changes.some((c) => c.added.some((x) => x.id === `${ANDROID}@d`)), 10_000);
    // Follow the list by the changes alone, as a viewer does.
    let shown = before.devices.map((x) => x.id);
    for (const c of changes) shown = [...shown.filter((id) => !c.removed.includes(id)), ...c.added.map((x) => x.id)];
    const listed = (await viewer.request('devices.list', {})) as { devices: DeviceInfo[] };
    assert.equal([...new Set(shown)].sort(), listed.devices.map((x) => x.id).sort(), JSON.stringify(changes));
    assert.equal(listed.devices.map((x) => x.id).sort(), [`${ANDROID}@a`, `${ANDROID}@d`]);
    // The renamed phone did not go anywhere: `gone` says where it is listed now, not "disconnected".
    const renamed = changes.flatMap((c) => c.gone ?? []).find((g) => g.id === ANDROID);
    assert.match(renamed?.reason ?? '', new RegExp(`is listed as ${ANDROID}@[ad]( or ${ANDROID}@[ad])? now .*use that id`), JSON.stringify(changes));
  } finally {
    await viewer.close();
    await agg.close();
    await later.close();
    await a.close();
  }
});

test.run();
