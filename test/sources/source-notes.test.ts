import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Peer } from '../../src/bridge/peers/peer.js';
import { parsePeer } from '../../src/bridge/peers/peer-spec.js';
import { logSourceNotes } from '../../src/cli/source-log.js';
import type { DevicesChange } from '../../src/engine/driver.js';
import { Engine } from '../../src/engine/engine.js';
import type { DevicesChangedParams } from '../../src/protocol/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { testBridge, until } from '../bridge/helpers.js';
import { flakySet } from '../support/flaky-source.js';

// A source that has no devices changes no device when it stops or starts answering: its note must
// still reach watchers (the viewer's notes, serve's log, a peer bridge), or it would go stale.

test('a source without devices: its going down and coming back reach watchers as changes of the notes alone', async () => {
  const { flaky, set } = flakySet();
  const changes: DevicesChange[] = [];
  const off = set.watch((c) => changes.push(c));
  try {
    await set.listDevices({ signal: new AbortController().signal });
    assert.equal(set.problems(), [{ source: 'source lab', text: 'the adb server at 127.0.0.1:1 is not reachable (nothing listens there)' }]);
    assert.equal(changes, [{ added: [], removed: [] }], 'the note appeared');
    await new Promise((r) => setTimeout(r, 150)); // several background retries, same reason
    assert.is(changes.length, 1, 'a retry that fails the same way changes nothing');
    flaky.up = true;
    await until('the source answering again', () => changes.length === 2, 3000);
    assert.equal(changes[1], { added: [], removed: [] });
    assert.equal(set.problems(), []);
  } finally {
    off();
    await set.close();
  }
});

test('the bridge sends the notes with devices.changed; serve\'s log says once that a source is down and once that it answers again', async () => {
  const { flaky, set } = flakySet();
  const engine = new Engine({ drivers: [set] });
  const logged: string[] = [];
  const offLog = logSourceNotes(engine, (line) => logged.push(line));
  const { bridge } = await testBridge({ virtual: { devices: [] }, extraDrivers: [set] });
  const client = await connectBridge(bridge.wsUrl, { client: 'test' });
  const seen: DevicesChangedParams[] = [];
  client.on('devices.changed', (c) => seen.push(c));
  try {
    const first = await client.request('devices.list', {});
    assert.equal(first.notes, ['source lab: the adb server at 127.0.0.1:1 is not reachable (nothing listens there)']);
    await until('the first log line', () => logged.length === 1, 3000);
    assert.equal(logged, ['source lab: the adb server at 127.0.0.1:1 is not reachable (nothing listens there); its devices appear by themselves once it answers (retried in the background)']);
    flaky.up = true;
    const cleared = await until('the note cleared', () => seen.find((c) => c.notes?.length === 0), 3000);
    assert.equal(cleared, { added: [], removed: [], notes: [] });
    await until('the log line of the return', () => logged.length === 2, 3000);
    assert.is(logged[1], 'source lab answers again');
    assert.equal((await client.request('devices.list', {})).notes, undefined);
  } finally {
    offLog();
    await client.close();
    await bridge.close();
    await engine.close();
  }
});

test('a peer bridge\'s own notes are listed here under the peer\'s name, and follow its changes', async () => {
  const { flaky, set } = flakySet();
  const { bridge } = await testBridge({ virtual: { devices: ['android'] }, extraDrivers: [set] });
  const peer = new Peer(parsePeer(`far=${bridge.wsUrl}`, undefined), { firstRetryMs: 50 });
  const changes: DevicesChange[] = [];
  const off = peer.watch((c) => changes.push(c));
  try {
    await until('the peer listed', () => peer.owns('virtual-android-1'), 5000);
    assert.equal(peer.problems(), [{ source: "peer far's source lab", text: 'the adb server at 127.0.0.1:1 is not reachable (nothing listens there)', via: 'peer far' }]);
    const before = changes.length;
    flaky.up = true;
    await until('the peer\'s note cleared', () => peer.problems().length === 0, 3000);
    await until('watchers told', () => changes.length > before, 1000);
    assert.equal(changes.at(-1), { added: [], removed: [] });
  } finally {
    off();
    await peer.close();
    await bridge.close();
  }
});

test('serve\'s log: a peer that goes down hides its own notes, which is not its sources answering again', async () => {
  const { set } = flakySet();
  const { bridge } = await testBridge({ virtual: { devices: [] }, extraDrivers: [set] });
  const peer = new Peer(parsePeer(`far=${bridge.wsUrl}`, undefined), { firstRetryMs: 50 });
  const engine = new Engine({ drivers: [peer] });
  const logged: string[] = [];
  const off = logSourceNotes(engine, (line) => logged.push(line));
  try {
    await until('the peer\'s note logged', () => logged.some((l) => l.startsWith("peer far's source lab: the adb server")), 5000);
    await bridge.close();
    await until('the peer logged down', () => logged.some((l) => l.startsWith('peer far: peer bridge ws://127.0.0.1:')), 5000);
    assert.not.ok(logged.some((l) => l.includes('answers again')), logged.join('\n'));
  } finally {
    off();
    await engine.close();
    await bridge.close();
  }
});

test('serve\'s log: a peer that refuses our token is not promised to come back by itself; the line says to fix the token', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] }, token: 'right' });
  const peer = new Peer(parsePeer(`far=${bridge.wsUrl}`, 'wrong'), { firstRetryMs: 50 });
  const engine = new Engine({ drivers: [peer] });
  const logged: string[] = [];
  const off = logSourceNotes(engine, (line) => logged.push(line));
  try {
    const line = await until('the refusal logged', () => logged.find((l) => l.startsWith('peer far: ')), 5000);
    assert.match(line, /refuses this bridge \(.*HTTP 401/);
    assert.not.match(line, /by themselves/);
    assert.match(line, /until it accepts this bridge's token/);
    assert.match(line, '--peer far=ws://HOST:PORT?token=T');
    assert.match(line, 'then restart serve');
  } finally {
    off();
    await engine.close();
    await bridge.close();
  }
});

test.run();
