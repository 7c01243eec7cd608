/** Per-step semantic rules of SPEC §3: action requirements, mode gating, conditions, references. */
import { checkFlowStep } from './v22-rules.js';
import { checkPropertyValue, checkVariableValue } from './condition-values.js';
import { isAndroidPackage, isIosBundleId } from './targets.js';
import { type Context, type StepEntry, androidOnly, checkDescription, checkRegex, checkStepTexts, checkVariableName, isObj, report, str } from './context.js';
import type { RuleId } from './rules.js';
import { didYouMean } from './suggest.js';
import { looksLikeUrl } from './targets.js';
import {
  ACTIONS,
  DEVICE_PROPERTIES,
  PERMISSION_ACTIONS,
  SCENARIO_BUTTONS,
  SEMANTIC_ACTIONS,
  SWIPE_DIRECTIONS,
  TARGET_ACTIONS,
  VALUE_ACTIONS,
  WAIT_TYPE_OF_ACTION,
} from './vocabulary.js';

const SEMANTIC: ReadonlySet<string> = new Set(SEMANTIC_ACTIONS);

/** What the rules need to know of an action, looked up once per step instead of once per rule. */
interface ActionTraits {
  needsTarget: boolean;
  takesValue: boolean;
  semantic: boolean;
  permission: boolean;
  /** The wait_config.type a wait action needs. */
  waitType?: string;
}
const ACTION_TRAITS: ReadonlyMap<string, ActionTraits> = new Map(
  ACTIONS.map((a) => [
    a,
    { needsTarget: TARGET_ACTIONS.has(a), takesValue: VALUE_ACTIONS.has(a), semantic: SEMANTIC.has(a), permission: PERMISSION_ACTIONS.has(a), waitType: WAIT_TYPE_OF_ACTION[a] },
  ]),
);
const WAIT_TYPES_OF_ACTIONS: readonly string[] = Object.values(WAIT_TYPE_OF_ACTION);
const SEMANTIC_HINT: Record<string, string> = {
  press_back: 'or, in platform-aware mode, use press_button with value BACK (Android only)',
  dismiss_keyboard: 'or tap outside the field with a tap step',
  grant_permission: 'or tap the dialog button ("Allow") with a tap step',
  deny_permission: 'or tap the dialog button ("Don\'t allow") with a tap step',
};

/**
 * A 2.2 assertion's condition: the step condition's rules. It is evaluated right after `after_step`
 * (whose sub-steps have run by then), so a previous_step_skipped names that step, an earlier one or
 * one nested under it: any other has not run yet, and "never ran" counts as skipped, so the
 * condition would always hold.
 */
export function checkAssertionCondition(ctx: Context, cond: unknown, pointer: string, afterStep: string | undefined): void {
  const after = afterStep === undefined ? undefined : ctx.stepById.get(afterStep);
  checkCondition(ctx, undefined, cond, pointer, after && afterStep !== undefined ? { id: afterStep, entry: after } : undefined);
}

function hasRunAfter(ref: string, target: StepEntry, after: { id: string; entry: StepEntry }): boolean {
  if (target.ancestors.includes(after.id)) return true;
  return target.order <= after.entry.order && !after.entry.ancestors.includes(ref);
}

/** `entry` is the step that carries the condition; none for an assertion's condition, which is checked after `checkedAfter`. */
function checkCondition(ctx: Context, entry: StepEntry | undefined, cond: unknown, p: string, checkedAfter?: { id: string; entry: StepEntry }): void {
  if (!isObj(cond)) return;
  switch (cond.type) {
    case 'previous_step_skipped': {
      const ref = str(cond.step_id);
      if (ref === undefined) return;
      const target = ctx.stepById.get(ref);
      if (!target) {
        report(ctx, `${p}/step_id`, 'condition-step-unknown', `step_id "${ref}" names no step; use the id of an earlier step`, didYouMean(ref, ctx.stepById.keys()));
      } else if (entry && (target.order >= entry.order || entry.ancestors.includes(ref))) {
        const why = target === entry ? 'is this step itself' : entry.ancestors.includes(ref) ? 'encloses this step (it has not finished)' : 'comes later';
        report(ctx, `${p}/step_id`, 'condition-step-not-earlier', `step_id "${ref}" ${why}; previous_step_skipped must name a step that runs before this one`);
      } else if (checkedAfter && !hasRunAfter(ref, target, checkedAfter)) {
        const why = checkedAfter.entry.ancestors.includes(ref) ? `encloses step ${checkedAfter.id} (it has not finished)` : `comes after step ${checkedAfter.id}`;
        report(ctx, `${p}/step_id`, 'condition-step-not-earlier', `step_id "${ref}" ${why}, so it has not run when this assertion is checked and would always count as skipped; name ${checkedAfter.id} or a step before it, or move the assertion's after_step`);
      }
      return;
    }
    case 'variable_value': {
      const name = str(cond.variable_name);
      checkVariableName(ctx, name, p, 'variable_name');
      const type = name === undefined ? undefined : ctx.variables.get(name);
      if (name !== undefined && type) checkVariableValue(ctx, name, type, cond, p);
      return;
    }
    case 'device_property': {
      const prop = str(cond.property);
      if (!prop || !(DEVICE_PROPERTIES as readonly string[]).includes(prop)) return;
      checkPropertyValue(ctx, prop, cond, p);
      return;
    }
    case 'element_visible':
      checkDescription(ctx, cond.element_description, p, 'element_description');
      return;
  }
}

function checkWait(ctx: Context, entry: StepEntry, action: string, traits: ActionTraits): void {
  const { step, pointer } = entry;
  const wanted = traits.waitType;
  const wc = step.wait_config;
  if (wanted && wc === undefined) {
    report(ctx, pointer, 'wait-config-required', `${action} needs "wait_config"; add "wait_config": {"type": "${wanted}", "timeout_ms": 10000}`);
  }
  if (!isObj(wc)) return;
  if (!wanted) {
    report(ctx, `${pointer}/wait_config`, 'wait-config-unused', `${action} does not wait, so wait_config is ignored; remove it or use a wait_for_* action`);
    return;
  }
  if (typeof wc.type === 'string' && wc.type !== wanted && WAIT_TYPES_OF_ACTIONS.includes(wc.type)) {
    report(ctx, `${pointer}/wait_config/type`, 'wait-config-type', `${action} waits for "${wanted}", not "${wc.type}"; set wait_config.type to "${wanted}"`, `use "${wanted}"`);
  }
  if (wc.indicator !== undefined && wc.type !== 'loading_complete') {
    report(ctx, `${pointer}/wait_config/indicator`, 'wait-indicator', `indicator applies only to wait_config.type loading_complete; remove it`, 'remove "indicator"');
  }
}

function checkUnused(ctx: Context, { pointer }: StepEntry, action: string, field: string, given: unknown, why: string): void {
  if (given !== undefined) report(ctx, `${pointer}/${field}`, 'field-unused', `${action} does not use ${field} (${why}); it is ignored, remove it`);
}

function checkActionFields(ctx: Context, entry: StepEntry, action: string, traits: ActionTraits): void {
  const { step, pointer } = entry;
  const value = str(step.value);
  if (traits.needsTarget && step.target === undefined && step.target_pattern === undefined) {
    report(ctx, pointer, 'target-required', `${action} needs "target" (a description such as "the Sign in button") or "target_pattern" (a regex over the element text); add one`, 'add "target", e.g. "the Sign in button"');
  }
  if ((action === 'type' || action === 'open_url') && step.value === undefined) {
    const example = action === 'type' ? '"value": "user@example.com"' : '"value": "https://example.com"';
    report(ctx, pointer, 'value-required', `${action} needs "value"; add it, e.g. ${example}`, `add "value", e.g. ${example}`);
  }
  // The runner types nothing for "": only with clear_first (2.2) does such a step do something, empty the field.
  if (action === 'type' && step.value === '' && step.clear_first !== true) {
    report(ctx, `${pointer}/value`, 'value-required', 'type has an empty "value", so there is nothing to type and the run would stop at this step; give the text to type, or add "clear_first": true (schema 2.2) to only empty the field', 'give the text to type, e.g. "user@example.com"');
  }
  if (action === 'open_url' && value !== undefined && !looksLikeUrl(value)) {
    report(ctx, `${pointer}/value`, 'url-invalid', `"${value}" is not a URL or deep link; give a full URL with its scheme`, `use "https://${value}"`);
  }
  // The runner fills ${NAME} in before the verb sees the value: a reference (checked by checkStepTexts) may hold any entry of the list.
  const filled = value !== undefined && (action === 'swipe' || action === 'press_button') && holdsReference(value);
  if (action === 'swipe' && !filled && !(SWIPE_DIRECTIONS as readonly string[]).includes(value ?? '')) {
    report(ctx, value === undefined ? pointer : `${pointer}/value`, 'swipe-direction', `swipe needs "value" up, down, left or right${value === undefined ? '' : `, not "${value}"`}`, (value && didYouMean(value, SWIPE_DIRECTIONS)) || 'use "up", "down", "left" or "right"');
  }
  if (action === 'press_button' && !filled && !(SCENARIO_BUTTONS as readonly string[]).includes(value ?? '')) {
    report(ctx, value === undefined ? pointer : `${pointer}/value`, 'press-button-value', `press_button needs "value" BACK, HOME or ENTER${value === undefined ? '' : `, not "${value}"`}`, (value && didYouMean(value, SCENARIO_BUTTONS)) || 'use "BACK", "HOME" or "ENTER"');
  }
  if (traits.semantic && ctx.mode !== 'platform-agnostic') {
    report(ctx, `${pointer}/action`, 'action-requires-agnostic-mode', `${action} needs "mode": "platform-agnostic" at the root (with "$schema_version": "2.1"); add it, ${SEMANTIC_HINT[action]}`, `add "mode": "platform-agnostic" at the root, ${SEMANTIC_HINT[action]}`);
  }
  if (action === 'capture_value') {
    if (step.capture_to === undefined) report(ctx, pointer, 'capture-to-missing', 'capture_value needs "capture_to": the declared variable that receives the captured text; add it', 'add "capture_to" with the name of a declared variable');
  } else if (step.capture_to !== undefined) {
    report(ctx, `${pointer}/capture_to`, 'capture-to-wrong-action', `capture_to only works with action capture_value, not ${action}; remove it or change the action`, 'remove "capture_to", or change the action to capture_value');
  }
  const capture = str(step.capture_to);
  if (action === 'capture_value' && capture !== undefined) {
    ctx.usedVariables.add(capture);
    if (!ctx.variables.has(capture)) {
      const message = ctx.parameters.has(capture)
        ? `capture_to "${capture}" is a parameter: its value is given at run time and cannot be captured into; capture into a variable of another name, e.g. add "${capture}_SEEN": {"type": "string", "description": "..."} to "variables"`
        : `capture_to "${capture}" is not declared; add "${capture}": {"type": "string", "description": "..."} to "variables"`;
      report(ctx, `${pointer}/capture_to`, 'capture-to-undeclared', message, didYouMean(capture, ctx.variables.keys()));
    }
  }
  // SPEC §8: `type` taps its target first, `launch_app` launches `value` instead of app_package.
  if (!traits.needsTarget && action !== 'type') {
    checkUnused(ctx, entry, action, 'target', step.target, 'no element is involved');
    checkUnused(ctx, entry, action, 'target_pattern', step.target_pattern, 'no element is involved');
  }
  // launch_app and clear_app_data take `value` as the package to act on instead of app_package.
  const packageValue = action === 'launch_app' || action === 'clear_app_data';
  if (!traits.takesValue && !packageValue) checkUnused(ctx, entry, action, 'value', step.value, 'it takes no text, direction, button or URL');
  if (action !== 'type') checkUnused(ctx, entry, action, 'clear_first', step.clear_first, 'only type empties a field before typing');
  if (!traits.permission) checkUnused(ctx, entry, action, 'permission_name', step.permission_name, 'only grant_permission / deny_permission use it');
  if ((packageValue && value !== undefined) || action === 'clear_app_data' || (action === 'press_button' && value === 'BACK')) checkPlatform(ctx, entry, action, value);
}

/** Reports one problem; `iosOnly` marks one that only a run on iOS meets. */
type Emit = (path: string, rule: RuleId, message: string, suggestion?: string, iosOnly?: boolean) => void;

/**
 * The rules that depend on the platform the step runs on. `name` is how a message names the step
 * (a flow's step is named by the scenario using it).
 */
function platformRules(ctx: Context, entry: StepEntry, action: string, value: string | undefined, platform: string | undefined, name: string, emit: Emit): void {
  const { pointer } = entry;
  if (action === 'press_button') {
    if (platform === 'ios') {
      emit(`${pointer}/value`, 'press-button-back-ios', 'iOS has no BACK button; tap the screen\'s back control instead, or use press_back with "mode": "platform-agnostic"', 'tap "the Back button in the navigation bar"');
    } else if (platform === 'cross-platform' && !androidOnly(ctx, entry)) {
      emit(`${pointer}/value`, 'unattended-replay', 'press_button BACK fails when this cross-platform scenario runs on iOS (iOS has no BACK button); tap the screen\'s back control instead, or use press_back with "mode": "platform-agnostic"', 'tap "the Back button in the navigation bar"', true);
    }
    return;
  }
  if (value !== undefined && !value.includes('${')) {
    const problem = packageProblem(action, value, platform);
    if (problem) emit(`${pointer}/value`, 'app-package-invalid', problem);
  }
  if (action === 'clear_app_data' && (platform === 'ios' || platform === 'cross-platform')) {
    const where = platform === 'ios' ? 'on iOS' : 'when this cross-platform scenario runs on iOS';
    emit(`${pointer}/action`, 'unattended-replay', `${name} cannot replay unattended ${where} (no platform primitive); the runner marks it needs_manual`, 'do it by hand before the run, or restrict the scenario to android');
  }
}

/**
 * Against the document's platform, and for a flow also against the platform of the scenario using
 * it (its steps run there, SPEC §8): those problems go to that scenario, which reports them on its flow step.
 */
function checkPlatform(ctx: Context, entry: StepEntry, action: string, value: string | undefined): void {
  const id = str(entry.step.id) ?? entry.pointer;
  platformRules(ctx, entry, action, value, ctx.platform, `step "${id}" (${action})`, (path, rule, message, suggestion) => report(ctx, path, rule, message, suggestion));
  const outer = ctx.outer;
  if (!outer) return;
  platformRules(ctx, entry, action, value, outer.platform, action, (_path, rule, message, suggestion, iosOnly) => {
    outer.issues.push({ rule, step: id, file: outer.file, message, ...(suggestion ? { suggestion } : {}), ...(iosOnly ? { iosOnly } : {}) });
  });
}

/** A `${NAME}` the runner fills in, not a `$${` written for a literal "${". */
const holdsReference = (text: string): boolean => text.includes('${') && text.replace(/\$\$\{/g, '').includes('${');

const PACKAGE_VERBS: Record<string, string> = { launch_app: 'launch', clear_app_data: 'clear', uninstall_app: 'uninstall' };

/**
 * A package the run acts on instead of app_package: a step's `value` (launch_app, clear_app_data) or
 * a precondition's `target_package` (clear_app_data, uninstall_app; `owner` "precondition").
 */
export function checkPackageValue(ctx: Context, action: string, pkg: string, path: string, field = 'value', owner = ''): void {
  const problem = packageProblem(action, pkg, ctx.platform, field, owner);
  if (problem) report(ctx, path, 'app-package-invalid', problem);
}

function packageProblem(action: string, pkg: string, platform: string | undefined, field = 'value', owner = ''): string | undefined {
  const ok = platform === 'android' ? isAndroidPackage(pkg) : platform === 'ios' ? isIosBundleId(pkg) : isAndroidPackage(pkg) || isIosBundleId(pkg);
  const what = PACKAGE_VERBS[action] ?? 'act on';
  return ok ? undefined : `${owner}${action} ${field} "${pkg}" is not a package name or bundle id, so there is no app to ${what}; give one such as "com.example.shop", or remove ${field} to ${what} app_package`;
}

export function checkStep(ctx: Context, entry: StepEntry): void {
  const { step, pointer } = entry;
  const action = str(step.action);
  // A step with `flow` is a flow step: its `action`, if any, is reported as an unknown property.
  const traits = action === undefined ? undefined : ACTION_TRAITS.get(action);
  if (action && traits && step.flow === undefined) {
    checkActionFields(ctx, entry, action, traits);
    checkWait(ctx, entry, action, traits);
  }
  if (step.retry_policy !== undefined && step.on_failure !== 'retry') {
    report(ctx, `${pointer}/retry_policy`, 'retry-policy-ignored', 'retry_policy applies only with "on_failure": "retry"; add that or remove the policy');
  }
  checkRegex(ctx, step.target_pattern, pointer, 'target_pattern');
  checkDescription(ctx, step.target, pointer, 'target');
  checkStepTexts(ctx, step, pointer);
  if (step.condition !== undefined) checkCondition(ctx, entry, step.condition, `${pointer}/condition`);
  if (step.flow !== undefined) checkFlowStep(ctx, entry);
}
