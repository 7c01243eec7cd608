import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { processExists } from '../process-alive.js';
import { lockHolder } from './recover.js';

/**
 * One run at a time per output folder. Two runs given the same --out (two CI jobs, a second
 * terminal) each rewrite junit.xml and report.html with their own scenarios only, so the first
 * run's stdout pointed at a report that no longer held its results. `.run.lock` holds the pid of
 * the run writing the folder; a lock left by a process that is gone is taken over.
 */
const LOCK = '.run.lock';

export type OutputClaim = { release(): Promise<void> } | { heldBy: number };

export async function claimOutput(outDir: string, pid = process.pid): Promise<OutputClaim> {
  const file = join(outDir, LOCK);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(`${pid}\n`);
      await handle.close();
      return { release: () => unlink(file).catch(() => undefined) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await lockHolder(file);
    if (holder !== undefined && holder !== pid && processExists(holder)) return { heldBy: holder };
    // Its writer is gone (or it is unreadable, half-written): remove it and try again.
    await unlink(file).catch(() => undefined);
  }
  throw new Error(`cannot take ${file}: another run keeps creating it; use another --out`);
}
