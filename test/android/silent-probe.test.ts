import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AndroidDriver } from '../../src/engine/drivers/android/android-driver.js';
import { EmulatedPhone } from '../harness/adbd/emulated-phone.js';
import { PrivateAdbServer } from '../harness/adb-server.js';
import { hasAdb } from './setup.js';

/**
 * A phone whose getprop hangs (a frozen phone, a stuck USB link) costs the first listing its probe
 * time; later listings must not wait on it again while that getprop is still outstanding.
 */
test('a phone that does not answer getprop: later listings list it as not responding without asking (and waiting) again, and it is listed ready once it answers', async () => {
  // No engine (and so no hot-plug feed) on this server: the driver's listings are the only getprops.
  const server = await PrivateAdbServer.start();
  const healthy = await EmulatedPhone.start();
  const slow = await EmulatedPhone.start({ slow: { service: /^exec:getprop$/, ms: 4000 } });
  const driver = new AndroidDriver({ port: server.port, uiServer: 'off', probeTimeoutMs: 300 });
  const ctx = () => ({ signal: AbortSignal.timeout(10_000) });
  const stateOf = async () => (await driver.listDevices(ctx())).map((d) => `${d.id} ${d.state}`).sort();
  try {
    await server.connect(healthy.serial);
    await server.connect(slow.serial);
    const getprops = () => slow.stats.opened.filter((s) => s === 'exec:getprop').length;
    const expected = (slowState: string) => [`${healthy.serial} ready`, `${slow.serial} ${slowState}`].sort();
    assert.equal(await stateOf(), expected('offline'));
    assert.is(getprops(), 1);
    assert.equal(await stateOf(), expected('offline'));
    assert.equal(await stateOf(), expected('offline'));
    assert.is(getprops(), 1, 'the listings after the first did not ask the silent phone again while its getprop was outstanding');
    slow.adbd.faults.slow = undefined;
    // Once the first getprop answers (the phone woke up), the next listing asks again and gets an answer.
    const deadline = Date.now() + 10_000;
    let states = await stateOf();
    while (states.join() !== expected('ready').join() && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      states = await stateOf();
    }
    assert.equal(states, expected('ready'));
    assert.is(getprops(), 2);
  } finally {
    await driver.close();
    await server.stop();
    await Promise.all([healthy.close(), slow.close()]);
  }
});

if (hasAdb()) test.run();
