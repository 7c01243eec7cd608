import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/index.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { LeaseTimeout, leaseDevices } from '../../src/engine/leases/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { routeScenarios, runScenario } from '../../src/engine/runner/index.js';
import { verbContext } from '../../src/engine/verbs/index.js';
import { hasAdb } from '../android/setup.js';
import { PrivateAdbServer } from '../harness/adb-server.js';
import { EmulatedPhone } from '../harness/adbd/emulated-phone.js';
import { launchScenario } from './launch-scenario.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

const SCENARIO = launchScenario('source_id_check');

interface Lab {
  server: PrivateAdbServer;
  phone: EmulatedPhone;
  engine: Engine;
  dir: string;
}

/** One phone on an adb server named `lab`: listed as its bare serial (no other source reports it). */
const ids = suite<{ lab?: Lab; stops: (() => Promise<unknown>)[] }>('serial@source of a device listed bare', { stops: [] });

ids.before(async (ctx) => {
  const stop = (f: () => Promise<unknown>) => ctx.stops.push(f);
  const phone = await EmulatedPhone.start();
  stop(() => phone.close());
  const server = await PrivateAdbServer.start();
  stop(() => server.stop());
  await server.connect(phone.serial);
  const dir = mkdtempSync(join(tmpdir(), 'mb-source-ids-'));
  stop(async () => rmSync(dir, { recursive: true, force: true }));
  const engine = createEngine({ virtual: false, ios: false, sources: { adb: [{ name: 'lab', host: '127.0.0.1', port: server.port }], wda: [] } });
  stop(() => engine.close());
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify(SCENARIO));
  ctx.lab = { server, phone, engine, dir };
});

ids.after(async (ctx) => {
  for (const s of ctx.stops.reverse()) await s().catch(() => undefined);
});

ids('the engine lookup finds serial@lab as the bare-listed phone, and keys both ids alike', async ({ lab }) => {
  const { engine, phone } = lab!;
  const lookup = await engine.lookupDevices();
  assert.equal(lookup.devices.map((d) => d.id), [phone.serial], 'listed bare: no other source reports the serial');
  assert.is(lookup.find(`${phone.serial}@lab`)?.id, phone.serial);
  assert.is(lookup.find(phone.serial)?.id, phone.serial);
  assert.is(lookup.find(`${phone.serial}@elsewhere`), undefined, 'a source that does not exist names nothing');
  assert.is(lookup.key(phone.serial), `${phone.serial}@lab`);
  assert.is(lookup.key(`${phone.serial}@lab`), `${phone.serial}@lab`);
});

ids('routing and verb contexts accept serial@lab; naming the phone twice runs it once', async ({ lab }) => {
  const { engine, phone } = lab!;
  const routed = routeScenarios([{ name: 'a.json', platform: 'android' }], await engine.lookupDevices(), [`${phone.serial}@lab`, phone.serial]);
  assert.equal(routed, { ok: true, devices: [{ id: `${phone.serial}@lab`, os: 'Android' }] });
  const ctx = await verbContext({ engine, device: `${phone.serial}@lab` });
  assert.is(ctx.os, 'Android');
});

ids('a scenario runs on serial@lab', async ({ lab }) => {
  const { engine, phone, dir } = lab!;
  const result = await runScenario({ engine, device: `${phone.serial}@lab`, scenario: SCENARIO as never, scenarioDir: dir, outDir: join(dir, 'direct'), targetWaitMs: 500, settleMs: 0, screenshots: 'none' });
  assert.is.not(result.document.status, 'error', result.document.summary);
  assert.is(result.document.metadata.device_id, `${phone.serial}@lab`);
});

ids('mobilebridge run --device serial@lab', async ({ lab }) => {
  const { server, phone, dir } = lab!;
  const args = [MAIN, 'run', join(dir, 'scenario.json'), '--out', join(dir, 'cli'), '--adb', `lab=127.0.0.1:${server.port}`, '--no-virtual', '--no-ios', '--device', `${phone.serial}@lab`, '--target-wait', '500'];
  const child = spawn(process.execPath, args, { cwd: dir, env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state') } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (err += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.is(code, 0, err);
  const runs = (JSON.parse(out) as { data: { runs: { device: string; status: string }[] } }).data.runs;
  assert.equal(runs.map((r) => [r.device, r.status]), [[`${phone.serial}@lab`, 'passed']]);
});

ids('a lease on serial@lab holds the phone against its bare serial and the pool, and the other way round', async ({ lab }) => {
  const { engine, phone, dir } = lab!;
  const stateDir = join(dir, 'lease-state');
  const lease = (entries: string[]) => leaseDevices(entries, { engine, stateDir, timeoutMs: 0, defaultPlatform: 'android', log: () => undefined });
  for (const [first, second] of [[`${phone.serial}@lab`, phone.serial], [phone.serial, `${phone.serial}@lab`]]) {
    const held = await lease([first]);
    try {
      assert.equal(held.map((l) => [l.device, l.key]), [[first, `${phone.serial}@lab`]]);
      const again = await lease([second]).catch((e: unknown) => e);
      assert.instance(again, LeaseTimeout, `${second} is the phone ${first} holds`);
      assert.match((again as Error).message, `leased by pid ${process.pid}`);
      const pool = await lease(['any:android']).catch((e: unknown) => e);
      assert.instance(pool, LeaseTimeout, 'the pool has no free phone');
    } finally {
      for (const l of held) l.release();
    }
  }
  const both = await lease([phone.serial, `${phone.serial}@lab`]);
  try {
    assert.equal(both.map((l) => l.device), [phone.serial], 'named twice, leased once');
  } finally {
    for (const l of both) l.release();
  }
});

ids('bridge locks: serial and serial@lab are one lock; a tool call by the other name is refused', async ({ lab }) => {
  const { engine, phone } = lab!;
  const bridge = await startBridge({ engine, host: '127.0.0.1', port: 0, webRoot: '/nonexistent', log: () => undefined });
  const holder = await connectBridge(bridge.wsUrl, { client: 'holder' });
  const other = await connectBridge(bridge.wsUrl, { client: 'other' });
  const named = `${phone.serial}@lab`;
  try {
    const lock = (await holder.requestRaw('devices.lock', { device: named })) as { device?: string; code?: string };
    assert.is(lock.device, phone.serial, JSON.stringify(lock));
    const tap = (await other.callTool('mobile_press_button', { device: named, button: 'HOME' })) as { code?: string; message?: string };
    assert.is(tap.code, 'PERMISSION_DENIED', JSON.stringify(tap));
    const bare = (await other.callTool('mobile_press_button', { device: phone.serial, button: 'HOME' })) as { code?: string };
    assert.is(bare.code, 'PERMISSION_DENIED', JSON.stringify(bare));
    const second = (await other.requestRaw('devices.lock', { device: phone.serial })) as { code?: string };
    assert.is(second.code, 'PERMISSION_DENIED', 'the phone is not locked twice under its two names');
    assert.equal(await holder.requestRaw('devices.unlock', { device: phone.serial }), { device: phone.serial, released: true });
  } finally {
    await holder.close();
    await other.close();
    await bridge.close();
  }
});

ids('scenarios.run on serial@lab: refused under a lock on serial, and runs on the holder\'s lease without ending it', async ({ lab }) => {
  const { engine, phone } = lab!;
  const bridge = await startBridge({ engine, host: '127.0.0.1', port: 0, webRoot: '/nonexistent', log: () => undefined });
  const holder = await connectBridge(bridge.wsUrl, { client: 'holder' });
  const other = await connectBridge(bridge.wsUrl, { client: 'other' });
  const named = `${phone.serial}@lab`;
  const out = mkdtempSync(join(tmpdir(), 'mb-source-ids-run-'));
  try {
    assert.is(((await holder.requestRaw('devices.lock', { device: phone.serial })) as { device?: string }).device, phone.serial);
    const refused = (await other.requestRaw('scenarios.run', { device: named, scenario: SCENARIO, out: join(out, 'other') })) as { code?: string; message?: string };
    assert.is(refused.code, 'PERMISSION_DENIED', JSON.stringify(refused));
    const run = (await holder.requestRaw('scenarios.run', { device: named, scenario: SCENARIO, out: join(out, 'holder') })) as { status?: string; code?: string };
    assert.is(run.status, 'passed', JSON.stringify(run));
    const after = (await other.requestRaw('devices.lock', { device: named })) as { code?: string };
    assert.is(after.code, 'PERMISSION_DENIED', "the holder's lease outlives its run, under both names");
  } finally {
    await holder.close();
    await other.close();
    await bridge.close();
    rmSync(out, { recursive: true, force: true });
  }
});

ids('engine: serial and serial@lab are one device for queueing, activity and fingers', async ({ lab }) => {
  const { engine, phone } = lab!;
  const named = `${phone.serial}@lab`;
  await engine.call('mobile_get_screen_size', { device: phone.serial }, { origin: 'b' });
  await engine.call('mobile_press_button', { device: named, button: 'HOME' }, { origin: 'a' });
  const seen = (await engine.call('mobile_get_screen_size', { device: phone.serial }, { origin: 'b' })) as { others_acted?: { actions: { origin: string; tool: string }[] } };
  assert.equal(seen.others_acted?.actions.map((x) => [x.origin, x.tool]), [['a', 'mobile_press_button']], 'what a did through serial@lab is news to b on serial');
  const down = await engine.touchEvent(named, 'down', { x: 100, y: 100 }, { origin: 'a' });
  try {
    assert.is((down as { status?: string }).status, 'success', JSON.stringify(down));
    assert.is(engine.fingerRefusal(phone.serial, 'b')?.code, 'PERMISSION_DENIED', "a's finger on serial@lab is down on serial");
  } finally {
    await engine.touchEvent(named, 'cancel', { x: 100, y: 100 }, { origin: 'a' });
  }
});

if (hasAdb()) ids.run();
