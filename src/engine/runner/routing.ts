import type { Scenario } from '../../validate/index.js';
import { deviceNotFoundMessage } from '../errors.js';
import type { DeviceLookup } from '../device-ids.js';
import type { DeviceInfo } from '../types.js';

export type ScenarioPlatform = Scenario['platform'];

/** The device a run may use: its id and the platform its scenarios must be for. */
export interface RunDevice {
  id: string;
  os: DeviceInfo['os'];
}

/** Whether a scenario written for `platform` can run on `device`. */
export function canRun(platform: ScenarioPlatform, device: RunDevice): boolean {
  return platform === 'cross-platform' || (platform === 'ios') === (device.os === 'iOS');
}

function usable(d: DeviceInfo): boolean {
  return d.state !== 'offline' && d.state !== 'unauthorized';
}

export type Routing = { ok: true; devices: RunDevice[] } | { ok: false; kind: 'device' | 'usage'; message: string };

/**
 * Which devices a run uses. Named ones (`--device`, `--devices`, resolved as calls resolve ids, so
 * `serial@source` finds a phone listed bare) must all be connected, and every
 * scenario needs at least one of them of its platform; without names, the first usable device of
 * each scenario's platform (a cross-platform scenario takes the first usable device of any).
 */
export function routeScenarios(scenarios: { name: string; platform: ScenarioPlatform }[], lookup: DeviceLookup, named: string[]): Routing {
  const listed = lookup.devices;
  if (named.length) {
    const devices: RunDevice[] = [];
    const keys = new Set<string>();
    for (const id of named) {
      const info = lookup.find(id);
      if (!info) return { ok: false, kind: 'device', message: deviceNotFoundMessage(id, listed.map((d) => d.id)) };
      // `x` and `x@lab` are one phone: two parallel runs on it would fight over its screen.
      const key = lookup.key(id);
      if (keys.has(key)) continue;
      keys.add(key);
      devices.push({ id, os: info.os });
    }
    const orphans = scenarios.filter((s) => !devices.some((d) => canRun(s.platform, d)));
    if (orphans.length) {
      const list = orphans.map((s) => `${s.name} (${s.platform})`).join(', ');
      const have = devices.map((d) => `${d.id} (${d.os})`).join(', ');
      return { ok: false, kind: 'usage', message: `no listed device can run ${list}: the devices given are ${have}; add a device of that platform to --devices, or leave those files out` };
    }
    return { ok: true, devices };
  }
  const devices: RunDevice[] = [];
  for (const s of scenarios) {
    if (devices.some((d) => canRun(s.platform, d))) continue;
    const fit = listed.find((d) => usable(d) && canRun(s.platform, d));
    if (!fit) {
      return { ok: false, kind: 'device', message: `no ${s.platform} device connected for ${s.name} (devices: ${listed.map((d) => `${d.id} (${d.os}${d.state && d.state !== 'ready' ? `, ${d.state}` : ''})`).join(', ') || 'none'}); connect one or pass --device` };
    }
    devices.push({ id: fit.id, os: fit.os });
  }
  return { ok: true, devices };
}
