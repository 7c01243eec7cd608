import type { DeviceInfo } from '../../types.js';
import { type AdbEntry, OFFLINE_ADVICE, UNAUTHORIZED_ADVICE } from './adb-client.js';
import { parseGetprop } from './shell-output.js';

/** Model from the AVD name for emulators (what users named them), else the marketing model. */
export function infoFromGetprop(serial: string, getprop: string): DeviceInfo {
  const props = parseGetprop(getprop);
  return {
    id: serial,
    os: 'Android',
    model: props.get('ro.boot.qemu.avd_name') || props.get('ro.kernel.qemu.avd_name') || props.get('ro.product.model') || 'Android device',
    version: props.get('ro.build.version.release') ?? '',
    state: 'ready',
  };
}

/** A device the server knows but that cannot be used yet, listed with what the user should do. */
export function unusableInfo(entry: AdbEntry): DeviceInfo {
  const base = { id: entry.id, os: 'Android' as const, model: 'unknown', version: '' };
  if (entry.type === 'unauthorized') return { ...base, state: 'unauthorized', message: `not authorized: ${UNAUTHORIZED_ADVICE}` };
  if (entry.type === 'no permissions' || entry.type === 'no') {
    return { ...base, state: 'unauthorized', message: 'no permission to open the USB device: add a udev rule for it (see developer.android.com/studio/run/device) and replug' };
  }
  if (entry.type === 'offline') return { ...base, state: 'offline', message: `offline: ${OFFLINE_ADVICE}` };
  return { ...base, state: 'offline', message: `in ${entry.type} mode, not usable until it boots Android normally` };
}
