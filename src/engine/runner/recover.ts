import { readdir, stat, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { makeFolders, readInside, writeInside } from '../files/safe-fs.js';
import { processExists } from '../process-alive.js';
import { newRunId, paths, randomSuffix } from './result-file.js';

/**
 * Recovery of an output folder after a crash (issue 16). A run holds `<run_id>.lock` (its pid)
 * beside its result document while it runs; at the next start a document still `running` whose
 * process is gone is marked `error` ("interrupted"), and temp files of dead writers are removed.
 */

const TEMP = /\.(\d+)\.[0-9a-f]+\.tmp$/;
const INTERRUPTED = 'interrupted: the run stopped without finishing (its process ended: crash, kill or power loss); the steps above are what was recorded';

/** The pid a lock file holds (holdRunLock, claimOutput), or undefined when it holds none (missing, half-written). */
export async function lockHolder(lock: string): Promise<number | undefined> {
  const text = await readInside(lock, { roots: [dirname(lock)], param: 'lock' }, { maxBytes: 64 }).catch(() => undefined);
  const pid = Number(text?.toString('utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Creates `<out>/results` (a clear ToolError when it cannot) and recovers what a crash left there. */
export async function prepareOutput(outDir: string): Promise<{ interrupted: string[]; removed: string[] }> {
  const results = join(outDir, 'results');
  await makeFolders(results, 'create the output folder');
  const removed = [...(await removeDeadTemps(outDir)), ...(await removeDeadTemps(results))];
  return { interrupted: await markInterrupted(results), removed };
}

async function removeDeadTemps(dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = TEMP.exec(name);
    if (!m || processExists(Number(m[1]))) continue;
    if (await unlink(join(dir, name)).then(() => true, () => false)) removed.push(join(dir, name));
  }
  return removed;
}

async function markInterrupted(results: string): Promise<string[]> {
  const marked: string[] = [];
  const where = { roots: [results], param: 'result document' };
  for (const name of await readdir(results).catch(() => [] as string[])) {
    if (!name.endsWith('.json')) continue;
    const file = join(results, name);
    const lock = file.replace(/\.json$/, '.lock');
    const holder = await lockHolder(lock);
    if (holder !== undefined && processExists(holder)) continue;
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse((await readInside(file, where)).toString('utf8')) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (doc.status === 'running') {
      const ended = (await stat(file)).mtime;
      doc.status = 'error';
      doc.summary = INTERRUPTED;
      doc.ended_at = ended.toISOString();
      const startedAt = Date.parse(String(doc.started_at));
      if (Number.isFinite(startedAt)) doc.duration_seconds = Math.round((ended.getTime() - startedAt) / 10) / 100;
      await writeInside(file, JSON.stringify(doc, null, 2), where);
      marked.push(file);
    }
    await unlink(lock).catch(() => undefined);
  }
  return marked;
}

/** Draws after which a longer suffix is drawn: a folder this full of one second's ids is no accident. */
const SHORT_DRAWS = 16;

/**
 * A run id no other run in `<out>/results` has, held as live (see markInterrupted) until `release`.
 * `<run_id>.lock` is created exclusively, so two runs that drew the same id cannot both take it, and
 * an id whose result document exists (a run of the same second that has finished) is not taken
 * either; on a collision a new suffix is drawn. Until 2026-11-29 the lock's failure was ignored and
 * both runs rewrote one result document. `suffix` is the random source (tests force a collision).
 */
export async function claimRunId(outDir: string, at: Date, suffix: () => string = randomSuffix): Promise<{ runId: string; release: () => Promise<void> }> {
  await makeFolders(join(outDir, 'results')).catch(() => undefined);
  for (let draw = 0; ; draw++) {
    const runId = newRunId(at, draw < SHORT_DRAWS ? suffix() : randomBytes(4).toString('hex'));
    const file = paths.result(outDir, runId);
    const lock = file.replace(/\.json$/, '.lock');
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      // A folder that cannot be written: the run stops at its first write of the document (storageError), as before.
      return { runId, release: async () => undefined };
    }
    // The document of a finished run is written before its lock goes, so it is seen here.
    if (await stat(file).then(() => true, () => false)) {
      await unlink(lock).catch(() => undefined);
      continue;
    }
    return { runId, release: () => unlink(lock).catch(() => undefined) };
  }
}
