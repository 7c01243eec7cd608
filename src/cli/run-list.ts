/**
 * `mobilebridge run --list`: what would run where, after tags and the shard, without running.
 * A scenario goes to a device of its platform (cross-platform: any), the way `run` routes it.
 */
import { relative } from 'node:path';
import type { DeviceInfo } from '../engine/types.js';
import type { Scenario } from '../validate/index.js';

export interface ListedRun {
  scenario: string;
  scenario_id: string;
  name: string;
  platform: string;
  tags: string[];
  /** Devices that would take it: one of them runs it. Empty: none of the given devices can. */
  devices: string[];
  parameters: string[];
}

const platformOf = (d: DeviceInfo): string => (d.os === 'iOS' ? 'ios' : 'android');

/**
 * `requested`: the --device / --devices ids, empty when run picks by itself (then the first
 * ready device of each scenario's platform).
 */
export function listRuns(items: { file: string; scenario?: Scenario }[], requested: string[], connected: DeviceInfo[]): ListedRun[] {
  const ready = connected.filter((d) => d.state !== 'offline' && d.state !== 'unauthorized');
  return items.map(({ file, scenario }) => {
    const s = scenario!;
    const fits = (d: DeviceInfo) => s.platform === 'cross-platform' || platformOf(d) === s.platform;
    const known = new Map(connected.map((d) => [d.id, d]));
    // A requested id that is not connected is listed as given: run reports it when it gets there.
    const devices = requested.length ? requested.filter((id) => !known.has(id) || fits(known.get(id)!)) : ready.filter(fits).slice(0, 1).map((d) => d.id);
    const parameters = Object.entries(s.parameters ?? {}).map(([name, p]) => (p.secret ? `${name} (secret)` : name));
    return { scenario: relative(process.cwd(), file) || file, scenario_id: s.scenario_id, name: s.name, platform: s.platform, tags: s.tags ?? [], devices, parameters };
  });
}
