import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hasAdb, startRig, until } from './setup.js';

/**
 * Another program runs "adb kill-server" while a call waits on the device: the server closes every
 * stream it carries, as a device's end would, so the driver asks what became of the device.
 */
test('the adb server killed during a call: DEVICE_NOT_FOUND saying the server went away, not the device, and no server started to ask', async () => {
  const rig = await startRig();
  const dir = mkdtempSync(join(tmpdir(), 'mb-adb-killed-'));
  const log = join(dir, 'calls.log');
  const adb = join(dir, 'adb');
  // An adb that only notes that it was asked to start a server (and fails, so none is started here).
  writeFileSync(adb, `#!/bin/sh\necho "$*" >> '${log}'\nexit 1\n`);
  chmodSync(adb, 0o755);
  writeFileSync(log, '');
  try {
    const engine = rig.engineWith({ startServer: true, adbBinary: adb }, 8000);
    const call = (tool: string) => engine.call(tool, { device: rig.phone.serial }) as Promise<Record<string, unknown>>;
    assert.equal(await call('mobile_get_screen_size'), { width: 1080, height: 2400 });
    rig.phone.adbd.faults.stall = /uiautomator/;
    rig.phone.stats.reset();
    const listing = call('mobile_list_elements_on_screen');
    await until(() => rig.phone.stats.opened.some((s) => s.includes('uiautomator')), 'the dump to start');
    await rig.server.kill();
    const r = await listing;
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
    assert.match(String(r.message), `the adb server at 127.0.0.1:${rig.server.port} went away during listing elements on ${rig.phone.serial}`);
    assert.match(String(r.message), /may or may not have run/);
    assert.not.match(String(r.message), /nonexistent|reconnect it/);
    assert.is(readFileSync(log, 'utf8'), '', 'asking after the failure started no adb server');
  } finally {
    rig.phone.adbd.faults.stall = undefined;
    await rig.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

if (hasAdb()) test.run();
