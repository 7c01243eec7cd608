import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ToolError } from '../engine/errors.js';
import { readInside } from '../engine/files/safe-fs.js';
import { paths } from '../engine/runner/index.js';

/**
 * How many runs' screenshots stay reachable; older ones are forgotten. A caller's `out` folder stays
 * on disk; a temporary folder the bridge made for a run without `out` is removed with it, so a
 * bridge running for weeks does not fill the temp folder.
 */
const KEEP_RUNS = 50;
/** The prefix of the temporary folders scenarios.run makes for runs without `out`. */
export const TEMP_RUN_PREFIX = 'mobilebridge-run-';
/**
 * A step's screenshot: `<step id>.png` (flow steps carry dots, `login.type_email.png`), or a waiting
 * assertion's own, of the screen it was judged on after waiting: `<step id>+<assertion id>.png`.
 */
const SCREENSHOT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}(\+[A-Za-z0-9_][A-Za-z0-9_.-]{0,199})?\.png$/;
const MAX_SCREENSHOT_BYTES = 32 * 1024 * 1024;

/**
 * The screenshots of scenario runs started over this bridge (scenarios.run), for the viewer to show
 * next to the result. Only the screenshot folder of a run this bridge started is reachable, by run
 * id and file name, and every read goes through the file gate with that one folder as its root, so
 * neither `..`, a symlink nor another run's or another program's file can be served.
 */
export class RunFiles {
  private readonly folders = new Map<string, { screenshots: string; temporary?: string }>();

  constructor(private readonly keep = KEEP_RUNS) {}

  /**
   * The run started: its screenshots will be under `outDir` (SPEC §5 layout). `temporary`: the
   * bridge made `outDir` for this run (no `out` given), so it goes when the run is forgotten.
   */
  add(runId: string, outDir: string, scenarioId: string, temporary = false): void {
    this.folders.set(runId, { screenshots: dirname(join(outDir, paths.screenshotRel(scenarioId, runId, 'x'))), temporary: temporary ? outDir : undefined });
    while (this.folders.size > this.keep) {
      const [oldest, entry] = this.folders.entries().next().value!;
      this.folders.delete(oldest);
      if (entry.temporary) void removeTemporary(entry.temporary);
    }
  }

  /** The bridge stops: nobody can read the runs' screenshots any more, so its temporary folders go. */
  async close(): Promise<void> {
    const temporary = [...this.folders.values()].flatMap((f) => (f.temporary ? [f.temporary] : []));
    this.folders.clear();
    await Promise.all(temporary.map(removeTemporary));
  }

  /** The PNG bytes. Throws ToolError: INVALID_PARAMETER for an unknown run or a bad name, file errors from the gate. */
  async screenshot(runId: string, name: string): Promise<Buffer> {
    const folder = this.folders.get(runId)?.screenshots;
    if (!folder) throw new ToolError('INVALID_PARAMETER', `run ${JSON.stringify(runId)} was not started over this bridge, or is one of more than ${this.keep} runs ago`);
    if (!SCREENSHOT_NAME.test(name) || name.includes('..')) throw new ToolError('INVALID_PARAMETER', `${JSON.stringify(name)} is not a step screenshot name (<step id>.png)`);
    return readInside(join(folder, name), { roots: [folder], param: 'screenshot' }, { maxBytes: MAX_SCREENSHOT_BYTES });
  }
}

/** Removes a run's temporary folder; only ever one the bridge made (in the temp folder, with its prefix). */
async function removeTemporary(folder: string): Promise<void> {
  if (dirname(folder) !== tmpdir() || !basename(folder).startsWith(TEMP_RUN_PREFIX)) return;
  await rm(folder, { recursive: true, force: true }).catch(() => undefined);
}
