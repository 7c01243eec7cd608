/** Semantic rules of the schema 2.2 extensions (SPEC §8): version gates, parameters, flows, paths. */
import { posix } from 'node:path';
import { type Context, type Obj, type PlatformIssue, type StepEntry, androidOnly, checkReferences, child, isObj, report, str } from './context.js';
import { MAX_EXPANDED_STEPS } from './flow-files.js';
import { didYouMean } from './suggest.js';
import type { AssertionEntry } from './step-fields.js';
import { PARAMETER_NAME, V22_VERSIONS } from './vocabulary.js';

const USE_22 = 'use "$schema_version": "2.2"';

function gate(ctx: Context, given: unknown, field: string, ownerPointer: string): void {
  if (given === undefined) return;
  report(ctx, child(ownerPointer, field), 'requires-2.2', `"${field}" exists from schema 2.2; set "$schema_version": "2.2" or remove it`, USE_22);
}

/** Every 2.2 field in a 2.0 / 2.1 document is an error that names the version to use. */
export function checkVersionGates(ctx: Context, doc: Obj, assertions: readonly AssertionEntry[]): void {
  if (ctx.version === undefined || V22_VERSIONS.has(ctx.version) || (ctx.version !== '2.0' && ctx.version !== '2.1')) return;
  gate(ctx, doc.parameters, 'parameters', '');
  for (const { step, pointer } of ctx.steps) {
    gate(ctx, step.clear_first, 'clear_first', pointer);
    gate(ctx, step.flow, 'flow', pointer);
  }
  for (const { a, index } of assertions) {
    gate(ctx, a.timeout_ms, 'timeout_ms', `/assertions/${index}`);
    gate(ctx, a.condition, 'condition', `/assertions/${index}`);
  }
}

export function declaredParameters(doc: Obj): Set<string> {
  return new Set(isObj(doc.parameters) ? Object.keys(doc.parameters) : []);
}

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The names `text` references as `${name}` (a `$${` is a literal). */
function referencedNames(text: string): string[] {
  return [...text.matchAll(REFERENCE)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

/**
 * The precondition texts the run fills parameters into (install_app's `value`, `target_package`):
 * a CI build path or a package given at run time. They run before the first step, so a captured
 * variable has no value there yet.
 */
function checkPreconditionReferences(ctx: Context, doc: Obj): void {
  const pre = doc.preconditions;
  if (ctx.version === undefined || !V22_VERSIONS.has(ctx.version) || !isObj(pre) || !Array.isArray(pre.device_actions)) return;
  pre.device_actions.forEach((da, i) => {
    if (!isObj(da)) return;
    const owner = `/preconditions/device_actions/${i}`;
    for (const field of ['value', 'target_package'] as const) {
      const text = da[field];
      if (typeof text !== 'string') continue;
      const captured = referencedNames(text).find((name) => ctx.variables.has(name) && !ctx.parameters.has(name));
      if (captured === undefined) checkReferences(ctx, text, owner, field);
      else report(ctx, child(owner, field), 'precondition-variable', `preconditions run before the first step, so variable "${captured}" has no value here yet; give the value as a parameter (declared in "parameters", given at run time) instead`, 'declare a parameter and write ${NAME}');
    }
  });
}

/**
 * A secret in `reference_screenshot` would become the name of the baseline file the first run
 * writes beside the scenario, for anyone who lists the folder (SPEC §8: a secret appears in no output).
 */
function checkSecretPaths(ctx: Context, doc: Obj, secrets: ReadonlySet<string>): void {
  if (!secrets.size || !Array.isArray(doc.assertions)) return;
  doc.assertions.forEach((a, i) => {
    if (!isObj(a) || typeof a.reference_screenshot !== 'string') return;
    const secret = referencedNames(a.reference_screenshot).find((name) => secrets.has(name));
    if (secret === undefined) return;
    report(ctx, `/assertions/${i}/reference_screenshot`, 'secret-in-path', `reference_screenshot names the secret parameter "${secret}": its value would become the name of the baseline file written next to the scenario, where anyone listing the folder sees it; name the file without the secret`, 'use a parameter that is not secret, or a fixed name');
  });
}

/** Runs after every reference of the steps and assertions was seen (those of the preconditions first), so unused parameters are known. */
export function checkParameters(ctx: Context, doc: Obj): void {
  checkPreconditionReferences(ctx, doc);
  checkFlowNames(ctx, doc);
  if (!isObj(doc.parameters)) return;
  const secrets = new Set(Object.entries(doc.parameters).flatMap(([name, decl]) => (isObj(decl) && decl.secret === true ? [name] : [])));
  checkSecretPaths(ctx, doc, secrets);
  for (const [name, decl] of Object.entries(doc.parameters)) {
    const p = child('/parameters', name);
    if (ctx.variables.has(name)) {
      report(ctx, p, 'parameter-shadows-variable', `"${name}" is declared both in "parameters" and in "variables", so \${${name}} would be ambiguous; rename one`, 'rename the parameter or the variable');
    }
    if (isObj(decl) && decl.secret === true && decl.default !== undefined) {
      report(ctx, child(p, 'default'), 'secret-default', `secret parameter "${name}" has a default, so the secret is in the file for anyone who reads it; pass it with --param, --params-file or MB_PARAM_${name} instead`);
    }
    if (!ctx.usedParameters.has(name) && PARAMETER_NAME.test(name) && !ctx.variables.has(name)) {
      report(ctx, p, 'parameter-unused', `parameter "${name}" is declared but never referenced; remove it or use it as \${${name}}`);
    }
  }
}

/**
 * A URL or an absolute path never (SPEC §8: the file stays in the scenario's folder); then, with
 * the file system, against the top scenario's folder (symlinks included), else lexically: `..`
 * that climbs out of this file's folder.
 */
function escapeOf(ctx: Context, relative: string): string | undefined {
  const slashed = relative.replace(/\\/g, '/');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(slashed)) return 'it is a URL, not a file next to the scenario';
  if (/^(?:\/|[A-Za-z]:\/)/.test(slashed)) return 'it is an absolute path';
  if (ctx.files) return ctx.files.escapes(relative);
  const normal = posix.normalize(slashed);
  if (normal === '..' || normal.startsWith('../')) return 'it climbs out with ".."';
  return undefined;
}

/**
 * Reports `path-escapes-scenario` when `relative` leaves the scenario's folder tree; the file system
 * (when known) also catches symlinks that point out of it. True when the path stays inside.
 */
export function checkInside(ctx: Context, relative: string, pointer: string, field: string): boolean {
  const why = escapeOf(ctx, relative);
  if (why === undefined) return true;
  const name = relative.split(/[\\/]/).pop() ?? relative;
  report(ctx, pointer, 'path-escapes-scenario', `${field} "${relative}" leaves the scenario's folder (${why}); keep the file inside the folder tree of the scenario, e.g. next to it`, `use "${field === 'flow' ? 'flows' : 'baselines'}/${name}"`);
  return false;
}

/** Scenarios whose expanded size was checked: once each, at its first flow step that validates. */
const measured = new WeakSet<Context>();

/**
 * The steps this scenario becomes with its flows expanded, against MAX_EXPANDED_STEPS: reported at the
 * flow step that weighs most, with the files down its heaviest use (where the uses multiply).
 */
function checkExpansion(ctx: Context): void {
  if (measured.has(ctx) || !ctx.files || ctx.files.nested) return;
  measured.add(ctx);
  let total = 0;
  let heaviest: { pointer: string; flow: string; steps: number; chain: string[] } | undefined;
  for (const { step, pointer } of ctx.steps) {
    total++;
    const flow = str(step.flow);
    if (flow === undefined || flow === '' || escapeOf(ctx, flow) !== undefined) continue;
    const found = ctx.files.flow(flow);
    if (found.kind !== 'ok') continue;
    total += found.expansion.steps;
    if (!heaviest || found.expansion.steps > heaviest.steps) heaviest = { pointer, flow, ...found.expansion };
  }
  if (total <= MAX_EXPANDED_STEPS || !heaviest) return;
  const chain = heaviest.chain.length > 6 ? [...heaviest.chain.slice(0, 5), '…', heaviest.chain[heaviest.chain.length - 1]] : heaviest.chain;
  report(ctx, child(heaviest.pointer, 'flow'), 'flow-too-large', `with its flows expanded this scenario is ${total.toLocaleString('en-US')} steps, more than the ${MAX_EXPANDED_STEPS.toLocaleString('en-US')} a run takes; flow "${heaviest.flow}" alone is ${heaviest.steps.toLocaleString('en-US')} (${chain.join(' → ')}): every use of a flow copies its steps, so flows used several times inside flows used several times multiply`, 'use the flows fewer times, or split the scenario');
}

export function checkFlowStep(ctx: Context, entry: StepEntry): void {
  const { step, pointer } = entry;
  const flow = str(step.flow);
  const params = isObj(step.parameters) ? step.parameters : undefined;
  if (params) for (const key of Object.keys(params)) checkReferences(ctx, params[key], child(pointer, 'parameters'), key);
  if (flow === undefined || flow === '' || (ctx.version !== undefined && !V22_VERSIONS.has(ctx.version))) return;
  const p = child(pointer, 'flow');
  if (!checkInside(ctx, flow, p, 'flow')) return;
  if (!ctx.files) {
    // Text without its folder (POST /api/validate, scenarios.validate): "valid" must not read as "the flow was checked".
    report(ctx, p, 'flow-not-checked', `flow "${flow}" was not checked: this scenario was validated without its folder, so whether the flow exists, validates and takes these parameters is unknown; validate the file with mobilebridge validate (or run it) to check its flows`);
    return;
  }
  const found = ctx.files.flow(flow);
  switch (found.kind) {
    case 'missing':
      if (found.why === 'no such file') report(ctx, p, 'flow-missing', `flow "${flow}" does not exist (relative to this scenario's folder); fix the path or create the flow scenario`, found.meant ? `did you mean "${found.meant}"?` : undefined);
      else report(ctx, p, 'flow-missing', `flow "${flow}" cannot be read: ${found.why}; a flow is a scenario file`);
      return;
    case 'cycle':
      report(ctx, p, 'flow-cycle', `flow "${flow}" leads back to a scenario that is already running it (${found.chain.join(' → ')}); break the cycle`);
      return;
    case 'invalid':
      report(ctx, p, 'flow-invalid', `flow "${flow}" is not a valid scenario: ${found.errors.join('; ')}; run mobilebridge validate on it`);
      return;
    case 'ok':
      checkExpansion(ctx);
      (ctx.flowUses ??= []).push({ entry, flow, found });
      if (found.platformIssues.length) checkFlowPlatform(ctx, entry, flow, found.platformIssues);
      if (!params) return;
      for (const key of Object.keys(params)) {
        if (found.secrets.includes(key) && typeof params[key] === 'string' && !/\$\{/.test((params[key] as string).replace(/\$\$\{/g, ''))) {
          report(ctx, child(child(pointer, 'parameters'), key), 'secret-literal', `flow "${flow}" declares "${key}" secret, but this step passes it a value written in the file, so the secret is there for anyone who reads it; declare a secret parameter ${key} in this scenario's "parameters" and pass "\${${key}}" (its value then comes from --param, --params-file or MB_PARAM_${key})`, `pass "\${${key}}" from a secret parameter of this scenario`);
        }
        if (found.parameters.includes(key)) continue;
        const known = found.parameters.length ? `it declares: ${found.parameters.join(', ')}` : 'it declares none';
        report(ctx, child(child(pointer, 'parameters'), key), 'flow-parameter-unknown', `flow "${flow}" has no parameter "${key}" (${known}); remove it or declare it in the flow's "parameters"`, didYouMean(key, found.parameters));
      }
  }
}

/**
 * What a flow's steps meet on the platform they run on, the top scenario's (SPEC §8: they run in
 * the flow step's place; the flow's own `platform` is not applied). A flow used by a flow passes
 * them up, named as the run names the step (`login.back`); the top scenario reports them on its flow step.
 */
function checkFlowPlatform(ctx: Context, entry: StepEntry, flow: string, issues: readonly PlatformIssue[]): void {
  const id = str(entry.step.id) ?? entry.pointer;
  // A flow step that a platform condition keeps to Android never runs its steps on iOS.
  const keptToAndroid = issues.some((i) => i.iosOnly) && androidOnly(ctx, entry);
  const outer = ctx.outer;
  // A step reached through several uses of a flow is one problem in one file: told once, by its first use.
  const told = new Set(outer?.issues.map(sameStep));
  for (const issue of issues) {
    if ((issue.iosOnly && keptToAndroid) || told.has(sameStep(issue))) continue;
    told.add(sameStep(issue));
    const step = `${id}.${issue.step}`;
    if (outer) {
      outer.issues.push({ ...issue, step });
      continue;
    }
    const own = ownId(issue);
    report(ctx, child(entry.pointer, 'flow'), issue.rule, `step ${step} (step "${own}" of ${fileOf(issue.file, flow)}) runs on this scenario's platform, ${ctx.platform} (a flow's own "platform" is not applied): ${issue.message}`, issue.suggestion);
  }
}

const ownId = (issue: PlatformIssue): string => issue.step.slice(issue.step.lastIndexOf('.') + 1);
const sameStep = (issue: PlatformIssue): string => `${issue.rule} ${issue.file} ${ownId(issue)}`;

/** A file of a flow's tree as a message names it: the flow itself, or a file reached through it. */
export const fileOf = (file: string, flow: string): string => (file === posix.normalize(flow.replace(/\\/g, '/')) ? `flow "${flow}"` : `${file} (through flow "${flow}")`);

/**
 * Names across the scenario and its flows. The run keeps one set of variables for all of them and
 * reads `${NAME}` from that set and the parameters in scope together, the variable first, so a
 * parameter of one file named like a variable of another could not be read (the run refuses it):
 * `parameter-shadows-variable`, as within one file. Each clash once, on the first flow step it involves.
 */
function checkFlowNames(ctx: Context, doc: Obj): void {
  const uses = ctx.flowUses;
  if (!uses) return;
  const variables = new Map<string, string | undefined>();
  if (isObj(doc.variables)) for (const name of Object.keys(doc.variables)) variables.set(name, undefined);
  for (const { found } of uses) for (const [name, file] of found.names.variables) if (!variables.has(name)) variables.set(name, file);
  const told = new Set<string>();
  const tell = (key: string, entry: StepEntry, message: string): void => {
    if (told.has(key)) return;
    told.add(key);
    report(ctx, child(entry.pointer, 'flow'), 'parameter-shadows-variable', message, 'rename the parameter or the variable');
  };
  for (const { entry, flow, found } of uses) {
    for (const [name, file] of found.names.variables) {
      if (!ctx.parameters.has(name)) continue;
      tell(`${name}:`, entry, `"${name}" is a parameter of this scenario and a variable of ${fileOf(file, flow)}: the run keeps one set of variables for the scenario and its flows, and \${${name}} would read that variable (empty until captured), never the parameter; rename one`);
    }
    for (const [name, file] of found.names.parameters) {
      if (!variables.has(name)) continue;
      const owner = variables.get(name);
      tell(`${name}:${file}`, entry, `"${name}" is a parameter of ${fileOf(file, flow)} and a variable of ${owner ?? 'this scenario'}: the run keeps one set of variables for the scenario and its flows, so inside the flow \${${name}} would read the variable, never the parameter; rename one`);
    }
  }
}
