import { ToolError } from '../../../errors.js';
import { adbRefusal, noServerThere, type AdbDeviceClient } from '../adb-client.js';

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

/** How the device's state is asked after its streams closed: through a client that never starts an adb server. */
export interface StateCheck {
  device: AdbDeviceClient;
  /** host:port of that server, for the message when it went away. */
  server: string;
}

/** What became of a device whose streams closed: adb's reason it is gone, or no adb server answering at all. */
export type Absence = { device: string } | { server: string };

/**
 * Asks the adb server whether the device is still usable: undefined when it is (get-state answers "device"),
 * or when the server does not say in time; { device: adb's reason } when it is not ("device offline",
 * "device '…' not found", "device unauthorized"); { server } when no server answers at all (another program's
 * "adb kill-server", a crash), which closes every stream as a device's end would. The check never starts a
 * server: one started now would not know the device yet, and the user's kill-server would be undone.
 */
export async function deviceGone(check: StateCheck, ms = STATE_CHECK_MS): Promise<Absence | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  // get-state answers "device" or FAILs with adb's reason for every other state (adbkit: "Failure: 'device offline'").
  const asked = Promise.resolve(check.device.getState()).then(
    (state): Absence | undefined => (String(state) === 'device' ? undefined : { device: String(state) }),
    (refusal: unknown): Absence | undefined => {
      if (noServerThere(refusal)) return { server: check.server };
      // Another system error (ECONNRESET…) is the link to the server, not the device.
      if ((refusal as NodeJS.ErrnoException | undefined)?.code) return undefined;
      return { device: adbRefusal(refusal).replace(/\.$/, '') || 'gone' };
    },
  );
  try {
    return await Promise.race([asked, silent]);
  } finally {
    clearTimeout(timer);
  }
}

/** Why the streams closed, for the session's end reason. */
export function absenceReason(absence: Absence): string {
  if ('device' in absence) return `the device disconnected (adb: ${absence.device})`;
  return `the adb server at ${absence.server} went away (stopped by "adb kill-server" from another program, or crashed); once a server runs again ("adb start-server"), list devices and open the video again`;
}

/** The reason a device that went away gives its viewers and callers. */
export function disconnectedError(serial: string, adbSays: string, what: string): ToolError {
  return new ToolError('DEVICE_NOT_FOUND', `${serial} disconnected ${what} (adb: ${adbSays}); reconnect it and list devices again`);
}
