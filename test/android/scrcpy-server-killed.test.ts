import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { ToolError } from '../../src/engine/errors.js';
import { handleOf, hasFfmpeg, take } from './scrcpy-support.js';
import { hasAdb, startRig } from './setup.js';

/**
 * Another program runs "adb kill-server" while a video stream is live: every stream through the server
 * closes as a device's end would. An engine that does not watch devices (the CLI's call) is the one whose
 * stream is not first closed by the hot-plug feed, so it shows what the scrcpy session's own check says.
 */
test('the adb server killed under a live video: DEVICE_NOT_FOUND saying the server went away, no server started, no restart; video again once a server is back', async () => {
  const rig = await startRig();
  const dir = mkdtempSync(join(tmpdir(), 'mb-adb-killed-video-'));
  const log = join(dir, 'calls.log');
  const adb = join(dir, 'adb');
  // An adb that only notes that it was asked to start a server (and fails, so none is started here).
  writeFileSync(adb, `#!/bin/sh\necho "$*" >> '${log}'\nexit 1\n`);
  chmodSync(adb, 0o755);
  writeFileSync(log, '');
  // restartAfterMs 0 stands for a stream that ran long enough to be restarted after an encoder error.
  const engine = createEngine({
    virtual: false, ios: false, watchDevices: false,
    android: { port: rig.server.port, startServer: true, adbBinary: adb, scrcpy: { graceMs: 200, bindTimeoutMs: 1_500, restartAfterMs: 0 } },
  });
  try {
    const handle = await handleOf(rig, engine);
    const video = await handle.openVideo!({ maxSize: 1200, maxFps: 30 });
    const it = video.packets()[Symbol.asyncIterator]();
    await take(it, 2);
    const launches = rig.phone.scrcpy.launches;
    await rig.server.kill();
    const failure = await take(it, 10_000, 10_000).then(() => undefined, (err: unknown) => err);
    assert.instance(failure, ToolError, String(failure));
    const { code, message } = failure as ToolError;
    assert.is(code, 'DEVICE_NOT_FOUND', message);
    assert.match(message, `stopped: the adb server at 127.0.0.1:${rig.server.port} went away`);
    assert.not.match(message, /cause is unknown|restarting failed|free space|disconnected/);
    assert.is(readFileSync(log, 'utf8'), '', 'no adb server was started to ask or to restart the stream');
    assert.is(rig.phone.scrcpy.launches, launches, 'no new scrcpy-server was started');
    await video.close();

    await rig.server.restart();
    await rig.server.connect(rig.phone.serial);
    const again = await handle.openVideo!({ maxSize: 1200, maxFps: 30 });
    try {
      await take(again, 2);
    } finally {
      await again.close();
    }
  } finally {
    await engine.close();
    await rig.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

if (hasAdb() && hasFfmpeg()) test.run();
