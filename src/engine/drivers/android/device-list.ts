import type { DeviceInfo } from '../../types.js';
import { ToolError } from '../../errors.js';
import { type AdbEntry, AUTHORIZING_ADVICE, authorizingError, CONNECTING_ADVICE, connectingError, NO_USB_PERMISSION, OFFLINE_ADVICE, offlineError, UNAUTHORIZED_ADVICE, unauthorizedError } from './adb-client.js';
import { parseGetprop } from './shell-output.js';

/**
 * Model from the AVD name for emulators (what users named them), else the marketing model. adb lists a
 * phone as `device` as soon as adbd runs, long before Android has started (an emulator just launched, a
 * phone rebooting): until ActivityManagerService.finishBooting sets sys.boot_completed, pm, am, input and
 * uiautomator fail with messages that point nowhere, so such a phone is listed as booting.
 */
export function infoFromGetprop(serial: string, getprop: string): DeviceInfo {
  const props = parseGetprop(getprop);
  const booted = bootFinished(props);
  return {
    id: serial,
    os: 'Android',
    model: props.get('ro.boot.qemu.avd_name') || props.get('ro.kernel.qemu.avd_name') || props.get('ro.product.model') || 'Android device',
    version: props.get('ro.build.version.release') ?? '',
    state: booted ? 'ready' : 'offline',
    ...(booted ? {} : { message: `booting: ${BOOTING_ADVICE}` }),
  };
}

/**
 * Whether Android has finished starting. The property is absent until then, but its absence says so
 * only where init's property service wrote the listing: init sets init.svc.<name> for every service
 * it starts (adbd's own among them) long before boot completes. A listing without any (a shell that
 * prints a few product properties: a stripped-down build, an emulated device) cannot tell; such a
 * device is used, since refusing every call would make it unusable for good.
 */
function bootFinished(props: Map<string, string>): boolean {
  const completed = props.get('sys.boot_completed');
  if (completed !== undefined) return completed === '1';
  for (const key of props.keys()) if (key.startsWith('init.svc.')) return false;
  return true;
}

const BOOTING_ADVICE = 'Android has not finished starting (sys.boot_completed is not 1 yet); wait until it shows its home screen ("adb shell getprop sys.boot_completed" prints 1)';

/** A call on a phone listed as booting (infoFromGetprop). */
export function bootingError(serial: string): ToolError {
  return new ToolError('DEVICE_NOT_FOUND', `device ${serial} is still booting: ${BOOTING_ADVICE}, then call again`);
}

/** A device the server knows but that cannot be used yet, listed with what the user should do. */
export function unusableInfo(entry: AdbEntry): DeviceInfo {
  const base = { id: entry.id, os: 'Android' as const, model: 'unknown', version: '' };
  if (entry.type === 'unauthorized') return { ...base, state: 'unauthorized', message: `not authorized: ${UNAUTHORIZED_ADVICE}` };
  if (entry.type === 'authorizing') return { ...base, state: 'unauthorized', message: `authorizing: ${AUTHORIZING_ADVICE}` };
  if (isNoPermissions(entry)) return { ...base, state: 'unauthorized', message: NO_PERMISSIONS };
  if (entry.type === 'offline') return { ...base, state: 'offline', message: `offline: ${OFFLINE_ADVICE}` };
  if (entry.type === 'connecting') return { ...base, state: 'offline', message: `connecting: ${CONNECTING_ADVICE}` };
  // transport.cpp kCsDetached: `adb detach` (or ADB_LIBUSB_START_DETACHED) let go of its USB interface on purpose.
  if (entry.type === 'detached') return { ...base, state: 'offline', message: `detached: adb let go of its USB interface (adb detach); run "adb -s ${entry.id} attach" to use it again` };
  if (BOOT_MODES.has(entry.type)) return { ...base, state: 'offline', message: `in ${entry.type} mode, not usable until it boots Android normally` };
  return { ...base, state: 'offline', message: `adb lists it as "${entry.type}", a state it cannot be used in; replug it or run "adb -s ${entry.id} reconnect"` };
}

/**
 * What a call on a device in that state fails with: the same advice as its listing. Besides `device`,
 * adb's states (transport.cpp to_string) are offline, unauthorized, authorizing, connecting, detached,
 * "no permissions (…)", the boot modes bootloader, recovery, rescue, sideload, host, and unknown.
 */
export function unusableError(entry: AdbEntry): ToolError {
  if (entry.type === 'unauthorized') return unauthorizedError(entry.id);
  if (entry.type === 'authorizing') return authorizingError(entry.id);
  if (isNoPermissions(entry)) return new ToolError('PERMISSION_DENIED', `device ${entry.id}: ${NO_PERMISSIONS}`);
  if (entry.type === 'connecting') return connectingError(entry.id);
  if (entry.type === 'offline') return offlineError(entry.id);
  return new ToolError('DEVICE_NOT_FOUND', `device ${entry.id} is ${unusableInfo(entry).message}`);
}

const NO_PERMISSIONS = NO_USB_PERMISSION;
/** transport.cpp to_string's boot modes, where adbd runs outside Android. */
const BOOT_MODES = new Set(['bootloader', 'recovery', 'rescue', 'sideload', 'host']);
/**
 * adb lists a USB device it may not open as "no permissions (<udev problem>); see [<help URL>]"
 * (diagnose_usb.cpp UsbNoPermissionsShortHelpText): the whole text is the state after the tab.
 * A parser that splits on spaces keeps only "no".
 */
export const isNoPermissions = (entry: { type: string }): boolean => /^no permissions\b/.test(entry.type) || entry.type === 'no';
