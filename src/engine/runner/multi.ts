import { canRun, type RunDevice } from './routing.js';
import { runScenario } from './scenario-runner.js';
import type { RunOptions, RunResult } from './types.js';

export interface PlannedRun {
  /** Display name (the scenario file). */
  name: string;
  options: Omit<RunOptions, 'device' | 'engine' | 'outDir'>;
}

/** `--shard i/n`: this process takes every n-th scenario starting at i (1-based), in sorted order. */
export function shard<T>(items: T[], index: number, count: number): T[] {
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(index) || index < 1 || index > count) {
    throw new Error(`--shard must be i/n with 1 ≤ i ≤ n (got ${index}/${count})`);
  }
  return items.filter((_, k) => k % count === index - 1);
}

/**
 * Runs scenarios over several devices in parallel: each device takes the next scenario of its
 * platform as soon as it is free, so a slow scenario does not hold the others up. A scenario no
 * device can run is left out (routeScenarios refuses such a plan first). Results come back in
 * input order; after a cancel, scenarios not yet started are left out.
 */
export async function runOnDevices(base: Pick<RunOptions, 'engine' | 'outDir'>, devices: RunDevice[], planned: PlannedRun[], signal?: AbortSignal): Promise<(RunResult & { name: string })[]> {
  const results: (RunResult & { name: string })[] = new Array(planned.length);
  const taken = new Array<boolean>(planned.length).fill(false);
  await Promise.all(
    devices.map(async (device) => {
      while (!signal?.aborted) {
        const k = planned.findIndex((p, i) => !taken[i] && canRun(p.options.scenario.platform, device));
        if (k < 0) return;
        taken[k] = true;
        const p = planned[k];
        const r = await runScenario({ ...p.options, ...base, device: device.id, signal });
        results[k] = { ...r, name: p.name };
      }
    }),
  );
  return results.filter(Boolean);
}
