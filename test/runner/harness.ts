import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../../src/engine/create.js';
import type { Driver } from '../../src/engine/driver.js';
import { ManualClock } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { runScenario, type RunOptions, type RunResult } from '../../src/engine/runner/index.js';
import type { VerbClock } from '../../src/engine/verbs/index.js';
import { loadScenario, type Scenario } from '../../src/validate/index.js';

/** Source folder of the run fixtures (tests run from dist/). */
export const RUNS_DIR = fileURLToPath(new URL('../../../test/fixtures/runs/', import.meta.url));

/**
 * Virtual phones on a manual clock: waits and backoffs move the phone's clock instead of
 * sleeping, so loading screens and retries play out instantly and always the same way.
 */
export interface Rig {
  engine: Engine;
  clock: ManualClock;
  verbClock: VerbClock;
  /** Scratch copy of the fixtures (baselines get recorded here) and the output folder. */
  dir: string;
  out: string;
  close(): Promise<void>;
}

export function rig(extraDrivers: Driver[] = [], virtual = true): Rig {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 30));
  const engine = createEngine({ virtual: virtual ? { clock } : false, extraDrivers });
  const dir = mkdtempSync(join(tmpdir(), 'mb-runs-'));
  cpSync(RUNS_DIR, join(dir, 'scenarios'), { recursive: true });
  return {
    engine,
    clock,
    verbClock: { now: () => clock.now(), sleep: async (ms) => clock.advance(ms) },
    dir,
    out: join(dir, 'out'),
    async close() {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function scenario(r: Rig, name: string): Scenario {
  const file = join(r.dir, 'scenarios', `${name}.json`);
  const { report, scenario: s } = loadScenario(readFileSync(file, 'utf8'), file);
  if (!s) throw new Error(`${name} is invalid: ${JSON.stringify(report.errors)}`);
  return s;
}

export function run(r: Rig, name: string, device: string, extra: Partial<RunOptions> = {}): Promise<RunResult> {
  return runScenario({
    engine: r.engine,
    device,
    scenario: scenario(r, name),
    scenarioDir: join(r.dir, 'scenarios'),
    outDir: r.out,
    clock: r.verbClock,
    targetWaitMs: 1000,
    settleMs: 0,
    screenshots: 'none',
    ...extra,
  });
}
