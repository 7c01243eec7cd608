import type { DevicesChange } from '../engine/driver.js';
import type { DeviceInfo } from '../engine/types.js';
import type { GoneDevice } from '../protocol/notifications.js';

/** Whether a listed device can be driven (an offline or unauthorized one is listed but not usable). */
export function usable(device: DeviceInfo): boolean {
  return device.state === undefined || device.state === 'ready';
}

/**
 * Devices that stopped being usable in this change, with their new state and why: a device still
 * listed but not usable (offline, unauthorized) comes as removed + added; one gone from the list is `removed`.
 */
export function goneDevices(change: DevicesChange): GoneDevice[] {
  return change.removed.flatMap((id): GoneDevice[] => {
    const relisted = change.added.find((d) => d.id === id);
    // A clash that starts or ends renames a device (id ↔ id@peer, DeviceIds.changed): the phone is still there.
    const renamed = change.added.filter((d) => d.id.startsWith(`${id}@`) || id.startsWith(`${d.id}@`)).map((d) => d.id);
    if (!relisted && renamed.length) return [{ id, state: 'removed', reason: `device ${id} is listed as ${renamed.join(' or ')} now (another source reports the same id, or stopped doing so): use that id` }];
    if (!relisted) return [{ id, state: 'removed', reason: `device ${id} was disconnected or its connection (adb server, WebDriverAgent) was lost` }];
    if (usable(relisted)) return [];
    return [{ id, state: relisted.state === 'ready' || !relisted.state ? 'offline' : relisted.state, reason: `device ${id} is ${relisted.state}${relisted.message ? `: ${relisted.message}` : ''}` }];
  });
}
