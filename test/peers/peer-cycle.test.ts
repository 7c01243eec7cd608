import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import { testBridge, until } from '../bridge/helpers.js';
import { unusedPort } from '../support/dead-port.js';

/**
 * A lab admin's slip: a --peer that points back at the bridge itself, or two aggregators that each
 * name the other. Each side would list the other's devices, its own among them, and nest the other's
 * notes ("peer b's peer a's peer b's …") without end: hundreds of MB of log a minute, CPU spent on
 * devices.changed ping-pong, and ids listed twice. The peer that closes the cycle is left out, saying why.
 */

const CYCLE = /lists this bridge's own devices back/;
const opts = { firstRetryMs: 20, maxRetryMs: 100 };

const cycle = suite<{ bridges: Bridge[]; peers: Peer[] }>('a cycle of --peer flags', { bridges: [], peers: [] });

cycle.after.each(async (ctx) => {
  for (const b of ctx.bridges) await b.close();
  for (const p of ctx.peers) await p.close();
  ctx.bridges = [];
  ctx.peers = [];
});

async function listed(bridge: Bridge): Promise<{ devices: DeviceInfo[]; notes: string[] }> {
  const devices = await bridge.engine.listDevices();
  return { devices, notes: bridge.engine.sourceProblems() };
}

cycle('a --peer to the bridge itself is left out with the reason; its own devices are listed once', async (ctx) => {
  const port = await unusedPort();
  const me = new Peer({ name: 'me', url: `ws://127.0.0.1:${port}/ws` }, opts);
  ctx.peers.push(me);
  const { bridge } = await testBridge({ virtual: { devices: ['android'] }, extraDrivers: [me], peers: [me], port });
  ctx.bridges.push(bridge);
  await until('the cycle noted', () => bridge.engine.sourceProblems().some((n) => CYCLE.test(n)), 5000);
  const { devices } = await listed(bridge);
  assert.equal(devices.map((d) => d.id), ['virtual-android-1']);
  assert.is(me.up, false, 'the link is closed');
  assert.match(bridge.peers!.stats().me.error ?? '', CYCLE, 'the health says why');
});

cycle('two aggregators that name each other: one leaves the other out, no id is listed twice, notes do not nest', async (ctx) => {
  const [pa, pb] = [await unusedPort(), await unusedPort()];
  const toB = new Peer({ name: 'b', url: `ws://127.0.0.1:${pb}/ws` }, opts);
  const toA = new Peer({ name: 'a', url: `ws://127.0.0.1:${pa}/ws` }, opts);
  ctx.peers.push(toB, toA);
  const a = (await testBridge({ virtual: { devices: ['android'] }, extraDrivers: [toB], peers: [toB], port: pa })).bridge;
  ctx.bridges.push(a);
  const b = (await testBridge({ virtual: { devices: ['android'] }, extraDrivers: [toA], peers: [toA], port: pb })).bridge;
  ctx.bridges.push(b);
  await until('the cycle noted on one side', () => [a, b].some((x) => x.engine.sourceProblems().some((n) => /^peer [ab]: /.test(n) && CYCLE.test(n))), 5000);
  for (const x of [a, b]) {
    const { devices, notes } = await listed(x);
    assert.is(new Set(devices.map((d) => d.id)).size, devices.length, JSON.stringify(devices.map((d) => d.id)));
    assert.ok(devices.length <= 2, `its own phone and at most the other's: ${JSON.stringify(devices.map((d) => d.id))}`);
    assert.ok(notes.every((n) => n.length < 600), JSON.stringify(notes).slice(0, 400));
  }
});

cycle.run();
