import type { DeviceInfo } from '../../src/engine/types.js';

/**
 * The page's address with `?device=` naming the device shown, every other parameter (the token,
 * `video=0`) kept: a reload reopens that device rather than the first one, and the address can be
 * sent to a colleague as it stands.
 */
export function addressShowing(href: string, device: string | undefined): string {
  const url = new URL(href);
  if (device) url.searchParams.set('device', device);
  else url.searchParams.delete('device');
  return url.toString();
}

/**
 * The device to open first: the one `?device=` names, else the first ready one. When the named
 * one is not listed the page says so instead of quietly showing another phone.
 */
export function firstDevice(devices: readonly DeviceInfo[], wanted: string | null): { device?: DeviceInfo; missing?: string } {
  const named = wanted ? devices.find((d) => d.id === wanted) : undefined;
  const device = named ?? devices.find((d) => (d.state ?? 'ready') === 'ready');
  if (!wanted || named) return device ? { device } : {};
  const instead = device ? `; showing ${device.id} instead` : '';
  return { ...(device ? { device } : {}), missing: `The address asks for device ${wanted}, which the bridge does not list (not connected, or a typo)${instead}. Choose one from the device list.` };
}
