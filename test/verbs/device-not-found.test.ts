import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/server.js';
import { createEngine } from '../../src/engine/create.js';
import { verbContext, VerbError } from '../../src/engine/verbs/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { deadPort } from '../support/dead-port.js';

/**
 * Audit: list_elements on a missing device named the adb server that did not answer, but a verb,
 * an assertion or recording_start on it only said "connected devices: none". Every
 * DEVICE_NOT_FOUND names the sources that did not answer, since the device may be behind one.
 */

const engineWithDeadAdb = (port: number) => createEngine({ virtual: {}, sources: { adb: [{ name: 'lab', host: '127.0.0.1', port, startServer: false }], wda: [] } });
const SILENT = 'device "emulator-5554" not found; connected devices: virtual-android-1, virtual-ios-1; not answering: source lab: the adb server at 127.0.0.1:';

test('a verb on a device not listed while an adb server does not answer names that server', async () => {
  const engine = engineWithDeadAdb(await deadPort());
  try {
    const err = await verbContext({ engine, device: 'emulator-5554' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.instance(err, VerbError);
    assert.is((err as VerbError).code, 'DEVICE_NOT_FOUND');
    assert.match((err as VerbError).message, SILENT);
  } finally {
    await engine.close();
  }
});

test('with every source answering, the message is unchanged', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const err = (await verbContext({ engine, device: 'emulator-5554' }).catch((e: unknown) => e)) as VerbError;
    assert.is(err.message, 'device "emulator-5554" not found; connected devices: virtual-android-1, virtual-ios-1');
  } finally {
    await engine.close();
  }
});

test('bridge: verbs.run, devices.lock and devices.unlock name the source that does not answer', async () => {
  const bridge = await startBridge({ engine: engineWithDeadAdb(await deadPort()), host: '127.0.0.1', port: 0, log: () => undefined });
  const client = await connectBridge(bridge.wsUrl);
  try {
    await client.request('session.hello', { client: 'test' });
    const calls: [string, Record<string, unknown>][] = [
      ['verbs.run', { device: 'emulator-5554', step: { action: 'tap', target: 'Sign in' } }],
      ['devices.lock', { device: 'emulator-5554' }],
      ['devices.unlock', { device: 'emulator-5554' }],
    ];
    for (const [method, params] of calls) {
      const r = (await client.requestRaw(method, params)) as { code?: string; message?: string; error?: { code: string; message: string } };
      const failure = r.error ?? r;
      assert.is(failure.code, 'DEVICE_NOT_FOUND', `${method}: ${JSON.stringify(r)}`);
      assert.match(String(failure.message), SILENT, method);
    }
  } finally {
    client.close();
    await bridge.close();
  }
});

test.run();
