import { ToolError } from '../../../errors.js';
import { adbRefusal, type AdbDeviceClient } from '../adb-client.js';

/** How long the adb server may take to say whether the device is still there; its silence says nothing. */
const STATE_CHECK_MS = 1_000;

/**
 * adb's refusals for a device it can no longer reach (transport.cpp acquire_one_transport): "device offline",
 * "device '<serial>' not found" (adb before 1.0.36: "device not found"), "no devices/emulators found".
 */
const DISCONNECTED = /device offline|device '[^']*' not found|device not found|no devices(?:\/emulators)? found/i;

/** adb's words when `err` says the device is offline or gone ("device offline"), else undefined. */
export function disconnection(err: unknown): string | undefined {
  const message = err instanceof Error ? err.message : String(err);
  return DISCONNECTED.exec(message)?.[0];
}

/**
 * Asks the adb server whether the device is still usable: undefined when it is (get-state answers "device"),
 * or when the server does not say (no answer in time, not reachable); otherwise adb's reason
 * ("device offline", "device '…' not found", "device unauthorized").
 */
export async function deviceGone(device: AdbDeviceClient, ms = STATE_CHECK_MS): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  // get-state answers "device" or FAILs with adb's reason for every other state (adbkit: "Failure: 'device offline'").
  const asked = Promise.resolve(device.getState()).then(
    (state) => (String(state) === 'device' ? undefined : String(state)),
    (refusal: unknown) => {
      // A system error (ECONNREFUSED…) is the adb server, not the device.
      if ((refusal as NodeJS.ErrnoException | undefined)?.code) return undefined;
      return adbRefusal(refusal).replace(/\.$/, '') || 'gone';
    },
  );
  try {
    return await Promise.race([asked, silent]);
  } finally {
    clearTimeout(timer);
  }
}

/** The reason a device that went away gives its viewers and callers. */
export function disconnectedError(serial: string, adbSays: string, what: string): ToolError {
  return new ToolError('DEVICE_NOT_FOUND', `${serial} disconnected ${what} (adb: ${adbSays}); reconnect it and list devices again`);
}
