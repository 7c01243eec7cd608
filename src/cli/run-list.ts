/**
 * `mobilebridge run --list`: what would run where, after tags and the shard, without running.
 * The devices come from the run's own routing (routeScenarios), so the list and the run agree.
 */
import { relative } from 'node:path';
import { canRun, routeScenarios, type RunDevice } from '../engine/runner/index.js';
import { isLeaseRequest } from '../engine/leases/index.js';
import type { DeviceLookup } from '../engine/engine.js';
import type { Scenario } from '../validate/index.js';

export interface ListedRun {
  scenario: string;
  scenario_id: string;
  name: string;
  platform: string;
  tags: string[];
  /**
   * Devices that would take it: each device takes the next scenario of its platform when it is
   * free, so with several, which one runs it is decided during the run. Empty: none can.
   */
  devices: string[];
  parameters: string[];
}

export interface RunPlan {
  runs: ListedRun[];
  /** Why the run would refuse to start for want of devices, and the exit code it would give. */
  refusal?: { message: string; kind: 'device' | 'usage' };
}

const nameOf = (file: string): string => relative(process.cwd(), file) || file;

/**
 * `requested`: the --device / --devices ids, empty when run picks by itself (then the first
 * usable device of each scenario's platform). Lease requests ("any:android") are shown as given:
 * which device a lease gets is known only when the run takes it.
 */
export function listRuns(items: { file: string; scenario?: Scenario }[], requested: string[], connected: DeviceLookup): RunPlan {
  let devices: RunDevice[] = [];
  let refusal: RunPlan['refusal'];
  if (requested.some(isLeaseRequest)) {
    devices = requested.map((id) => ({ id, os: connected.find(id)?.os ?? 'Android' }));
  } else {
    const routing = routeScenarios(items.map((i) => ({ name: nameOf(i.file), platform: i.scenario!.platform })), connected, requested);
    if (routing.ok) devices = routing.devices;
    else refusal = { message: routing.message, kind: routing.kind };
  }
  const runs = items.map(({ file, scenario }) => {
    const s = scenario!;
    const takers = requested.some(isLeaseRequest) ? devices.map((d) => d.id) : devices.filter((d) => canRun(s.platform, d)).map((d) => d.id);
    const parameters = Object.entries(s.parameters ?? {}).map(([name, p]) => (p.secret ? `${name} (secret)` : name));
    return { scenario: nameOf(file), scenario_id: s.scenario_id, name: s.name, platform: s.platform, tags: s.tags ?? [], devices: takers, parameters };
  });
  return { runs, refusal };
}
