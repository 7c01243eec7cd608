import type { RunOptions, RunResult } from './types.js';
import { runScenario } from './scenario-runner.js';

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
 * Runs scenarios over several devices in parallel: each device takes the next scenario as soon
 * as it is free, so a slow scenario does not hold the others up. Results come back in input order.
 */
export async function runOnDevices(base: Pick<RunOptions, 'engine' | 'outDir'>, devices: string[], planned: PlannedRun[], signal?: AbortSignal): Promise<(RunResult & { name: string })[]> {
  const results: (RunResult & { name: string })[] = new Array(planned.length);
  let next = 0;
  await Promise.all(
    devices.map(async (device) => {
      while (next < planned.length && !signal?.aborted) {
        const k = next++;
        const p = planned[k];
        const r = await runScenario({ ...p.options, ...base, device, signal });
        results[k] = { ...r, name: p.name };
      }
    }),
  );
  return results.filter(Boolean);
}
