import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export { writeFileAtomic } from '../atomic-file.js';

/** Four random hex digits: the usual run_id suffix. */
export function randomSuffix(): string {
  return randomBytes(2).toString('hex');
}

/**
 * run_YYYYMMDD_HHMMSS_xxxx (UTC); the suffix keeps parallel runs started in the same second apart,
 * but only claimRunId makes sure no other run in the folder has it.
 */
export function newRunId(at: Date, suffix: string = randomSuffix()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}_${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}`;
  return `run_${stamp}_${suffix}`;
}

/** The SPEC §5 layout under the output folder. */
export const paths = {
  result: (out: string, runId: string) => join(out, 'results', `${runId}.json`),
  screenshotRel: (scenarioId: string, runId: string, stepId: string) => join('screenshots', scenarioId, runId, `${stepId}.png`),
  junit: (out: string) => join(out, 'junit.xml'),
  html: (out: string) => join(out, 'report.html'),
  cache: (out: string, scenarioId: string) => join(out, 'cache', `${scenarioId}.resolutions.json`),
};
