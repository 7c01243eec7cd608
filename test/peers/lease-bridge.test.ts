import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { testBridge, until } from '../bridge/helpers.js';
import { RUNS_DIR } from '../runner/harness.js';
import { deadPort, unusedPort } from '../support/dead-port.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const ANDROID = 'virtual-android-1';

const lease = suite<{ peer?: Bridge; agg?: Bridge; dir: string }>('devices.lease and run --bridge through an aggregator', { dir: '' });

lease.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-lease-bridge-'));
  ctx.peer = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  const peers = [new Peer({ name: 'lab1', url: ctx.peer.wsUrl }, { firstRetryMs: 50 })];
  ctx.agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  await until('the peer listed', () => peers[0].owns(ANDROID), 10_000);
});

lease.after(async (ctx) => {
  await ctx.agg?.close();
  await ctx.peer?.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

lease('a second lease waits in line until the first holder unlocks (directly and through the aggregator)', async ({ peer, agg }) => {
  // Through the aggregator the lease names the peer: the id stays the same phone whatever other peers do.
  for (const [url, leased] of [[peer!.wsUrl, ANDROID], [agg!.wsUrl, `${ANDROID}@lab1`]]) {
    const one = await connectBridge(url, { client: 'ci-1' });
    const two = await connectBridge(url, { client: 'ci-2' });
    try {
      const first = (await one.requestRaw('devices.lease', { platform: 'android' })) as { device?: string };
      assert.is(first.device, leased);
      const none = (await two.requestRaw('devices.lease', { platform: 'android' })) as { code?: string; message?: string };
      assert.is(none.code, 'TIMEOUT', JSON.stringify(none));
      let got: { device?: string } | undefined;
      const waiting = (two.requestRaw('devices.lease', { platform: 'android', timeout_ms: 20_000 }) as Promise<{ device?: string }>).then((r) => (got = r));
      await new Promise((r) => setTimeout(r, 400));
      assert.is(got, undefined, 'still waiting while the device is leased');
      await one.request('devices.unlock', { device: leased });
      await waiting;
      assert.is(got?.device, leased);
    } finally {
      await one.close();
      await two.close();
    }
  }
});

function run(dir: string, url: string, name: string): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [MAIN, 'run', join(RUNS_DIR, 'clear_data_cross.json'), '--bridge', url, '--devices', 'any:android', '--lease-timeout', '60s', '--out', join(dir, name)], {
    cwd: dir,
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state') },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (err += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

lease('two run --bridge processes share the aggregator\'s one phone, one after the other', async ({ agg, dir }) => {
  const [a, b] = await Promise.all([run(dir, agg!.wsUrl, 'one'), run(dir, agg!.wsUrl, 'two')]);
  assert.is(a.code, 0, a.err + a.out);
  assert.is(b.code, 0, b.err + b.out);
  const spans = [a, b].map((r) => {
    const run0 = (JSON.parse(r.out) as { data: { runs: { device: string; result: string }[] } }).data.runs[0];
    const doc = JSON.parse(readFileSync(run0.result, 'utf8')) as { started_at: string; ended_at: string };
    return { device: run0.device, from: Date.parse(doc.started_at), to: Date.parse(doc.ended_at) };
  });
  assert.is(spans[0].device, `${ANDROID}@lab1`);
  assert.is(spans[1].device, `${ANDROID}@lab1`);
  assert.ok(spans[0].to <= spans[1].from || spans[1].to <= spans[0].from, `the runs did not overlap: ${JSON.stringify(spans)}`);
});

lease.run();

const pool = suite<{ a?: Bridge; b?: Bridge; agg?: Bridge }>('several leases of one caller through an aggregator');

pool.before(async (ctx) => {
  // Two bridges started the same way: each has virtual-android-1, listed here as id@peer.
  ctx.a = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  ctx.b = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  const peers = [new Peer({ name: 'a', url: ctx.a.wsUrl }, { firstRetryMs: 50 }), new Peer({ name: 'b', url: ctx.b.wsUrl }, { firstRetryMs: 50 })];
  ctx.agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  await until('both peers listed', () => peers.every((p) => p.owns(ANDROID)), 10_000);
});

pool.after(async (ctx) => {
  await ctx.agg?.close();
  await Promise.all([ctx.a?.close(), ctx.b?.close()]);
});

pool('each lease is a different phone; one more than the pool has waits (run --devices any:android,any:android)', async ({ agg }) => {
  const ci = await connectBridge(agg!.wsUrl, { client: 'ci' });
  try {
    const first = (await ci.requestRaw('devices.lease', { platform: 'android' })) as { device?: string };
    const second = (await ci.requestRaw('devices.lease', { platform: 'android' })) as { device?: string };
    assert.equal([first.device, second.device].sort(), [`${ANDROID}@a`, `${ANDROID}@b`], JSON.stringify([first, second]));
    const third = (await ci.requestRaw('devices.lease', { platform: 'android' })) as { code?: string };
    assert.is(third.code, 'TIMEOUT', JSON.stringify(third));
  } finally {
    await ci.close();
  }
});

pool.run();

const late = suite('a lease taken while another peer with the same ids is down');

late('names the phone so that it still reaches it when the other peer comes back', async () => {
  // Peer a's bridge starts only after the lease: until then b's phone is listed by its bare id.
  const portA = await unusedPort();
  const b = (await testBridge({ virtual: { devices: ['android'] } })).bridge;
  const peers = [new Peer({ name: 'a', url: `ws://127.0.0.1:${portA}/ws` }, { firstRetryMs: 20, maxRetryMs: 50 }), new Peer({ name: 'b', url: b.wsUrl }, { firstRetryMs: 20 })];
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  let a: Bridge | undefined;
  const ci = await connectBridge(agg.wsUrl, { client: 'ci' });
  try {
    await until('b listed', () => peers[1].owns(ANDROID), 10_000);
    const leased = (await ci.requestRaw('devices.lease', { platform: 'android' })) as { device?: string };
    assert.ok(leased.device?.startsWith(ANDROID), JSON.stringify(leased));
    a = (await testBridge({ virtual: { devices: ['android'] }, port: portA })).bridge;
    await until('a back, its phone clashing with b\'s', () => peers[0].up && peers[0].owns(ANDROID), 10_000);
    const pressed = (await ci.callTool('mobile_press_button', { device: leased.device!, button: 'HOME' })) as { status?: string; message?: string };
    assert.is(pressed.status, 'success', JSON.stringify(pressed));
    assert.ok(b.locks.holder(ANDROID), 'the lease is b\'s lock');
  } finally {
    await ci.close();
    await agg.close();
    await a?.close();
    await b.close();
  }
});

late.run();

const silent = suite('a lease when the lab\'s peers do not answer');

silent('the refusal names the peer that does not answer, not only "no device is connected"', async () => {
  const peers = [new Peer({ name: 'usb1', url: `ws://127.0.0.1:${await deadPort()}/ws` }, { firstRetryMs: 20, maxRetryMs: 50 })];
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  const ci = await connectBridge(agg.wsUrl, { client: 'ci' });
  try {
    await until('the peer known to be down', () => peers[0].link.lastError, 5000);
    const r = (await ci.requestRaw('devices.lease', { platform: 'android' })) as { code?: string; message?: string };
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
    assert.match(r.message ?? '', /peer usb1: .*ws:\/\/127\.0\.0\.1:\d+\/ws/);
    assert.not.match(r.message ?? '', /check the id/, 'no id was given');
  } finally {
    await ci.close();
    await agg.close();
  }
});

silent.run();
