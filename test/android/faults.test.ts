import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import type { DevicesChange } from '../../src/engine/driver.js';
import { EmulatedPhone } from '../harness/adbd/emulated-phone.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

const faults = suite<{ rig?: AndroidRig; extra: EmulatedPhone[] }>('android faults, hot-plug and adb server restarts', { extra: [] });

faults.before(async (ctx) => {
  ctx.rig = await startRig();
});
faults.after(async (ctx) => {
  await ctx.rig?.stop();
  await Promise.all(ctx.extra.map((p) => p.close()));
});

function waitFor(changes: DevicesChange[], test: (c: DevicesChange) => boolean, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = () => {
      if (changes.some(test)) return resolve();
      if (Date.now() - started > 20_000) return reject(new Error(`no devices.changed event: ${what}; got ${JSON.stringify(changes)}`));
      setTimeout(poll, 25);
    };
    poll();
  });
}

/**
 * Resolves once no devices.changed event has come for `quietMs`: longer than the tracker's 1 s poll,
 * so a change from an earlier test (a reconnect the feed reports late) has arrived by then.
 */
function quiet(changes: DevicesChange[], quietMs = 2_500): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let seen = changes.length;
    let since = started;
    const poll = () => {
      if (changes.length !== seen) [seen, since] = [changes.length, Date.now()];
      if (Date.now() - since >= quietMs) return resolve();
      if (Date.now() - started > 20_000) return reject(new Error(`devices.changed never settled: ${JSON.stringify(changes)}`));
      setTimeout(poll, 25);
    };
    poll();
  });
}

faults('a stalled device gives TIMEOUT, and the device keeps working afterwards', async ({ rig }) => {
  const engine = rig!.engineWith({}, 1500);
  rig!.phone.adbd.faults.stall = /uiautomator/;
  try {
    const r = (await engine.call('mobile_list_elements_on_screen', { device: rig!.phone.serial })) as { code: string };
    assert.is(r.code, 'TIMEOUT');
  } finally {
    rig!.phone.adbd.faults.stall = undefined;
  }
  assert.ok(Array.isArray(((await engine.call('mobile_list_elements_on_screen', { device: rig!.phone.serial })) as { elements: unknown[] }).elements));
});

faults('a refused service is an error naming the device, not a hang', async ({ rig }) => {
  rig!.phone.adbd.faults.refuse = /dumpsys activity/;
  try {
    const r = (await rig!.call('mobile_get_foreground_app')) as { status: string; code: string; message: string };
    assert.is(r.status, 'error');
    assert.match(r.message, rig!.phone.serial);
    // adb's FAIL "closed" is the device closing a service it does not offer: it is still connected.
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message, 'refused reading the foreground app: adb answered "closed"');
    assert.not.match(r.message, /check that the device is still connected/);
  } finally {
    rig!.phone.adbd.faults.refuse = undefined;
  }
});

faults('a connection dropped mid-call gives DEVICE_NOT_FOUND or TIMEOUT; reconnecting recovers', async ({ rig }) => {
  const engine = rig!.engineWith({}, 8000);
  rig!.phone.adbd.faults.drop = /uiautomator/;
  try {
    const r = (await engine.call('mobile_list_elements_on_screen', { device: rig!.phone.serial })) as { code: string };
    assert.ok(['DEVICE_NOT_FOUND', 'TIMEOUT'].includes(r.code), JSON.stringify(r));
  } finally {
    rig!.phone.adbd.faults.drop = undefined;
  }
  await rig!.server.disconnect(rig!.phone.serial);
  await rig!.server.connect(rig!.phone.serial);
  assert.equal(await engine.call('mobile_get_screen_size', { device: rig!.phone.serial }), { width: 1080, height: 2400 });
});

faults('a device lost while a command that prints nothing runs (input text): not success, since exec: has no exit status and the stream just ends', async ({ rig }) => {
  const engine = rig!.engineWith({}, 8000);
  const call = (tool: string, params: object) => engine.call(tool, { device: rig!.phone.serial, ...params }) as Promise<Record<string, unknown>>;
  await call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const email = ((await call('mobile_list_elements_on_screen', {})).elements as { id: string; center: object }[]).find((e) => e.id === 'email')!;
  await call('mobile_click_on_screen_at_coordinates', email.center);
  // A text with a quote goes through `input text` (monkey's line splitting would lose it), which prints nothing.
  rig!.phone.adbd.faults.cut = /input text/;
  try {
    const r = await call('mobile_type_keys', { text: 'say "hi"' });
    assert.is(r.status, 'error', JSON.stringify(r));
    assert.match(String(r.message), /disconnected during typing .*may or may not have run/);
    // adb's own reason (get-state FAILs for every state but "device"), not a made-up state.
    assert.match(String(r.message), /\(adb: (device offline|device '[^']+' not found)\)/);
  } finally {
    rig!.phone.adbd.faults.cut = undefined;
  }
  await rig!.server.disconnect(rig!.phone.serial);
  await rig!.server.connect(rig!.phone.serial);
  assert.equal(await engine.call('mobile_get_screen_size', { device: rig!.phone.serial }), { width: 1080, height: 2400 });
});

faults('a device lost after a command printed part of its output (pm path, then the cable pulled before am force-stop): not "terminated"', async ({ rig }) => {
  const engine = rig!.engineWith({}, 8000);
  const call = (tool: string, params: object) => engine.call(tool, { device: rig!.phone.serial, ...params }) as Promise<Record<string, unknown>>;
  await call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  rig!.phone.adbd.faults.cutAfter = { service: /am force-stop/, output: 'package:/data/app/~~x/com.mobilebridge.demo-1/base.apk\n' };
  try {
    const r = await call('mobile_terminate_app', { packageName: 'com.mobilebridge.demo' });
    assert.is(r.status, 'error', JSON.stringify(r));
    assert.match(String(r.message), /may or may not have run/);
    assert.is(rig!.phone.phone.foregroundPackage, 'com.mobilebridge.demo', 'the app still runs');
  } finally {
    rig!.phone.adbd.faults.cutAfter = undefined;
  }
  await rig!.server.disconnect(rig!.phone.serial);
  await rig!.server.connect(rig!.phone.serial);
  assert.equal(await engine.call('mobile_get_screen_size', { device: rig!.phone.serial }), { width: 1080, height: 2400 });
});

faults('a phone that answers slowly (getprop after 3.5 s): listed as not responding within the listing\'s probe time, but usable within a call\'s deadline', async ({ rig }) => {
  rig!.phone.adbd.faults.slow = { service: /^exec:getprop$/, ms: 3500 };
  try {
    const engine = rig!.engineWith({}, 15_000);
    const { devices } = (await engine.call('mobile_list_available_devices', {})) as { devices: { id: string; state: string; message?: string }[] };
    assert.match(String(devices.find((d) => d.id === rig!.phone.serial)?.message), /did not answer within 3000 ms/);
    const size = await engine.call('mobile_get_screen_size', { device: rig!.phone.serial });
    assert.equal(size, { width: 1080, height: 2400 });
  } finally {
    rig!.phone.adbd.faults.slow = undefined;
  }
});

faults('unauthorized devices are listed with advice; calls are PERMISSION_DENIED', async ({ rig, extra }) => {
  const locked = await EmulatedPhone.start({ unauthorized: true });
  extra.push(locked);
  await rig!.server.adb(['connect', locked.serial]);
  await rig!.server.waitForState(locked.serial, 'unauthorized');
  const { devices } = (await rig!.engine.call('mobile_list_available_devices', {})) as { devices: { id: string; state: string; message: string }[] };
  const entry = devices.find((d) => d.id === locked.serial);
  assert.is(entry?.state, 'unauthorized');
  assert.match(entry!.message, /Allow USB debugging/);
  const r = (await rig!.engine.call('mobile_get_screen_size', { device: locked.serial })) as { code: string; message: string };
  assert.is(r.code, 'PERMISSION_DENIED');
  assert.match(r.message, /Allow USB debugging/);
  await rig!.server.disconnect(locked.serial);
});

faults('a device stuck authorizing (adb: "device still authorizing") is listed and refused as not authorized yet, not as a boot mode or offline', async ({ rig, extra }) => {
  const stuck = await EmulatedPhone.start({ authorizing: true });
  extra.push(stuck);
  await rig!.server.adb(['connect', stuck.serial]);
  await rig!.server.waitForState(stuck.serial, 'authorizing');
  const { devices } = (await rig!.engine.call('mobile_list_available_devices', {})) as { devices: { id: string; state: string; message: string }[] };
  const entry = devices.find((d) => d.id === stuck.serial);
  assert.is(entry?.state, 'unauthorized');
  assert.match(entry!.message, /authorizing: .*Allow USB debugging/);
  assert.not.match(entry!.message, /boots Android/);
  const r = (await rig!.engine.call('mobile_get_screen_size', { device: stuck.serial })) as { code: string; message: string };
  assert.is(r.code, 'PERMISSION_DENIED');
  assert.match(r.message, /not authorized yet/);
  await rig!.server.disconnect(stuck.serial);
});

faults('hot-plug: a connected and a removed device reach devices.changed', async ({ rig, extra }) => {
  const changes: DevicesChange[] = [];
  const off = rig!.engine.onDevicesChanged((c) => changes.push(c));
  try {
    const second = await EmulatedPhone.start();
    extra.push(second);
    await rig!.server.connect(second.serial);
    await waitFor(changes, (c) => c.added.some((d) => d.id === second.serial && d.model === 'Virtual Pixel 8'), 'second phone added');
    await rig!.server.disconnect(second.serial);
    await waitFor(changes, (c) => c.removed.includes(second.serial), 'second phone removed');
  } finally {
    off();
  }
});

faults('adb server restart: devices are removed, then come back once the new server has them', async ({ rig }) => {
  const changes: DevicesChange[] = [];
  const off = rig!.engine.onDevicesChanged((c) => changes.push(c));
  try {
    // Drained until quiet instead of waiting up to 20 s for a first event, which an engine that has
    // listed its devices long before does not send.
    await quiet(changes);
    changes.length = 0;
    await rig!.server.kill();
    await waitFor(changes, (c) => c.removed.includes(rig!.phone.serial), 'removed when the server died');
    await rig!.server.restart();
    await rig!.server.connect(rig!.phone.serial);
    await waitFor(changes, (c) => c.added.some((d) => d.id === rig!.phone.serial), 'added after the restart');
    assert.equal(await rig!.call('mobile_get_screen_size'), { width: 1080, height: 2400 });
  } finally {
    off();
  }
});

faults('no adb server: no Android devices, no error, and no server started', async () => {
  const probe = net.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  const engine = createEngine({ virtual: false, ios: false, android: { port } });
  try {
    assert.equal(await engine.call('mobile_list_available_devices', {}), { devices: [] });
    const r = (await engine.call('mobile_get_screen_size', { device: 'emulator-5554' })) as { code: string };
    assert.is(r.code, 'DEVICE_NOT_FOUND');
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(false)));
      s.once('error', () => resolve(true));
    });
    assert.ok(refused, 'nothing listens on the port afterwards: no adb server was spawned');
  } finally {
    await engine.close();
  }
});

if (hasAdb()) faults.run();
