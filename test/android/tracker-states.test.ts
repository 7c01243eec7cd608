import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { DevicesChange } from '../../src/engine/driver.js';
import { AndroidDriver } from '../../src/engine/drivers/android/android-driver.js';
import { PrivateAdbServer } from '../harness/adb-server.js';
import { EmulatedPhone } from '../harness/adbd/emulated-phone.js';
import { ScriptedAdbServer } from '../harness/scripted-adb-server.js';
import { systemTool } from '../support/system-tools.js';

/** The hot-plug feed in states the adb server's own feed does not report. */
const adb = systemTool('adb', 'the device that answers late is checked through the real adb server');

async function changeWhere(changes: DevicesChange[], wanted: (c: DevicesChange) => boolean, ms: number, what: string): Promise<DevicesChange> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = changes.find(wanted);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no devices change ${what} within ${ms} ms: ${JSON.stringify(changes)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('an adb server that stops answering while its feed stays open (a frozen host, a dropped route): its devices are reported gone, without anyone listing', async () => {
  let frozen = false;
  const server = await new ScriptedAdbServer((request) => {
    if (frozen) return 'silent';
    if (request === 'host:track-devices' || request === 'host:devices') return { okay: 'SER1\tdevice\n' };
    return { fail: 'device offline' };
  }).start();
  const driver = new AndroidDriver({ host: '127.0.0.1', port: server.port, uiServer: 'off' });
  const changes: DevicesChange[] = [];
  const stop = driver.watch((c) => changes.push(c));
  try {
    await changeWhere(changes, (c) => c.added.some((d) => d.id === 'SER1'), 5000, 'adding SER1');
    frozen = true;
    await changeWhere(changes, (c) => c.removed.includes('SER1'), 9000, 'removing SER1 once a poll went unanswered');
  } finally {
    stop();
    await driver.close();
    await server.stop();
  }
});

test('a phone that did not answer getprop when it appeared (booting, busy) is announced again once it does', async () => {
  if (!adb) return;
  const phone = await EmulatedPhone.start();
  const server = await PrivateAdbServer.start();
  const driver = new AndroidDriver({ host: '127.0.0.1', port: server.port, uiServer: 'off', probeTimeoutMs: 500 });
  const changes: DevicesChange[] = [];
  const stop = driver.watch((c) => changes.push(c));
  try {
    phone.adbd.faults.slow = { service: /^exec:getprop$/, ms: 5_000 };
    await server.connect(phone.serial);
    const first = await changeWhere(changes, (c) => c.added.some((d) => d.id === phone.serial), 8000, 'adding the phone');
    assert.is(first.added.find((d) => d.id === phone.serial)?.state, 'offline');
    phone.adbd.faults.slow = undefined;
    const again = await changeWhere(changes, (c) => c.added.some((d) => d.id === phone.serial && d.state === 'ready'), 8000, 'the phone ready');
    assert.ok(again.removed.includes(phone.serial), 'announced as a change of the same device');
  } finally {
    stop();
    await driver.close();
    await server.stop();
    await phone.close();
  }
});

test.run();
