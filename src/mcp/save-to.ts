import { lstat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, extname, join, parse, resolve } from 'node:path';
import { AllowedPaths } from '../engine/allowed-paths.js';
import { toFailure, ToolError } from '../engine/errors.js';

/**
 * Where recording_stop may write. The working directory counts as the project folder, but an MCP
 * client chooses it: one started in / (or the home folder itself) would make every file of the
 * user writable by a model's save_to. Then only the temp directory and --allow-path folders count,
 * and stderr says so once.
 */
export function saveToRoots(extra: readonly string[], cwd = process.cwd(), home = homedir(), warn: (line: string) => void = (line) => void process.stderr.write(line)): AllowedPaths {
  const allowed = extra.map((p) => resolve(cwd, p));
  if (cwd !== parse(cwd).root && cwd !== home) return new AllowedPaths(allowed, cwd);
  const also = allowed.length ? ` and ${allowed.join(', ')}` : '';
  warn(`mobilebridge mcp: the working directory ${cwd} is not taken as a project folder; recording_stop saves only under ${tmpdir()}${also}: start it with --allow-path FOLDER (or in the project folder) to save scenarios elsewhere\n`);
  return new AllowedPaths(allowed, tmpdir());
}

/**
 * save_to is chosen by a model: a wrong name must not replace a project file (package.json,
 * README.md), nor any file unless the call says so. A name ending in a separator is left to the
 * write, which says it names a folder; so is a path that is a folder or special file.
 */
export async function saveToRefusal(saveTo: string, overwrite: boolean): Promise<void> {
  const folder = /[\\/]$/.test(saveTo);
  if (!folder && extname(saveTo).toLowerCase() !== '.json') {
    throw new ToolError('INVALID_PARAMETER', `save_to ${JSON.stringify(saveTo)} must name a .json file (the scenario document), e.g. "scenarios/sign_in.json"; nothing was written`);
  }
  const present = folder || overwrite ? undefined : await lstat(resolve(saveTo)).catch(() => undefined);
  if (present && !present.isDirectory()) {
    throw new ToolError('INVALID_PARAMETER', `save_to ${resolve(saveTo)} already exists and was left as it is; give a new file name, or pass overwrite: true to replace it`);
  }
}

/**
 * A live screenshot_match records its baseline in the checking process's temp folder, gone at exit,
 * while the scenario names it relative to its own folder: the baselines go next to the saved file,
 * or the first replay would record a new one and compare nothing. Returns what could not be done,
 * for the summary. `find`: the file a live check recorded for a reference, where this process has it.
 */
export async function keepBaselines(scenario: Record<string, unknown>, saved: string | undefined, allowed: AllowedPaths, overwrite: boolean, find: (reference: string) => string | undefined): Promise<string[]> {
  const notes: string[] = [];
  const assertions = (scenario.assertions ?? []) as { id?: string; type?: string; reference_screenshot?: unknown }[];
  for (const a of assertions) {
    if (a.type !== 'screenshot_match' || typeof a.reference_screenshot !== 'string') continue;
    const ref = a.reference_screenshot;
    const lost = 'the first replay records a new baseline from what it sees and compares nothing';
    const from = find(ref);
    if (!saved) {
      notes.push(`screenshot_match ${a.id}: its baseline ${ref} lives in a temporary folder until this session ends; stop with save_to (recording_stop again) to keep it next to the scenario, else ${lost}`);
    } else if (!from) {
      notes.push(`screenshot_match ${a.id}: its baseline ${ref} was not found where this server can copy it from (it is recorded where the check ran, e.g. the bridge's temp folder); put it next to the scenario yourself, else ${lost}`);
    } else {
      const to = join(dirname(saved), ref);
      if (!overwrite && (await lstat(to).catch(() => undefined))) {
        notes.push(`screenshot_match ${a.id}: ${to} already exists and was left as it is (replays compare against it); pass overwrite: true to replace it with this session's baseline`);
        continue;
      }
      try {
        await allowed.write(to, 'save_to', await allowed.read(from, 'baseline'), { createFolders: true });
      } catch (err) {
        notes.push(`screenshot_match ${a.id}: its baseline could not be copied to ${to} (${toFailure(err).message}); ${lost}`);
      }
    }
  }
  return notes;
}
