import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { makeFolders, writeInside } from '../files/safe-fs.js';

/**
 * Writes a file so that a reader (or a crash) never sees half of it: temp file, fsync, rename
 * (SPEC §5), through files/safe-fs so that no symlink inside `root` (the output folder) moves a
 * write outside it, and a failure (DISK_FULL, PERMISSION_DENIED...) leaves no temp or 0-byte file.
 * Throws ToolError.
 */
export async function writeFileAtomic(file: string, content: string | Buffer, root = dirname(file)): Promise<void> {
  await makeFolders(root, 'create the output folder');
  await writeInside(file, content, { roots: [root], param: 'output file' }, { createFolders: true });
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
