import { lstat } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { extname, parse, resolve } from 'node:path';
import { AllowedPaths } from '../engine/allowed-paths.js';
import { ToolError } from '../engine/errors.js';

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
