import { Socket } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AndroidDriver } from '../../src/engine/drivers/android/android-driver.js';
import { PrivateAdbServer } from '../harness/adb-server.js';
import { EmulatedPhone } from '../harness/adbd/emulated-phone.js';
import { hasAdb, until } from './setup.js';

/**
 * The adb server closes its end after answering `host:devices`; our end must close too. Ended but
 * never read to its EOF, a socket stays open in CLOSE_WAIT, one per device listing (every
 * devices.list, every hot-plug check), until a bridge that ran for days ran out of descriptors.
 */
const openSockets = () => (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().filter((h) => h instanceof Socket && !h.destroyed).length;

test('listing devices again and again leaves no socket to the adb server open', async () => {
  if (!hasAdb()) return;
  const phone = await EmulatedPhone.start();
  const server = await PrivateAdbServer.start().catch(async (err: unknown) => {
    await phone.close();
    throw err;
  });
  const driver = new AndroidDriver({ host: '127.0.0.1', port: server.port, uiServer: 'off' });
  try {
    await server.connect(phone.serial);
    const list = () => driver.listDevices({ signal: new AbortController().signal });
    await list();
    const before = openSockets();
    for (let i = 0; i < 20; i++) assert.equal((await list()).map((d) => d.id), [phone.serial]);
    // The last listing's socket may still be closing; twenty left open is the fault.
    await until(() => openSockets() <= before, 'the listings\' sockets to close').catch(() => undefined);
    assert.ok(openSockets() <= before, `${openSockets() - before} more sockets open after 20 listings`);
  } finally {
    await driver.close();
    await server.stop();
    await phone.close();
  }
});

test.run();
