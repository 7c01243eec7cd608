import { randomBytes } from 'node:crypto';
import { mkdir, open, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Writes a file so that a reader (or a crash) never sees half of it: temp file, fsync, rename
 * (SPEC §5). The rename is atomic on the same file system.
 */
export async function writeFileAtomic(file: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
}

/** run_YYYYMMDD_HHMMSS_xxxx (UTC); the suffix keeps parallel runs started in the same second apart. */
export function newRunId(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${at.getUTCFullYear()}${p(at.getUTCMonth() + 1)}${p(at.getUTCDate())}_${p(at.getUTCHours())}${p(at.getUTCMinutes())}${p(at.getUTCSeconds())}`;
  return `run_${stamp}_${randomBytes(2).toString('hex')}`;
}

/** The SPEC §5 layout under the output folder. */
export const paths = {
  result: (out: string, runId: string) => join(out, 'results', `${runId}.json`),
  screenshotRel: (scenarioId: string, runId: string, stepId: string) => join('screenshots', scenarioId, runId, `${stepId}.png`),
  junit: (out: string) => join(out, 'junit.xml'),
  html: (out: string) => join(out, 'report.html'),
  cache: (out: string, scenarioId: string) => join(out, 'cache', `${scenarioId}.resolutions.json`),
};
