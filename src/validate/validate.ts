/** The validator: text in, report out. Pure apart from the optional reference-screenshot lookup. */
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { DeclaredNames, RunPlatform } from './context.js';
import { fileChecks, type FlowValidator, type ScenarioFileChecks } from './flow-files.js';
import { fastParse } from './fast-parse.js';
import { locate, MAX_DEPTH, parseJson, positionsOf, type PosNode } from './json.js';
import { locateAll } from './locate.js';
import { type RawIssue, type ValidationIssue, remedyOf, severityOf } from './rules.js';
import type { Scenario } from './schema.js';
import { checkSemantics } from './semantic.js';
import { checkStructure, scenarioShapeNames } from './structure.js';
import type { UndecodableText } from './text-decode.js';
import { SCHEMA_VERSIONS } from './vocabulary.js';

/** `data` of the SPEC §4 envelope for one file. */
export interface ValidationReport {
  valid: boolean;
  file: string;
  /** The scenario's `$schema_version` when it is a known one, else null. */
  schema_version: string | null;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
}

export interface ValidateOptions {
  /** Folder of the scenario file; enables the file checks (reference_screenshot, flows, symlinks). */
  baseDir?: string;
  /** Folder tree that flows and screenshots must stay in (default baseDir); set for nested flows. */
  rootDir?: string;
  /** Absolute paths of the scenarios whose flows led here, this file last (for cycles). */
  stack?: string[];
  /**
   * The platform the steps run on when this document is a flow of another: the top scenario's
   * (a flow's own is not applied). Its flows are checked against it too.
   */
  platform?: string;
}

export interface LoadedScenario {
  report: ValidationReport;
  /** The scenario with defaults applied, present only when the report is valid. */
  scenario?: Scenario;
}

/**
 * The report of a document with one problem that stops the rest (unreadable, not JSON, too deep,
 * not text): a document-level issue, at line 1, column 1 unless `issue` places it.
 */
export function singleIssueReport(file: string, issue: Pick<ValidationIssue, 'rule' | 'message' | 'suggestion'> & Partial<Pick<ValidationIssue, 'line' | 'column'>>): ValidationReport {
  return { valid: false, file, schema_version: null, errors: [{ path: '', line: 1, column: 1, ...issue }], warnings: [] };
}

/** Source offsets of the issues' pointers (and names, for `atKey` issues). */
type Locator = (issues: readonly RawIssue[]) => number[];

/**
 * The report of bytes that are not text the validator takes (decodeText): a json-syntax error at
 * the first bad byte, as for any input that is not JSON. `what` names the input ("the file", "the
 * body"), `fix` what to do ("save the file as UTF-8").
 */
export function undecodableReport(file: string, { problem, line, column }: UndecodableText, what: string, fix: string): ValidationReport {
  return singleIssueReport(file, { line, column, rule: 'json-syntax', message: `${what} is ${problem}; ${fix}`, suggestion: fix });
}

/** `offsetsOf` is only called when there is something to place, so valid files skip that work. */
function finish(file: string, raw: RawIssue[], offsetsOf: Locator, text: string, version: string | null): ValidationReport {
  const offsets = raw.length ? offsetsOf(raw) : [];
  const positions = positionsOf(text, offsets);
  const placed = raw.map((r, n) => ({ r, offset: offsets[n], ...positions[n] }));
  placed.sort((a, b) => a.offset - b.offset);
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  for (const { r, line, column } of placed) {
    const issue: ValidationIssue = { path: r.path, line, column, rule: r.rule, message: r.message };
    const suggestion = r.suggestion ?? remedyOf(r.message);
    if (suggestion) issue.suggestion = suggestion;
    (severityOf(r.rule) === 'error' ? errors : warnings).push(issue);
  }
  return { valid: errors.length === 0, file, schema_version: version, errors, warnings };
}

function rootProblem(value: unknown): string | undefined {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return undefined;
  const what = Array.isArray(value) ? 'a JSON array' : value === null ? 'null' : `a ${typeof value}`;
  const fix = Array.isArray(value) ? '; put each scenario in its own file as one object {...}' : '; write the scenario as one JSON object {...}';
  return `the document is ${what}, not an object${fix}`;
}

/** From the position parser's tree, when the document needed that parser anyway. */
const fromTree =
  (pos: PosNode): Locator =>
  (issues) =>
    issues.map((r) => locate(pos, r.path, r.atKey));

/** For a document the native parser took: walk the text along the pointers only. */
const fromText =
  (text: string): Locator =>
  (issues) =>
    locateAll(text, issues);

/** `wantScenario`: build the scenario with defaults (valibot's output); plain validation skips that. */
interface Checked extends LoadedScenario {
  files?: ScenarioFileChecks;
  /** The document's `parameters` and `variables` values as written (before the structure pass). */
  parameters?: unknown;
  variables?: unknown;
  /** With `platform`: what the steps meet on it. */
  outer?: RunPlatform;
}

function check(text: string, file: string, opts: ValidateOptions, wantScenario: boolean): Checked {
  // Building the scenario (valibot's output) runs the full shape path anyway.
  const fast = fastParse(text, wantScenario ? undefined : scenarioShapeNames);
  const parsed = fast?.ok ? { ok: true as const, value: fast.value, duplicates: [], text: fast.text, pos: undefined } : (fast ?? parseJson(text));
  const shape = fast?.ok ? fast.shape : undefined;
  if (!parsed.ok) {
    const rule = parsed.reason === 'empty' ? 'empty-file' : parsed.reason === 'too-deep' ? 'json-too-deep' : 'json-syntax';
    const message =
      parsed.reason === 'empty'
        ? 'the file is empty; write the scenario as one JSON object {...}'
        : parsed.reason === 'too-deep'
          ? `the document nests deeper than ${MAX_DEPTH} levels from here; a scenario needs only a few: flatten nested sub_steps, or move groups of steps into flow files (schema 2.2)`
          : `not valid JSON: ${parsed.message}; fix the syntax at this position`;
    const [pos] = positionsOf(parsed.text, [parsed.offset]);
    return { report: singleIssueReport(file, { ...pos, rule, message, suggestion: remedyOf(message)! }) };
  }
  const doc = parsed.value;
  const positions = parsed.pos ? fromTree(parsed.pos) : fromText(parsed.text);
  const raw: RawIssue[] = parsed.duplicates.map((d) => ({
    path: d.pointer,
    rule: 'duplicate-key',
    atKey: true,
    message: `property "${d.key}" appears twice in the same object and JSON keeps only the last; remove or rename one`,
    suggestion: `remove one "${d.key}" or rename it`,
  }));
  const problem = rootProblem(doc);
  if (problem !== undefined) {
    raw.push({ path: '', rule: 'root-not-object', message: problem });
    return { report: finish(file, raw, positions, parsed.text, null) };
  }
  const obj = doc as Record<string, unknown>;
  const version = typeof obj.$schema_version === 'string' && (SCHEMA_VERSIONS as readonly string[]).includes(obj.$schema_version) ? obj.$schema_version : null;
  const baseDir = opts.baseDir;
  const fileExists = baseDir === undefined ? undefined : (rel: string) => existsSync(resolve(baseDir, rel));
  const rootDir = opts.rootDir ?? baseDir;
  // The platform this document's flows run on: its own, unless it is itself a flow of another.
  const platform = opts.platform ?? (typeof obj.platform === 'string' ? obj.platform : undefined);
  const files = baseDir === undefined ? undefined : fileChecks(baseDir, opts.rootDir ?? baseDir, opts.stack ?? [resolve(file)], validateFlow, platform);
  const outer = opts.platform === undefined ? undefined : { platform: opts.platform, file: (rootDir && relative(rootDir, resolve(file))) || file, issues: [], answers: [] };
  // Semantic rules read the document before the structure pass strips unknown and x- keys.
  raw.push(...checkSemantics(obj, { fileExists, files, outer }));
  const structure = shape === 'accepted' ? { issues: [] } : checkStructure(obj, wantScenario, shape === 'rejected');
  raw.push(...structure.issues);
  const report = finish(file, raw, positions, parsed.text, version);
  return { report, scenario: report.valid ? structure.output : undefined, files, parameters: obj.parameters, variables: obj.variables, outer };
}

const namesOf = (declared: unknown): string[] => (typeof declared === 'object' && declared !== null && !Array.isArray(declared) ? Object.keys(declared) : []);

const validateFlow: FlowValidator = (text, file, baseDir, rootDir, stack, platform) => {
  const nested = check(text, file, { baseDir, rootDir, stack, platform }, false);
  const declared = nested.parameters;
  const entries = typeof declared === 'object' && declared !== null && !Array.isArray(declared) ? Object.entries(declared as Record<string, unknown>) : [];
  const secrets = entries.filter(([, d]) => typeof d === 'object' && d !== null && (d as { secret?: unknown }).secret === true).map(([name]) => name);
  const parameters = entries.map(([name]) => name);
  // The names of its own flows count as its own: they all join the run that uses it.
  const shown = relative(rootDir, file) || file;
  const names: DeclaredNames = { variables: new Map(), parameters: new Map() };
  for (const name of namesOf(nested.variables)) names.variables.set(name, shown);
  for (const name of parameters) names.parameters.set(name, shown);
  for (const inner of nested.files?.checked() ?? []) {
    if (inner.kind !== 'ok') continue;
    for (const [name, where] of inner.names.variables) if (!names.variables.has(name)) names.variables.set(name, where);
    for (const [name, where] of inner.names.parameters) if (!names.parameters.has(name)) names.parameters.set(name, where);
  }
  return { errors: nested.report.errors, parameters, secrets, cycle: nested.files?.cycle(), platformIssues: nested.outer?.issues ?? [], answers: nested.outer?.answers ?? [], names };
};

export function loadScenario(text: string, file = '<input>', opts: ValidateOptions = {}): LoadedScenario {
  const { report, scenario } = check(text, file, opts, true);
  return scenario ? { report, scenario } : { report };
}

/** Validates scenario text (a file's content); positions refer to that text. */
export function validateScenarioText(text: string, file = '<input>', opts: ValidateOptions = {}): ValidationReport {
  return check(text, file, opts, false).report;
}

/**
 * Validates an already-parsed value (e.g. the body of POST /api/validate). Positions then refer to
 * the value pretty-printed with two-space indentation, which is what a client would show.
 */
export function validateScenarioValue(value: unknown, file = '<input>', opts: ValidateOptions = {}): ValidationReport {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, null, 2);
  } catch (err) {
    // JSON.parse takes any depth, stringify recurses: a value parsed from a deep message overflows here.
    if (err instanceof RangeError) {
      const message = `the value nests deeper than ${MAX_DEPTH} levels (a scenario nests only a few); send the scenario object itself`;
      return singleIssueReport(file, { rule: 'json-too-deep', message, suggestion: 'send the scenario object itself' });
    }
    const why = err instanceof Error ? err.message : String(err);
    return singleIssueReport(file, { rule: 'json-syntax', message: `the value cannot be written as JSON (${why}); send plain JSON data`, suggestion: 'send plain JSON data' });
  }
  return validateScenarioText(text ?? '', file, opts);
}
