import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AndroidDriver } from '../../src/engine/drivers/android/android-driver.js';
import { ToolError } from '../../src/engine/errors.js';
import { unusedPort } from '../support/dead-port.js';
import { systemTool } from '../support/system-tools.js';

/**
 * With no adb server running, the first listing starts one, as the adb CLI does. A listing and the
 * hot-plug feed connect at the same moment; each used to run its own `adb start-server`, the two
 * raced for the port and the loser's "ADB server didn't ACK" made `mobilebridge devices` say the
 * server was unreachable while the winner's was up.
 */
const adb = systemTool('adb', 'starting an adb server is checked with the real adb');

/** The real adb, logging each run, with its own HOME so that no key of the user's is read or made; on a free port. */
async function loggedAdb(adbPath: string) {
  const dir = mkdtempSync(join(tmpdir(), 'mb-adb-start-'));
  const log = join(dir, 'calls.log');
  const wrapper = join(dir, 'adb');
  writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nHOME='${dir}' TMPDIR='${dir}' exec '${adbPath}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  writeFileSync(log, '');
  return { dir, log, wrapper, port: await unusedPort() };
}

test('connections that find no adb server start one server, once, and all of them get through', async () => {
  if (!adb) return;
  const { dir, log, wrapper, port } = await loggedAdb(adb);
  const driver = new AndroidDriver({ host: '127.0.0.1', port, startServer: true, adbBinary: wrapper, reportUnreachable: true, uiServer: 'off' });
  try {
    const ctx = { signal: AbortSignal.timeout(30_000) };
    const listings = await Promise.allSettled([driver.listDevices(ctx), driver.listDevices(ctx), driver.listDevices(ctx), driver.listDevices(ctx)]);
    const failed = listings.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
    assert.equal(failed, [], 'every listing reaches the server that was started');
    const starts = readFileSync(log, 'utf8').split('\n').filter((line) => line.endsWith('start-server'));
    assert.equal(starts, [`-P ${port} start-server`], 'one start-server for the four connections');
  } finally {
    await driver.close();
    await new Promise((r) => execFile(wrapper, ['-P', String(port), 'kill-server'], r));
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a server the user killed (adb kill-server) is not brought back by the hot-plug feed; the next listing starts one', async () => {
  if (!adb) return;
  const { dir, log, wrapper, port } = await loggedAdb(adb);
  const driver = new AndroidDriver({ host: '127.0.0.1', port, startServer: true, adbBinary: wrapper, reportUnreachable: true, uiServer: 'off' });
  const starts = () => readFileSync(log, 'utf8').split('\n').filter((line) => line.endsWith('start-server')).length;
  const stopWatching = driver.watch(() => undefined);
  try {
    const ctx = { signal: AbortSignal.timeout(30_000) };
    await driver.listDevices(ctx);
    assert.is(starts(), 1);
    await new Promise((r) => execFile(wrapper, ['-P', String(port), 'kill-server'], r));
    // The feed retries within a few hundred ms; give it several tries.
    await new Promise((r) => setTimeout(r, 1500));
    assert.is(starts(), 1, 'the feed did not start the killed server again');
    await driver.listDevices(ctx);
    assert.is(starts(), 2, 'a listing does, as the adb CLI would');
  } finally {
    stopWatching();
    await driver.close();
    await new Promise((r) => execFile(wrapper, ['-P', String(port), 'kill-server'], r));
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an adb that cannot start a server: the listing says so, with what to do', async () => {
  const port = await unusedPort();
  const driver = new AndroidDriver({ host: '127.0.0.1', port, startServer: true, adbBinary: '/nonexistent-mobilebridge/adb', reportUnreachable: true, uiServer: 'off' });
  try {
    const err = await driver.listDevices({ signal: AbortSignal.timeout(10_000) }).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof ToolError, `a ToolError, got ${String(err)}`);
    assert.is(err.code, 'DEVICE_NOT_FOUND');
    assert.match(err.message, new RegExp(`adb server at 127\\.0\\.0\\.1:${port} .*is not reachable`));
    assert.match(err.message, /adb start-server/);
  } finally {
    await driver.close();
  }
});

test('an adb whose server fails to start: the listing gives adb\'s reasons, not its start-up log', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-adb-start-'));
  const port = await unusedPort();
  // What adb 1.0.41 prints when its server cannot bind (adb/client/main.cpp, adb_utils logging).
  const failing = join(dir, 'adb');
  const output = [
    '* daemon not running; starting now at tcp:' + port,
    "ADB server didn't ACK",
    'Full server startup log: /tmp/adb.0.log',
    'adb I 11-28 04:09:03 28848 28848 main.cpp:60] Android Debug Bridge version 1.0.41',
    'adb F 11-28 04:09:03 28848 28848 main.cpp:144] could not install *smartsocket* listener: Address already in use',
    '* failed to start daemon',
    'error: cannot connect to daemon',
  ].join('\n');
  writeFileSync(failing, `#!/bin/sh\ncat >&2 <<'EOF'\n${output}\nEOF\nexit 1\n`);
  chmodSync(failing, 0o755);
  const driver = new AndroidDriver({ host: '127.0.0.1', port, startServer: true, adbBinary: failing, reportUnreachable: true, uiServer: 'off' });
  try {
    const err = await driver.listDevices({ signal: AbortSignal.timeout(10_000) }).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof ToolError, `a ToolError, got ${String(err)}`);
    assert.match(err.message, /`adb start-server` failed: could not install \*smartsocket\* listener: Address already in use; cannot connect to daemon\)/);
    assert.not.match(err.message, /main\.cpp|Android Debug Bridge version/);
  } finally {
    await driver.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
