import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import type { DevicesChange } from '../../src/engine/driver.js';
import type { Engine } from '../../src/engine/engine.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import { hasAdb } from '../android/setup.js';
import { PrivateAdbServer } from '../harness/adb-server.js';
import { EmulatedPhone } from '../harness/adbd/emulated-phone.js';

interface Lab {
  a: PrivateAdbServer;
  b: PrivateAdbServer;
  onA: EmulatedPhone;
  onB: EmulatedPhone;
  shared: EmulatedPhone;
  /** Accepts connections and never answers: a source that hangs. */
  blackhole: net.Server;
  engine: Engine;
  changes: DevicesChange[];
}

const lab = suite<{ lab?: Lab; stops: (() => Promise<unknown>)[] }>('several adb servers as device sources', { stops: [] });

lab.before(async (ctx) => {
  const stop = (f: () => Promise<unknown>) => ctx.stops.push(f);
  const [onA, onB, shared] = await Promise.all([EmulatedPhone.start(), EmulatedPhone.start(), EmulatedPhone.start()]);
  stop(() => Promise.all([onA.close(), onB.close(), shared.close()]));
  const a = await PrivateAdbServer.start();
  stop(() => a.stop());
  const b = await PrivateAdbServer.start();
  stop(() => b.stop());
  await Promise.all([a.connect(onA.serial), a.connect(shared.serial), b.connect(onB.serial), b.connect(shared.serial)]);
  const sockets = new Set<net.Socket>();
  const blackhole = net.createServer((s) => sockets.add(s));
  await new Promise<void>((r) => blackhole.listen(0, '127.0.0.1', r));
  stop(() => new Promise((r) => { sockets.forEach((s) => s.destroy()); blackhole.close(r); }));
  const engine = createEngine({
    virtual: false,
    ios: false,
    timeoutMs: 4000,
    sources: {
      adb: [
        { name: 'a', host: '127.0.0.1', port: a.port },
        { name: 'b', host: '127.0.0.1', port: b.port },
        { name: 'hung', host: '127.0.0.1', port: (blackhole.address() as net.AddressInfo).port },
      ],
      wda: [],
      listTimeoutMs: 1500,
      firstRetryMs: 100,
      maxRetryMs: 400,
    },
  });
  const changes: DevicesChange[] = [];
  engine.onDevicesChanged((c) => changes.push(c));
  stop(() => engine.close());
  ctx.lab = { a, b, onA, onB, shared, blackhole, engine, changes };
});

lab.after(async (ctx) => {
  for (const s of ctx.stops.reverse()) await s().catch(() => undefined);
});

const byId = (list: DeviceInfo[]) => new Map(list.map((d) => [d.id, d]));

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

lab('each device carries its source; a serial seen by two servers becomes serial@name', async ({ lab }) => {
  const { engine, onA, onB, shared } = lab!;
  const devices = byId(await engine.listDevices());
  assert.is(devices.get(onA.serial)?.source, 'a');
  assert.is(devices.get(onB.serial)?.source, 'b');
  assert.is(devices.get(`${shared.serial}@a`)?.source, 'a');
  assert.is(devices.get(`${shared.serial}@b`)?.source, 'b');
  assert.not.ok(devices.has(shared.serial), 'the bare clashing id is not listed');
  for (const d of devices.values()) assert.is(d.state, 'ready', JSON.stringify(d));
});

lab('the hung source does not hide the others and is reported with its reason', async ({ lab }) => {
  const sources = (lab!.engine as unknown as { drivers: { status?(): { name: string; ok: boolean; error?: string }[] }[] }).drivers.find((d) => d.status)!.status!();
  const hung = sources.find((s) => s.name === 'hung')!;
  assert.is(hung.ok, false);
  assert.match(hung.error ?? '', /did not finish within 1500 ms/);
  assert.ok(sources.filter((s) => s.name !== 'hung').every((s) => s.ok));
});

lab('calls reach the phone of the named source; a bare clashing id explains the choice', async ({ lab }) => {
  const { engine, shared, onB } = lab!;
  await shared.phone.launchApp('com.mobilebridge.demo', { signal: AbortSignal.timeout(5000) });
  const viaB = (await engine.call('mobile_get_foreground_app', { device: `${shared.serial}@b` })) as { package?: string };
  assert.is(viaB.package, 'com.mobilebridge.demo');
  const size = (await engine.call('mobile_get_screen_size', { device: onB.serial })) as { width?: number };
  assert.ok(size.width && size.width > 0, JSON.stringify(size));
  const bare = (await engine.call('mobile_get_screen_size', { device: shared.serial })) as { code: string; message: string };
  assert.is(bare.code, 'DEVICE_NOT_FOUND');
  assert.match(bare.message, `${shared.serial}@a`);
  assert.match(bare.message, `${shared.serial}@b`);
});

lab('killing one server mid-stream: its calls fail with a code, the other source is unaffected, restart recovers', async ({ lab }) => {
  const { engine, a, b, onA, onB, shared, changes } = lab!;
  // A stream of calls on b's phone while the server goes away.
  let stop = false;
  const outcomes: string[] = [];
  const stream = (async () => {
    while (!stop) {
      const r = (await engine.call('mobile_get_screen_size', { device: onB.serial })) as { code?: string; width?: number };
      outcomes.push(r.code ?? 'ok');
      await new Promise((res) => setTimeout(res, 20));
    }
  })();
  await waitFor('a first successful call', async () => (outcomes.includes('ok') ? true : undefined));
  await b.kill();
  await waitFor('a failed call after the kill', async () => (outcomes.some((o) => o !== 'ok') ? true : undefined));
  stop = true;
  await stream;
  const failures = outcomes.filter((o) => o !== 'ok');
  assert.ok(failures.every((o) => o === 'DEVICE_NOT_FOUND' || o === 'TIMEOUT'), failures.join(','));

  // The other source still answers, and b's phones are listed offline with the reason.
  const ok = (await engine.call('mobile_get_screen_size', { device: onA.serial })) as { width?: number };
  assert.ok(ok.width, JSON.stringify(ok));
  const listed = byId(await engine.listDevices());
  assert.is(listed.get(onA.serial)?.state, 'ready');
  assert.is(listed.get(onB.serial)?.state, 'offline');
  assert.match(listed.get(onB.serial)?.message ?? '', /source b .*unreachable/);

  // Restart: the devices come back by themselves, announced as a change, without anyone listing.
  changes.length = 0;
  await b.restart();
  await Promise.all([b.connect(onB.serial), b.connect(shared.serial)]);
  await waitFor('b\'s phone announced ready again', async () =>
    changes.some((c) => c.added.some((d) => d.id === onB.serial && d.state === 'ready')) ? true : undefined);
  const back = (await engine.call('mobile_get_screen_size', { device: onB.serial })) as { width?: number };
  assert.ok(back.width, JSON.stringify(back));
  void a;
});

if (hasAdb()) lab.run();
