/**
 * Shared state of the semantic pass. The pass reads the raw document defensively (the shape
 * may be wrong in places) so that every rule still runs when the schema pass found problems.
 */
import { escapePointer } from './json.js';
import { readStep, type AssertionFields, type StepFields } from './step-fields.js';
import type { RawIssue, RuleId } from './rules.js';
import { didYouMean } from './suggest.js';
import { locatorKind } from './targets.js';
import { DEFAULTS, VARIABLE_NAME } from './vocabulary.js';

export type Obj = Record<string, unknown>;
export const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
export const str = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);

/** A step with where it sits: document order (pre-order) and the ids of enclosing steps. */
export interface StepEntry {
  /** The step's fields (read once; see step-fields.ts). */
  step: StepFields;
  pointer: string;
  order: number;
  ancestors: string[];
}

export interface Context {
  out: RawIssue[];
  platform?: string;
  mode?: string;
  version?: string;
  /** Declared variables: name → declared type. */
  variables: Map<string, string>;
  usedVariables: Set<string>;
  /** Declared parameters (2.2). */
  parameters: Set<string>;
  usedParameters: Set<string>;
  steps: StepEntry[];
  /** First step carrying each id. */
  stepById: Map<string, StepEntry>;
  /** Whether the reference screenshot exists; absent when no base folder is known. */
  fileExists?: (relative: string) => boolean;
  /** What the file system says about paths and flows; absent when no base folder is known. */
  files?: FileChecks;
  /** Set when this document is checked as a flow of another: see RunPlatform. */
  outer?: RunPlatform;
  /** The flow steps whose flow validated, for the checks that need all of them (names across files). */
  flowUses?: { entry: StepEntry; flow: string; found: Extract<FlowCheck, { kind: 'ok' }> }[];
}

/**
 * A flow's steps run on the platform of the scenario that uses it (its own `platform` is not
 * applied), so they are checked once more against that one. What that finds is collected here,
 * for the using scenario to report on its flow step.
 */
export interface RunPlatform {
  platform: string;
  /** This flow's file, from the top scenario's folder. */
  file: string;
  issues: PlatformIssue[];
  /** Its steps that answer a permission prompt: whether the app is reset first is the using scenario's to say. */
  answers: PermissionAnswer[];
}

/** A step of a flow that answers a permission prompt whenever the flow runs. */
export interface PermissionAnswer {
  /** The step's id below the flow step, as the run prefixes it ("grant", "setup.grant"). */
  step: string;
  /** The flow file the step is written in, from the top scenario's folder. */
  file: string;
  action: string;
}

/** A problem a flow's step has on the platform it runs on. */
export interface PlatformIssue {
  rule: RuleId;
  /** The step's id below the flow step, as the run prefixes it ("submit", "login.submit"). */
  step: string;
  /** The flow file the step is written in, from the top scenario's folder. */
  file: string;
  message: string;
  suggestion?: string;
  /** Only a problem when the step runs on iOS: moot under a flow step that a platform condition keeps to Android. */
  iosOnly?: boolean;
}

/** A flow file as seen from the scenario that names it. */
export type FlowCheck =
  | {
      kind: 'ok';
      parameters: string[];
      secrets: string[];
      expansion: FlowExpansion;
      /** What its steps (its flows' included) meet on the platform they run on. */
      platformIssues: PlatformIssue[];
      /** Its steps (its flows' included) that answer a permission prompt on every run. */
      answers: PermissionAnswer[];
      /** Every variable and every parameter the flow and its own flows declare, with the file declaring it. */
      names: DeclaredNames;
    }
  | { kind: 'missing'; why: string; meant?: string }
  | { kind: 'cycle'; chain: string[] }
  | { kind: 'invalid'; errors: string[] };

/** What a flow brings into the run's one set of variables, and its parameters (names must not clash across files). */
export interface DeclaredNames {
  variables: Map<string, string>;
  parameters: Map<string, string>;
}

/** How many steps a flow becomes once its own flows are expanded, and the files down its heaviest use. */
export interface FlowExpansion {
  steps: number;
  chain: string[];
}

export interface FileChecks {
  /** Whether this scenario is validated as a flow of another (its size then counts in the one using it). */
  readonly nested: boolean;
  /** Why `relative` (to the scenario's folder) leaves the scenario's folder tree, if it does. */
  escapes(relative: string): string | undefined;
  flow(relative: string): FlowCheck;
}

export function report(ctx: Context, path: string, rule: RuleId, message: string, suggestion?: string): void {
  ctx.out.push(suggestion ? { path, rule, message, suggestion } : { path, rule, message });
}

export function collectSteps(list: unknown, pointer: string, ancestors: string[], into: StepEntry[]): void {
  if (!Array.isArray(list)) return;
  for (let i = 0; i < list.length; i++) {
    const step: unknown = list[i];
    if (!isObj(step)) continue;
    const p = `${pointer}/${i}`;
    const fields = readStep(step);
    into.push({ step: fields, pointer: p, order: into.length, ancestors });
    if (!Array.isArray(fields.sub_steps)) continue;
    const id = str(fields.id);
    collectSteps(fields.sub_steps, `${p}/sub_steps`, id ? [...ancestors, id] : ancestors, into);
  }
}

/*
 * The checks below take the owner's pointer and the field name rather than the field's pointer:
 * they run on every step and assertion, and the pointer is only needed when something is reported.
 */

/*
 * The texts of a step, an assertion and a condition that the runner fills `${name}` into. It fills
 * every string but ids, names and kinds (runner/variables.ts, vocabulary.ts UNFILLED_FIELDS); of
 * those, a key the schema does not know is an unknown-property error anyway, and an enum value
 * holding `${` fails its list, so these are the ones a valid document can carry a reference in. A
 * name declared nowhere stops the run at that step, so it is an error wherever it is written, but in
 * a description (see prose). Read field by field: these run on every step and assertion, and a loop over
 * key names made each read a slow keyed lookup (a third of the semantic pass).
 */

/** `strict`: a field SPEC §3 names for references (value, target, expected_*), where a malformed one is an error too. */
function texts(ctx: Context, v: unknown, owner: string, field: string, strict = false): void {
  if (typeof v === 'string' && v.includes('${')) checkReferences(ctx, v, owner, field, strict);
}

/**
 * A step's or an assertion's `description`: prose for people, not a field SPEC §3 names for
 * references. The runner fills in the names it knows and leaves any other `${…}` as written, so an
 * undeclared name there is text, not an error (a declared one still counts as used).
 */
function prose(ctx: Context, v: unknown, owner: string): void {
  if (typeof v === 'string' && v.includes('${')) checkReferences(ctx, v, owner, 'description', false, true);
}

function conditionTexts(ctx: Context, cond: unknown, owner: string): void {
  if (!isObj(cond)) return;
  const p = child(owner, 'condition');
  texts(ctx, cond.value, p, 'value', true);
  texts(ctx, cond.element_description, p, 'element_description');
}

export function checkStepTexts(ctx: Context, s: StepFields, owner: string): void {
  texts(ctx, s.target, owner, 'target', true);
  texts(ctx, s.value, owner, 'value', true);
  prose(ctx, s.description, owner);
  texts(ctx, s.target_pattern, owner, 'target_pattern');
  texts(ctx, s.permission_name, owner, 'permission_name');
  texts(ctx, s.capture_to, owner, 'capture_to');
  texts(ctx, s.flow, owner, 'flow');
  conditionTexts(ctx, s.condition, owner);
}

export function checkAssertionTexts(ctx: Context, a: AssertionFields, owner: string): void {
  prose(ctx, a.description, owner);
  texts(ctx, a.element_description, owner, 'element_description');
  texts(ctx, a.expected_value, owner, 'expected_value', true);
  texts(ctx, a.expected_substring, owner, 'expected_substring', true);
  texts(ctx, a.expected_text, owner, 'expected_text', true);
  texts(ctx, a.label_value, owner, 'label_value');
  texts(ctx, a.pattern, owner, 'pattern');
  texts(ctx, a.reference_screenshot, owner, 'reference_screenshot');
  texts(ctx, a.permission_name, owner, 'permission_name');
  conditionTexts(ctx, a.condition, owner);
}

/**
 * Checks a `${name}` string: that each name is declared, and with `strict` the syntax (elsewhere the
 * runner leaves a malformed `${…}` as written). `$${` is a literal `${`.
 */
export function checkReferences(ctx: Context, text: unknown, owner: string, field: string, strict = true, undeclaredIsText = false): void {
  if (typeof text !== 'string' || !text.includes('${')) return;
  const path = child(owner, field);
  for (let i = text.indexOf('$'); i !== -1; i = text.indexOf('$', i + 1)) {
    if (text.startsWith('$${', i)) {
      i += 2;
      continue;
    }
    if (text[i + 1] !== '{') continue;
    const close = text.indexOf('}', i + 2);
    const name = close === -1 ? undefined : text.slice(i + 2, close);
    if (name === undefined || !VARIABLE_NAME.test(name)) {
      if (!strict) {
        if (close === -1) return;
        i = close;
        continue;
      }
      const shown = close === -1 ? text.slice(i) : text.slice(i, close + 1);
      report(
        ctx,
        path,
        'variable-syntax',
        `malformed variable reference "${shown}"; write \${name} with a declared variable name, or $\${ for a literal "\${"`,
      );
      if (close === -1) return;
      i = close;
      continue;
    }
    if (ctx.variables.has(name)) ctx.usedVariables.add(name);
    else if (ctx.parameters.has(name)) ctx.usedParameters.add(name);
    else if (!undeclaredIsText) {
      const orParameter = ctx.version === '2.2' ? ', or to "parameters" if the value is given at run time' : '';
      report(
        ctx,
        path,
        'variable-undeclared',
        `variable "${name}" is used but not declared; add it to "variables" (e.g. "${name}": {"type": "string", "description": "..."})${orParameter}`,
        didYouMean(name, [...ctx.variables.keys(), ...ctx.parameters]),
      );
    }
    i = close;
  }
}

/**
 * A name read by a `variable_value` condition or a `value_matches_variable` assertion: the run
 * looks it up among the captured variables and the parameters in scope, as for `${NAME}`, so a
 * parameter is a use of it. (`capture_to` writes, and only a variable can be written: not here.)
 */
export function checkVariableName(ctx: Context, name: unknown, owner: string, field: string): void {
  if (typeof name !== 'string') return;
  if (ctx.variables.has(name)) ctx.usedVariables.add(name);
  else if (ctx.parameters.has(name)) ctx.usedParameters.add(name);
  else {
    const orParameter = ctx.version === '2.2' ? ' (or to "parameters" if the value is given at run time)' : '';
    report(ctx, child(owner, field), 'variable-undeclared', `variable "${name}" is not declared; add it to "variables"${orParameter} or fix the name`, didYouMean(name, [...ctx.variables.keys(), ...ctx.parameters]));
  }
}

export function checkRegex(ctx: Context, pattern: unknown, owner: string, field: string): void {
  if (typeof pattern !== 'string') return;
  try {
    new RegExp(pattern);
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err);
    report(ctx, child(owner, field), 'regex-invalid', `"${pattern}" is not a valid regular expression (${why}); fix it, escaping special characters such as ( [ . * with \\`);
  }
}

export function checkDescription(ctx: Context, text: unknown, owner: string, field: string): void {
  if (typeof text !== 'string') return;
  // The resolver trims the description, so blanks name no element, as "" does (which the schema reports).
  if (text !== '' && text.trim() === '') {
    const shown = JSON.stringify(text);
    report(ctx, child(owner, field), 'empty-string', `${field} ${shown} holds only blanks, so it names no element and the run would stop there; describe the element the way a user sees it`, 'describe the element, e.g. "the Sign in button"');
    return;
  }
  const kind = locatorKind(text);
  if (kind) {
    report(
      ctx,
      child(owner, field),
      'target-is-locator',
      `${field} "${text}" looks like ${kind}; scenarios name elements the way a user sees them, so they survive UI refactors`,
      'describe the element instead, e.g. "the Sign in button" or "the Email field"',
    );
  }
}

/** Whether the step, or a step it is nested in, runs only on Android (a platform condition). */
export function androidOnly(ctx: Context, entry: StepEntry): boolean {
  const onAndroid = (cond: unknown): boolean => {
    if (!isObj(cond) || cond.type !== 'device_property' || cond.property !== 'platform' || typeof cond.value !== 'string') return false;
    const op = cond.operator ?? DEFAULTS.operator;
    const platform = cond.value.toLowerCase();
    return (op === '==' && platform === 'android') || (op === '!=' && platform === 'ios');
  };
  return onAndroid(entry.step.condition) || entry.ancestors.some((id) => onAndroid(ctx.stepById.get(id)?.step.condition));
}

export const child = (pointer: string, key: string): string => `${pointer}/${escapePointer(key)}`;
