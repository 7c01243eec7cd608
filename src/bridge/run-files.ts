import { dirname, join } from 'node:path';
import { ToolError } from '../engine/errors.js';
import { readInside } from '../engine/files/safe-fs.js';
import { paths } from '../engine/runner/index.js';

/** How many runs' screenshots stay reachable; older ones are forgotten (their files stay on disk). */
const KEEP_RUNS = 50;
/** A step's screenshot: `<step id>.png` (flow steps carry dots, `login.type_email.png`). */
const SCREENSHOT_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}\.png$/;
const MAX_SCREENSHOT_BYTES = 32 * 1024 * 1024;

/**
 * The screenshots of scenario runs started over this bridge (scenarios.run), for the viewer to show
 * next to the result. Only the screenshot folder of a run this bridge started is reachable, by run
 * id and file name, and every read goes through the file gate with that one folder as its root, so
 * neither `..`, a symlink nor another run's or another program's file can be served.
 */
export class RunFiles {
  private readonly folders = new Map<string, string>();

  /** The run started: its screenshots will be under `outDir` (SPEC §5 layout). */
  add(runId: string, outDir: string, scenarioId: string): void {
    this.folders.set(runId, dirname(join(outDir, paths.screenshotRel(scenarioId, runId, 'x'))));
    while (this.folders.size > KEEP_RUNS) this.folders.delete(this.folders.keys().next().value!);
  }

  /** The PNG bytes. Throws ToolError: INVALID_PARAMETER for an unknown run or a bad name, file errors from the gate. */
  async screenshot(runId: string, name: string): Promise<Buffer> {
    const folder = this.folders.get(runId);
    if (!folder) throw new ToolError('INVALID_PARAMETER', `run ${JSON.stringify(runId)} was not started over this bridge, or is one of more than ${KEEP_RUNS} runs ago`);
    if (!SCREENSHOT_NAME.test(name) || name.includes('..')) throw new ToolError('INVALID_PARAMETER', `${JSON.stringify(name)} is not a step screenshot name (<step id>.png)`);
    return readInside(join(folder, name), { roots: [folder], param: 'screenshot' }, { maxBytes: MAX_SCREENSHOT_BYTES });
  }
}
