import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AdbDeviceClient } from '../../src/engine/drivers/android/adb-client.js';
import { DeviceShell } from '../../src/engine/drivers/android/device-shell.js';
import { ToolError } from '../../src/engine/errors.js';

/**
 * An adb server exiting after "adb kill-server" closes the streams it carries, and may still take the
 * connection of the check that follows, then drop it unanswered (reset): the server went away, not
 * the device. (The end-to-end case, server-killed.test.ts, meets this only on a loaded machine.)
 */
test('a device check whose connection the exiting server resets says the server went away during the work', async () => {
  const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  const asked = { getState: () => Promise.reject(reset) } as unknown as AdbDeviceClient;
  const shell = new DeviceShell('R58M12345', asked, { host: '127.0.0.1', port: 5037, source: 'the default' }, asked);
  const err = await shell.guard({ signal: new AbortController().signal }, 'listing elements', () => Promise.reject(new Error('unexpected reply from the device'))).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof ToolError);
  assert.is(err.code, 'DEVICE_NOT_FOUND');
  assert.match(err.message, 'the adb server at 127.0.0.1:5037 went away during listing elements on R58M12345', err.message);
});

test.run();
