/** Document-level semantic rules of SPEC §3: identity, references, versions, package names, assertions. */
import {
  checkAssertionTexts,
  type Context,
  type Obj,
  checkDescription,
  checkRegex,
  checkVariableName,
  child,
  collectSteps,
  isObj,
  report,
  str,
} from './context.js';
import type { RawIssue } from './rules.js';
import { type AssertionEntry, assertionEntries } from './step-fields.js';
import { checkPermissionPrompts } from './permission-rules.js';
import { checkPackageValue, checkStep } from './step-rules.js';
import { didYouMean } from './suggest.js';
import { isAndroidPackage, isIosBundleId } from './targets.js';
import { checkAssertionCondition } from './step-rules.js';
import { checkInside, checkParameters, checkVersionGates, declaredParameters } from './v22-rules.js';
import { DEVICE_ACTIONS, MODE_VERSIONS, RESERVED_NAMES, VARIABLE_NAME } from './vocabulary.js';
import type { FileChecks, RunPlatform } from './context.js';

export interface SemanticOptions {
  fileExists?: (relative: string) => boolean;
  files?: FileChecks;
  outer?: RunPlatform;
}

function checkPackage(ctx: Context, pkg: unknown): void {
  if (typeof pkg !== 'string' || pkg === '') return;
  const android = isAndroidPackage(pkg);
  const ios = isIosBundleId(pkg);
  const path = '/app_package';
  const example = 'e.g. "com.example.shop"';
  if (ctx.platform === 'android' && !android) {
    report(ctx, path, 'app-package-invalid', `"${pkg}" is not an Android package name; use two or more dot-separated segments of letters, digits and _, each starting with a letter (${example})`);
  } else if (ctx.platform === 'ios' && !ios) {
    report(ctx, path, 'app-package-invalid', `"${pkg}" is not an iOS bundle identifier; use two or more dot-separated segments of letters, digits and - (${example})`);
  } else if (ctx.platform === 'cross-platform') {
    if (!android && !ios) {
      report(ctx, path, 'app-package-invalid', `"${pkg}" is neither an Android package name nor an iOS bundle id; use reverse-DNS such as "com.example.shop"`);
    } else if (android !== ios) {
      const valid = android ? 'Android package name' : 'iOS bundle id';
      const why = android ? 'iOS bundle ids cannot contain _' : 'Android package names cannot contain - or segments starting with a digit';
      report(ctx, path, 'app-package-one-platform', `"${pkg}" is a valid ${valid} only (${why}); use an identifier valid on both platforms`);
    }
  }
}

function checkIdentity(ctx: Context): void {
  for (const entry of ctx.steps) {
    const id = str(entry.step.id);
    if (id === undefined) continue;
    const first = ctx.stepById.get(id);
    if (!first) ctx.stepById.set(id, entry);
    else {
      report(ctx, `${entry.pointer}/id`, 'step-id-duplicate', `step id "${id}" is already used by the step at ${first.pointer}; step ids are unique across all nesting levels, rename one`, `use "${id}_2"`);
    }
  }
}

function checkAssertions(ctx: Context, list: unknown, entries: readonly AssertionEntry[]): void {
  if (!Array.isArray(list)) return;
  if (list.length === 0) report(ctx, '/assertions', 'no-assertions', 'the scenario has no assertions, so a run can only fail on a broken step; add at least one assertion');
  const ids = new Map<string, string>();
  for (const { a, index } of entries) {
    const p = `/assertions/${index}`;
    const id = str(a.id);
    if (id !== undefined) {
      const first = ids.get(id);
      if (first) report(ctx, `${p}/id`, 'assertion-id-duplicate', `assertion id "${id}" is already used by ${first}; rename one`, `use "${id}_2"`);
      else ids.set(id, p);
    }
    const after = str(a.after_step);
    if (after !== undefined && !ctx.stepById.has(after) && /^[a-z][a-z0-9_]*$/.test(after)) {
      report(ctx, `${p}/after_step`, 'after-step-unknown', `after_step "${after}" names no step; use the id of a step (nested steps count)`, didYouMean(after, ctx.stepById.keys()));
    }
    checkDescription(ctx, a.element_description, p, 'element_description');
    checkAssertionTexts(ctx, a, p);
    if (a.type === 'pattern_match' || a.type === 'value_matches_variable') checkRegex(ctx, a.pattern, p, 'pattern');
    if (a.type === 'value_matches_variable') checkVariableName(ctx, a.variable_name, p, 'variable_name');
    if (a.type === 'screenshot_match') checkScreenshot(ctx, a.reference_screenshot, `${p}/reference_screenshot`);
    if (a.condition !== undefined) checkAssertionCondition(ctx, a.condition, `${p}/condition`, after);
  }
}

function checkScreenshot(ctx: Context, ref: unknown, path: string): void {
  if (typeof ref !== 'string' || ref === '') return;
  if (!checkInside(ctx, ref, path, 'reference_screenshot')) return;
  if (ctx.fileExists && !ctx.fileExists(ref)) {
    report(ctx, path, 'reference-screenshot-missing', `reference_screenshot "${ref}" does not exist yet; the first run records it as the baseline (commit it afterwards)`);
  }
}

/** How a message says where a replay meets iOS; undefined when the scenario never runs there. */
function whereOnIos(platform: string | undefined): string | undefined {
  return platform === 'ios' ? 'on iOS' : platform === 'cross-platform' ? 'when this cross-platform scenario runs on iOS' : undefined;
}

/**
 * app_state fresh_install / logged_out is set up by clearing the app's data, which iOS refuses: the
 * runner then records it as manual action, so no run of the scenario on iOS passes unattended.
 */
function checkAppState(ctx: Context, state: unknown): void {
  const where = whereOnIos(ctx.platform);
  if ((state !== 'fresh_install' && state !== 'logged_out') || !where) return;
  const reinstall = (file: string) => `"device_actions": [{"action": "uninstall_app"}, {"action": "install_app", "value": "${file}"}]`;
  const fix =
    ctx.platform === 'ios'
      ? `reinstall the app instead: replace app_state with ${reinstall('<path of the .app or .ipa>')}`
      : `reinstall the app instead, which works on both platforms: replace app_state with ${reinstall('${APP_FILE}')} and a parameter APP_FILE given the .apk or the .ipa per run; or restrict the scenario to android`;
  report(
    ctx,
    '/preconditions/app_state',
    'unattended-replay',
    `app_state "${state}" cannot replay unattended ${where}: the runner sets it up by clearing the app's data, which iOS does not allow, so every such run reports "needs manual action" and cannot pass; to replay it, ${fix}`,
    fix,
  );
}

/**
 * device_properties.network is checked and set through Wi-Fi, which iOS lets no automation read or
 * switch: the runner then tries to switch it, is refused, and records manual action on every run.
 */
function checkNetwork(ctx: Context, props: unknown): void {
  const where = whereOnIos(ctx.platform);
  if (!isObj(props) || !where) return;
  const network = str(props.network);
  if (network !== 'wifi' && network !== 'connected' && network !== 'disconnected') return;
  const fix = `remove device_properties (keep the orientation with a {"action": "set_orientation", "value": "${str(props.orientation) ?? 'portrait'}"} device action)${ctx.platform === 'ios' ? '' : ', or restrict the scenario to android'}`;
  report(
    ctx,
    '/preconditions/device_properties/network',
    'unattended-replay',
    `device_properties network "${network}" cannot replay unattended ${where}: the runner checks and sets the network through Wi-Fi, which iOS lets no automation read or switch, so every such run reports "needs manual action" and cannot pass; to replay it, ${fix}`,
    fix,
  );
}

function checkPreconditions(ctx: Context, pre: unknown): void {
  if (!isObj(pre)) return;
  checkAppState(ctx, pre.app_state);
  checkNetwork(ctx, pre.device_properties);
  if (!Array.isArray(pre.device_actions)) return;
  pre.device_actions.forEach((da, i) => {
    if (!isObj(da)) return;
    const p = `/preconditions/device_actions/${i}`;
    const value = str(da.value);
    if (da.action === 'set_orientation' && value !== 'portrait' && value !== 'landscape') {
      report(ctx, value === undefined ? p : `${p}/value`, 'device-action-value', 'set_orientation needs "value" portrait or landscape', (value ? didYouMean(value, ['portrait', 'landscape']) : undefined) ?? 'use "portrait" or "landscape"');
    }
    // The runner acts on target_package (else app_package) for these two, and reads value only for the other ones.
    const onPackage = da.action === 'clear_app_data' || da.action === 'uninstall_app';
    const action = String(da.action);
    // A ${NAME} is filled in from the parameters before the run (2.2): its value is checked then.
    if (onPackage && typeof da.target_package === 'string' && !da.target_package.includes('${')) checkPackageValue(ctx, action, da.target_package, `${p}/target_package`, 'target_package', 'precondition ');
    if (!onPackage && da.target_package !== undefined && (DEVICE_ACTIONS as readonly unknown[]).includes(da.action)) {
      report(ctx, `${p}/target_package`, 'field-unused', `precondition ${action} does not use target_package (only clear_app_data and uninstall_app act on a package); it is ignored, remove it`);
    }
    if (onPackage && da.value !== undefined) {
      report(ctx, `${p}/value`, 'field-unused', `precondition ${action} does not use value; it is ignored: name the app in "target_package" (default app_package), or remove value`);
    }
    if ((da.action === 'enable_wifi' || da.action === 'disable_wifi') && da.value !== undefined) {
      report(ctx, `${p}/value`, 'field-unused', `precondition ${action} does not use value (the action says on or off); it is ignored, remove it`);
    }
    if (da.action === 'install_app' && !value) {
      report(ctx, p, 'device-action-value', 'install_app needs "value": the path of the APK (Android) or IPA (iOS) to install', 'set "value" to the app file\'s path, e.g. "builds/app.apk"');
    }
    if (da.action === 'clear_app_data' || da.action === 'enable_wifi' || da.action === 'disable_wifi') {
      if (ctx.platform === 'ios' || ctx.platform === 'cross-platform') {
        const where = ctx.platform === 'ios' ? 'on iOS' : 'when this scenario runs on iOS';
        report(ctx, `${p}/action`, 'unattended-replay', `precondition ${da.action} cannot replay unattended ${where}; do it by hand before the run`);
      }
    }
  });
}

/**
 * `variables` and `parameters` are objects keyed by name (a list instead is the structure pass's
 * type-mismatch). The names valibot's record skips (RESERVED_NAMES) would go unchecked and, at run
 * time, name built-in properties.
 */
function checkDeclarationLists(ctx: Context, doc: Obj): void {
  for (const [field, rule] of [
    ['variables', 'variable-name-format'],
    ['parameters', 'parameter-name-format'],
  ] as const) {
    const list = doc[field];
    if (!isObj(list)) continue;
    for (const name of Object.keys(list)) {
      if (!RESERVED_NAMES.has(name)) continue;
      ctx.out.push({ path: child(`/${field}`, name), rule, atKey: true, message: `"${name}" cannot be a ${field === 'variables' ? 'variable' : 'parameter'} name: it names a built-in property of JavaScript objects, which the runner keeps values in; rename it` });
    }
  }
}

/** All semantic rules over a parsed document (its shape may be partly wrong). */
export function checkSemantics(doc: Obj, opts: SemanticOptions = {}): RawIssue[] {
  const variables = new Map<string, string>();
  if (isObj(doc.variables)) for (const [k, decl] of Object.entries(doc.variables)) variables.set(k, isObj(decl) ? (str(decl.type) ?? 'string') : 'string');
  const ctx: Context = {
    out: [],
    platform: str(doc.platform),
    mode: str(doc.mode),
    version: str(doc.$schema_version),
    variables,
    usedVariables: new Set(),
    parameters: declaredParameters(doc),
    usedParameters: new Set(),
    steps: [],
    stepById: new Map(),
    fileExists: opts.fileExists,
    files: opts.files,
    outer: opts.outer,
  };
  if (doc.mode !== undefined && ctx.version === '2.0') {
    report(ctx, '/mode', 'mode-requires-2.1', '"mode" exists from schema 2.1; set "$schema_version": "2.1" or remove "mode"', 'use "$schema_version": "2.1"');
  }
  if (ctx.version === undefined || !MODE_VERSIONS.has(ctx.version)) ctx.mode = undefined;
  checkPackage(ctx, doc.app_package);
  checkDeclarationLists(ctx, doc);
  collectSteps(doc.steps, '/steps', [], ctx.steps);
  checkIdentity(ctx);
  for (const entry of ctx.steps) checkStep(ctx, entry);
  const assertions = assertionEntries(doc.assertions);
  checkAssertions(ctx, doc.assertions, assertions);
  checkPreconditions(ctx, doc.preconditions);
  checkPermissionPrompts(ctx, doc);
  checkVersionGates(ctx, doc, assertions);
  if (Array.isArray(doc.tags)) {
    const seen = new Set<unknown>();
    doc.tags.forEach((t, i) => {
      if (seen.has(t)) report(ctx, `/tags/${i}`, 'tag-duplicate', `tag "${String(t)}" is listed twice; remove the repeat`);
      seen.add(t);
    });
  }
  checkParameters(ctx, doc);
  for (const name of variables.keys()) {
    if (!ctx.usedVariables.has(name) && VARIABLE_NAME.test(name)) {
      report(ctx, child('/variables', name), 'variable-unused', `variable "${name}" is declared but never captured nor used; remove it or reference it as \${${name}}`);
    }
  }
  return ctx.out;
}
