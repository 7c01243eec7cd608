/** Relays to a real iPhone's ports, with usbmuxd's failures told as tool errors. */
import { ToolError } from '../../../errors.js';
import { phoneGone } from '../go-ios.js';
import { DeviceRelay } from './device-relay.js';
import { findUsbmuxDevice, UsbmuxError, usbmuxdAddress } from './usbmuxd.js';

const USBMUXD_FIX =
  'mobilebridge reaches the iPhone through it, as go-ios does: on macOS it always runs; on Linux install and start usbmuxd ' +
  '(e.g. `sudo apt install usbmuxd`); if it listens elsewhere, set USBMUXD_SOCKET_ADDRESS (unix://<path> or tcp://<host>:<port>)';

/** A usbmuxd failure as the caller should see it. */
export function usbmuxProblem(err: UsbmuxError, label: string): ToolError {
  if (err.kind === 'gone') return phoneGone(label);
  if (err.kind === 'unreachable') return new ToolError('UNSUPPORTED', `${err.message}; ${USBMUXD_FIX}`);
  return new ToolError('INTERNAL', `${label}: ${err.message}`);
}

/**
 * A relay on 127.0.0.1 to `devicePort` of the phone `udid`, as usbmuxd lists it now.
 * `setting`: USBMUXD_SOCKET_ADDRESS's value (the environment's by default).
 */
export async function openPhoneRelay(setting: string | undefined, udid: string, devicePort: number, label: string, signal?: AbortSignal): Promise<DeviceRelay> {
  try {
    const address = usbmuxdAddress(setting);
    const deviceId = await findUsbmuxDevice(address, udid, signal);
    if (deviceId === undefined) throw phoneGone(label);
    return await DeviceRelay.open(address, deviceId, devicePort);
  } catch (err) {
    throw err instanceof UsbmuxError ? usbmuxProblem(err, label) : err;
  }
}
