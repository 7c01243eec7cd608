import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { DevicesChange } from '../../src/engine/driver.js';
import { hasAdb, startRig } from './setup.js';

/**
 * A phone adb lists as `device` while Android still starts (an emulator just launched, a phone
 * rebooting): adbd answers getprop, but sys.boot_completed is not set yet.
 */
test('a phone still booting is listed as booting and refused with what to wait for; once booted it is announced ready and works', async () => {
  const rig = await startRig();
  rig.phone.shell.quirks.booting = true;
  // Made after the phone boots, so that its hot-plug feed first sees it booting.
  const engine = rig.engineWith({});
  const call = (tool: string) => engine.call(tool, { device: rig.phone.serial }) as Promise<Record<string, unknown>>;
  const changes: DevicesChange[] = [];
  const off = engine.onDevicesChanged((c) => changes.push(c));
  try {
    const { devices } = (await engine.call('mobile_list_available_devices', {})) as { devices: { id: string; state: string; message?: string; model: string }[] };
    const listed = devices.find((d) => d.id === rig.phone.serial);
    assert.is(listed?.state, 'offline', JSON.stringify(devices));
    assert.match(listed!.message ?? '', /^booting: .*sys\.boot_completed/);
    assert.is(listed!.model, 'Virtual Pixel 8', 'what getprop told is still listed');
    const refused = await call('mobile_get_screen_size');
    assert.is(refused.code, 'DEVICE_NOT_FOUND', JSON.stringify(refused));
    assert.match(String(refused.message), `device ${rig.phone.serial} is still booting`);
    assert.match(String(refused.message), /then call again$/);

    changes.length = 0;
    rig.phone.shell.quirks.booting = false;
    const deadline = Date.now() + 8000;
    while (!changes.some((c) => c.added.some((d) => d.id === rig.phone.serial && d.state === 'ready'))) {
      if (Date.now() > deadline) throw new Error(`not announced ready once booted: ${JSON.stringify(changes)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(await call('mobile_get_screen_size'), { width: 1080, height: 2400 });
  } finally {
    off();
    await rig.stop();
  }
});

test('a getprop without init\'s properties (a stripped-down or emulated device) cannot say the phone boots: it is listed ready and used', async () => {
  const rig = await startRig();
  rig.phone.shell.quirks.bareGetprop = true;
  const engine = rig.engineWith({});
  try {
    const { devices } = (await engine.call('mobile_list_available_devices', {})) as { devices: { id: string; state: string; message?: string }[] };
    assert.equal(devices.find((d) => d.id === rig.phone.serial), { id: rig.phone.serial, os: 'Android', model: 'Virtual Pixel 8', version: '14', state: 'ready', source: 'android' });
    assert.equal(await engine.call('mobile_get_screen_size', { device: rig.phone.serial }), { width: 1080, height: 2400 });
  } finally {
    await rig.stop();
  }
});

if (hasAdb()) test.run();
