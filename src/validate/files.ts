/**
 * Validation of files on disk for the CLI: expanding folders and globs, reading, and the checks
 * that span several files (scenario_id unique within the project).
 */
import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { readRegularTextSync } from './regular-file.js';
import type { UndecodableText } from './text-decode.js';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { LineIndex, locate, parseJson } from './json.js';
import { inside } from './flow-files.js';
import { loadScenario, singleIssueReport, undecodableReport, type ValidationReport } from './validate.js';

export interface FileOutcome {
  report: ValidationReport;
  /** Source text, kept for human-readable output; absent when the file could not be read. */
  text?: string;
  /** Why the file could not be read (exit code 1). */
  readError?: string;
}

/** Far above any hand-written scenario; stops `validate /dev/zero`-like inputs at once. */
export const MAX_SCENARIO_BYTES = 16 * 1024 * 1024;

const SKIP_DIRS = new Set(['node_modules', '.git']);

function walk(dir: string, into: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(full, into);
    } else if (entry.name.endsWith('.json') && isRegularFile(entry, full)) into.push(full);
  }
}

/** FIFOs, sockets and devices named *.json are skipped: reading one would hang or never end. */
function isRegularFile(entry: Dirent, full: string): boolean {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(full).isFile();
  } catch {
    return false;
  }
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += /[\\^$+.()|{}[\]]/.test(c) ? `\\${c}` : c;
  }
  return new RegExp(`^${re}$`);
}

const isGlob = (arg: string): boolean => /[*?]/.test(arg);

/** The folder part of a glob before its first wildcard (`scenarios` for `scenarios/<wildcards>`), and the rest. */
function splitGlob(arg: string): { base: string; rest: string } {
  const parts = arg.split(/[\\/]/);
  const firstWild = parts.findIndex((p) => /[*?]/.test(p));
  return { base: parts.slice(0, firstWild).join('/') || '.', rest: parts.slice(firstWild).join('/') };
}

/** Files an argument names: a file, a folder (recursing over *.json) or a glob with * / ** / ?. */
export function expandArgument(arg: string): string[] | undefined {
  if (isGlob(arg)) {
    const { base, rest } = splitGlob(arg);
    const pattern = globToRegExp(rest);
    const found: string[] = [];
    try {
      walk(base, found);
    } catch {
      return undefined;
    }
    const matches = found.filter((f) => pattern.test(relative(base, f).split(sep).join('/')));
    return matches.length ? matches : undefined;
  }
  try {
    if (statSync(arg).isDirectory()) {
      const found: string[] = [];
      walk(arg, found);
      return found;
    }
    return [arg];
  } catch (err) {
    // Only a missing path is "no such file"; a loop or a refused folder is for the read to name.
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : [arg];
  }
}

/**
 * What makes two names one file: its real path, so that `a.json` given twice, a folder plus a file
 * in it, or a symlink beside its target are read once (a missing file keeps its absolute path,
 * for the read to report).
 */
export function fileKey(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return resolve(file);
  }
}

/**
 * The report of a file that could not be read: one file-unreadable error saying why (exit 1). A file
 * that was read but is not UTF-8 text is the user's input, as a syntax error is: a json-syntax error at
 * the first bad byte (exit 3), the verdict POST /api/validate gives for the same bytes.
 */
export function unreadable(file: string, why: string, undecodable?: UndecodableText): FileOutcome {
  if (undecodable) return { report: undecodableReport(file, undecodable, 'the file', 'save the file as UTF-8') };
  // Too big to be one scenario: the way on is to split it, not to check the path.
  const suggestion = /over the limit/.test(why) ? 'split it: move groups of steps into flow files (schema 2.2 "flow" steps), each file under the limit' : 'check the path and that the file is readable';
  const message = `cannot read ${file}: ${why}`;
  return { report: singleIssueReport(file, { rule: 'file-unreadable', message, suggestion }), readError: message };
}

/** The flow files a scenario's text names at any nesting level, by fileKey; none when it is not JSON (its report says why). */
function flowsNamed(file: string, text: string): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const dir = dirname(resolve(file));
  const found: string[] = [];
  const walk = (steps: unknown): void => {
    if (!Array.isArray(steps)) return;
    for (const s of steps) {
      if (typeof s !== 'object' || s === null) continue;
      const step = s as { flow?: unknown; sub_steps?: unknown };
      if (typeof step.flow === 'string') found.push(fileKey(resolve(dir, step.flow)));
      else walk(step.sub_steps);
    }
  };
  walk(typeof doc === 'object' && doc !== null ? (doc as { steps?: unknown }).steps : undefined);
  return found;
}

/**
 * The folder tree each file's flows and screenshots must stay in, the same for `validate` and
 * `run`. A file that another file of the set uses as a flow never runs on its own (`run` leaves it
 * out): it runs inside the scenario at the top of the chain, whose folder is then its root
 * (flows/login.json may name ../common/setup.json). Any other file is a scenario that runs on its
 * own, so its own folder is its root, as the runner has it.
 */
export function projectRoots(files: readonly { file: string; text?: string }[]): { rootOf: (file: string) => string; userOf: (file: string) => string | undefined } {
  const usedBy = new Map<string, string>();
  for (const { file, text } of files) {
    if (text === undefined) continue;
    const self = fileKey(file);
    for (const flow of flowsNamed(file, text)) if (flow !== self && !usedBy.has(flow)) usedBy.set(flow, file);
  }
  const rootOf = (file: string): string => {
    let at = file;
    // A cycle of flows (rule flow-cycle) stops at the first file met again.
    const met = new Set<string>([fileKey(at)]);
    for (let user = usedBy.get(fileKey(at)); user !== undefined && !met.has(fileKey(user)); user = usedBy.get(fileKey(at))) {
      met.add(fileKey(user));
      at = user;
    }
    return dirname(resolve(at));
  };
  return { rootOf, userOf: (file) => usedBy.get(fileKey(file)) };
}

/**
 * A flow's own preconditions are never applied (the run applies only the top scenario's): the
 * warnings about how they would replay are replaced by one saying they are ignored.
 */
function preconditionsOfFlow(report: ValidationReport, text: string, user: string): void {
  const parsed = parseJson(text);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null || !('preconditions' in parsed.value)) return;
  report.warnings = report.warnings.filter((w) => !w.path.startsWith('/preconditions'));
  const pos = new LineIndex(parsed.text).position(locate(parsed.pos, '/preconditions'));
  report.warnings.push({
    path: '/preconditions',
    ...pos,
    rule: 'field-unused',
    message: `this file is a flow of ${user}, and a flow's preconditions are not applied (only its steps, assertions, parameters and variables are used), so these are ignored; put them in the preconditions of the scenario that uses the flow, or remove them`,
    suggestion: 'move "preconditions" to the scenario that uses this flow',
  });
}

/**
 * The check that spans files: a `scenario_id` already used by an earlier file makes the later one
 * invalid (rule scenario-id-duplicate), since results, screenshots and the resolution cache are
 * kept by scenario id. `validate` and `run` both apply it to the files they were given.
 */
export function markDuplicateIds(outcomes: { report: ValidationReport; text?: string; scenarioId?: string }[]): void {
  const owners = new Map<string, string>();
  for (const o of outcomes) {
    if (o.scenarioId === undefined || o.text === undefined) continue;
    const first = owners.get(o.scenarioId);
    if (first === undefined) {
      owners.set(o.scenarioId, o.report.file);
      continue;
    }
    const parsed = parseJson(o.text);
    const offset = parsed.ok ? locate(parsed.pos, '/scenario_id') : 0;
    const pos = new LineIndex(parsed.text).position(offset);
    o.report.errors.push({
      path: '/scenario_id',
      ...pos,
      rule: 'scenario-id-duplicate',
      message: `scenario_id "${o.scenarioId}" is already used by ${first}; scenario ids are unique within the project, rename one`,
      suggestion: `use "${o.scenarioId}_2"`,
    });
    o.report.valid = false;
  }
}

/** Where `run` writes by default (its `--out`), from the working folder. */
export const DEFAULT_OUT_DIR = 'mobilebridge-out';

/**
 * What a run writes is not a scenario: a search of a folder leaves out the run's output folder, or,
 * when the folder searched is that folder or inside it (`--out .`), its results/ and cache/ only.
 * `run` and `validate` search alike, so `validate .` after `run .` judges the scenarios, not the results.
 */
export function outputFolders(searched: string | undefined, outDir: string): string[] {
  const out = fileKey(outDir);
  return searched !== undefined && inside(out, fileKey(searched)) ? [join(out, 'results'), join(out, 'cache')] : [out];
}

/** The files a folder or glob argument finds, without the output of a run in `outDir`; a file named directly is always kept. */
function searchedFiles(arg: string, files: string[], outDir: string): string[] {
  let folder = false;
  try {
    folder = !isGlob(arg) && statSync(arg).isDirectory();
  } catch {
    // A missing path or a symlink loop names no folder; the read says what it is.
  }
  if (!folder && !isGlob(arg)) return files;
  const leftOut = outputFolders(folder ? arg : undefined, outDir);
  return files.filter((f) => !leftOut.some((dir) => inside(dir, fileKey(f))));
}

export function validateFiles(args: string[], outDir = resolve(DEFAULT_OUT_DIR)): FileOutcome[] {
  // A file's report, or its text still to validate: which files are flows of others decides their root.
  const read: (FileOutcome | { file: string; text: string })[] = [];
  const seen = new Set<string>();
  for (const arg of args) {
    const files = expandArgument(arg);
    if (!files) {
      read.push(unreadable(arg, isGlob(arg) ? 'the pattern matches no file' : 'no such file or folder'));
      continue;
    }
    const found = searchedFiles(arg, files, outDir);
    if (found.length === 0) read.push(unreadable(arg, files.length ? "the folder holds no .json file but a run's output (results and caches are not scenarios)" : 'the folder holds no .json file'));
    for (const file of found) {
      const key = fileKey(file);
      if (seen.has(key)) continue;
      seen.add(key);
      const got = readRegularTextSync(file, MAX_SCENARIO_BYTES);
      read.push('why' in got ? unreadable(file, got.why, got.undecodable) : { file, text: got.text });
    }
  }
  const { rootOf, userOf } = projectRoots(read.filter((r) => 'file' in r));
  const outcomes = read.map((r): FileOutcome & { scenarioId?: string } => {
    if (!('file' in r)) return r;
    const loaded = loadScenario(r.text, r.file, { baseDir: dirname(resolve(r.file)), rootDir: rootOf(r.file) });
    const user = userOf(r.file);
    if (user !== undefined) {
      preconditionsOfFlow(loaded.report, r.text, user);
      // A flow is a part: the scenario running it holds the checks (its own assertions, if any, join them)
      // and the preconditions that reset the app for its permission prompts.
      loaded.report.warnings = loaded.report.warnings.filter((w) => w.rule !== 'no-assertions' && w.rule !== 'permission-prompt-once');
    }
    return { report: loaded.report, text: r.text, scenarioId: loaded.scenario?.scenario_id };
  });
  markDuplicateIds(outcomes);
  return outcomes.map(({ report, text, readError }) => (readError ? { report, readError } : { report, text }));
}
