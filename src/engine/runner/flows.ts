/**
 * Reusable flows and the parameter scope of schema 2.2 (SPEC §8). Before the first step, every
 * flow step is expanded into its own copy of the flow's steps and assertions, ids prefixed with
 * the flow step's id ("login.type_email"), so that the step runner and the assertion bookkeeping
 * need no notion of flows. Parameters are resolved per flow use, when it starts.
 */
import { dirname, relative, resolve, sep } from 'node:path';
import {
  isFlowStep,
  loadScenario,
  type AnyStep,
  type Assertion,
  type Condition,
  type FlowStep,
  type Parameters,
  type Scenario,
  type Variables,
} from '../../validate/index.js';
import { MAX_EXPANDED_STEPS } from '../../validate/flow-files.js';
import { readRegularTextSync } from '../../validate/regular-file.js';
import { VerbError } from '../verbs/index.js';
import { resolveParameters, SecretMask, type MissingParameter, type ParameterSources } from './parameters.js';
import { interpolate, interpolateKnown, type VariableValue } from './variables.js';

const SEPARATOR = '.';
const MAX_FLOW_BYTES = 16 * 1024 * 1024;

/** One use of a flow, already prefixed. */
export interface FlowUse {
  file: string;
  steps: AnyStep[];
  parameters?: Parameters;
  /** The flow step's `parameters`, not yet interpolated (they may name this scenario's values). */
  passed: Record<string, string>;
}

/** A scenario with its flows expanded: what the runner needs before the first step. */
export interface RunPlan {
  /** The scenario, its assertions joined by those of every flow use (prefixed). */
  scenario: Scenario;
  flows: Map<string, FlowUse>;
  variables: Variables;
  /** Top-level parameter values. */
  values: Record<string, string>;
  /** Parameters with no value: the scenario's own, and each flow step's (with the step that needs it). */
  missing: MissingParameter[];
  secrets: string[];
}

function prefixCondition(c: Condition | undefined, prefix: string): Condition | undefined {
  return c?.type === 'previous_step_skipped' ? { ...c, step_id: prefix + c.step_id } : c;
}

function prefixSteps(steps: AnyStep[], prefix: string): AnyStep[] {
  return steps.map((s) => {
    const out = { ...s, id: prefix + s.id, condition: prefixCondition(s.condition, prefix) } as AnyStep;
    if (out.condition === undefined) delete out.condition;
    if (!isFlowStep(out) && out.sub_steps) out.sub_steps = prefixSteps(out.sub_steps, prefix);
    return out;
  });
}

/**
 * The flow's assertions under the flow step's prefix. A `reference_screenshot` is written relative
 * to the flow's own file (as the validator reads it), but the run evaluates every assertion against
 * the top scenario's folder, which is also the tree references must stay in: it is rebased there.
 */
function prefixAssertions(list: Assertion[], prefix: string, flowDir: string, rootDir: string): Assertion[] {
  return list.map((a) => {
    const out = { ...a, id: prefix + a.id, after_step: prefix + a.after_step } as Assertion;
    const condition = prefixCondition(a.condition, prefix);
    if (condition) out.condition = condition;
    if (out.type === 'screenshot_match') out.reference_screenshot = relative(rootDir, resolve(flowDir, out.reference_screenshot));
    return out;
  });
}

function loadFlow(path: string, rootDir: string, platform: string): Scenario {
  const inside = path === rootDir || path.startsWith(rootDir.endsWith(sep) ? rootDir : rootDir + sep);
  if (!inside) throw new VerbError('INVALID_PARAMETER', `flow ${path} is outside the scenario's folder ${rootDir}; keep flows inside it`);
  const read = readRegularTextSync(path, MAX_FLOW_BYTES);
  if ('why' in read) throw new VerbError('INVALID_PARAMETER', `cannot read flow ${path}: ${read.why}`);
  // Its own flows are judged on the platform they run on, the top scenario's, as validating the top judged them.
  const loaded = loadScenario(read.text, path, { baseDir: dirname(path), rootDir, platform });
  if (!loaded.scenario) {
    const first = loaded.report.errors.slice(0, 3).map((e) => `${e.rule} at ${e.path || '/'}`).join(', ');
    throw new VerbError('INVALID_PARAMETER', `flow ${path} is not a valid scenario (${first}); run mobilebridge validate on it`);
  }
  return loaded.scenario;
}

/** Steps at every nesting level, a flow step counting as one (its flow is counted where it is expanded). */
function countSteps(steps: readonly AnyStep[]): number {
  return steps.reduce((n, s) => n + 1 + (isFlowStep(s) ? 0 : countSteps(s.sub_steps ?? [])), 0);
}

/**
 * Expands the flows of `scenario` (read relative to `scenarioDir`) and finds the parameters that
 * have no value. Throws INVALID_PARAMETER for a flow that cannot be read or does not validate.
 */
export function planRun(scenario: Scenario, scenarioDir: string, sources: ParameterSources = {}): RunPlan {
  const top = resolveParameters(scenario.parameters, sources);
  const plan: RunPlan = { scenario: { ...scenario }, flows: new Map(), variables: { ...scenario.variables }, values: top.values, missing: top.missing.map((name) => ({ name })), secrets: [...top.secrets] };
  const assertions = [...scenario.assertions];
  const rootDir = resolve(scenarioDir);
  // Each file is read and validated once, however often it is used.
  const loaded = new Map<string, Scenario>();
  let expanded = countSteps(scenario.steps);
  // Where each variable and parameter is declared, for the names that clash across files.
  const variableFiles = new Map(Object.keys(scenario.variables ?? {}).map((name) => [name, 'the scenario']));
  const scopes: [Parameters | undefined, string][] = [[scenario.parameters, 'the scenario']];
  // `declared`: the parameters of the scenario holding the steps, which a flow step can pass on;
  // `known`: their values as far as the run's sources give them.
  const visit = (steps: AnyStep[], dir: string, chain: string[], declared: Parameters | undefined, known: Record<string, string>): void => {
    for (const step of steps) {
      if (!isFlowStep(step)) {
        if (step.sub_steps) visit(step.sub_steps, dir, chain, declared, known);
        continue;
      }
      const file = resolve(dir, step.flow);
      if (chain.includes(file)) throw new VerbError('INVALID_PARAMETER', `flow ${relative(rootDir, file)} includes itself (${[...chain, file].map((f) => relative(rootDir, f)).join(' → ')})`);
      const flow = loaded.get(file) ?? loadFlow(file, rootDir, scenario.platform);
      loaded.set(file, flow);
      // Checked before the copy is made: uses that multiply would fill memory before the run could refuse them.
      expanded += countSteps(flow.steps);
      if (expanded > MAX_EXPANDED_STEPS) {
        const files = [...chain, file].map((f) => relative(rootDir, f));
        const via = (files.length > 6 ? [...files.slice(0, 5), '…', files[files.length - 1]] : files).join(' → ');
        throw new VerbError('INVALID_PARAMETER', `with its flows expanded the scenario is more than ${MAX_EXPANDED_STEPS.toLocaleString('en-US')} steps (past it at flow step ${step.id}: ${via}); every use of a flow copies its steps, so flows used several times inside flows used several times multiply: use them fewer times or split the scenario (mobilebridge validate says the same, rule flow-too-large)`);
      }
      const prefix = step.id + SEPARATOR;
      const use: FlowUse = { file, steps: prefixSteps(flow.steps, prefix), parameters: flow.parameters, passed: step.parameters ?? {} };
      plan.flows.set(step.id, use);
      Object.assign(plan.variables, flow.variables);
      for (const name of Object.keys(flow.variables ?? {})) if (!variableFiles.has(name)) variableFiles.set(name, relative(rootDir, file));
      scopes.push([flow.parameters, relative(rootDir, file)]);
      assertions.push(...prefixAssertions(flow.assertions, prefix, dirname(file), rootDir));
      // A passed value naming the outer parameters is filled in now: a plain parameter passed to a
      // secret one is masked from the first step, not only once the flow starts (steps before it
      // may show it). What names captured variables stays for the flow's start.
      const passedNow = Object.fromEntries(Object.entries(use.passed).map(([k, v]) => [k, interpolateKnown(v, known)]));
      const own = resolveParameters(flow.parameters, sources, passedNow);
      const from = { step: step.id, file: relative(rootDir, file), outer: Object.keys(declared ?? {}) };
      plan.missing.push(...own.missing.map((name) => ({ name, flow: from })));
      plan.secrets.push(...own.secrets.filter((s) => !s.includes('${')));
      visit(use.steps, dirname(file), [...chain, file], flow.parameters, own.values);
    }
  };
  visit(scenario.steps, rootDir, [], scenario.parameters, top.values);
  refuseShadowedParameters(scopes, variableFiles);
  plan.scenario.assertions = assertions;
  if (Object.keys(plan.variables).length) plan.scenario.variables = plan.variables;
  return plan;
}

/**
 * The run keeps one set of variables for the scenario and all its flows, and a step reads `${NAME}`
 * from its parameters and those variables together (ParameterScope.values): a parameter named like a
 * variable of any of the files could not be read. `validate` refuses that (rule
 * parameter-shadows-variable); so does the run, for a scenario validated without its folder.
 */
function refuseShadowedParameters(scopes: readonly [Parameters | undefined, string][], variableFiles: ReadonlyMap<string, string>): void {
  for (const [parameters, where] of scopes) {
    const name = Object.keys(parameters ?? {}).find((n) => variableFiles.has(n));
    if (name === undefined) continue;
    throw new VerbError('INVALID_PARAMETER', `"${name}" is a parameter of ${where} and a variable of ${variableFiles.get(name)}: variables are shared by the scenario and its flows, so \${${name}} would read the variable, never the parameter; rename one (mobilebridge validate says the same, rule parameter-shadows-variable)`);
  }
}

/**
 * The parameter values visible to the step that runs now: the scenario's at the top, a flow's
 * own inside it. Flows share the run's captured variables.
 */
export class ParameterScope {
  private stack: Record<string, string>[];
  readonly mask = new SecretMask();

  constructor(
    readonly plan: RunPlan | undefined,
    readonly sources: ParameterSources = {},
  ) {
    this.stack = [plan?.values ?? {}];
    if (plan) this.mask.add(...plan.secrets);
  }

  /** What `${NAME}` may name now: parameters in scope and captured variables (never the same name: planRun refuses that). */
  values(variables: Record<string, VariableValue>): Record<string, VariableValue> {
    const params = this.stack[this.stack.length - 1];
    return Object.keys(params).length ? { ...params, ...variables } : variables;
  }

  /** Enters a flow use: its parameters, from the flow step (filled in the caller's scope) or the run's sources. */
  enter(step: FlowStep, variables: Record<string, VariableValue>): FlowUse {
    const use = this.plan?.flows.get(step.id);
    if (!use) throw new VerbError('INTERNAL', `flow step ${step.id} was not prepared before the run`);
    const outer = this.values(variables);
    const passed = Object.fromEntries(Object.entries(use.passed).map(([k, v]) => [k, interpolate(v, outer)]));
    const resolved = resolveParameters(use.parameters, this.sources, passed);
    if (resolved.missing.length) throw new VerbError('INVALID_PARAMETER', `flow ${step.flow} has no value for ${resolved.missing.join(', ')}`);
    // A value passed on from a secret of this scenario stays masked: the mask goes by value.
    this.mask.add(...resolved.secrets);
    this.stack.push(resolved.values);
    return use;
  }

  leave(): void {
    if (this.stack.length > 1) this.stack.pop();
  }
}

/** The steps of each flow step as the run expands them (ids prefixed), by the flow step's id. */
export type PlannedFlows = ReadonlyMap<string, { steps: AnyStep[] }>;

/** A step's inner steps as the run has them: a flow step's expanded flow, a parent's sub-steps. */
export function innerSteps(step: AnyStep, flows: PlannedFlows | undefined): AnyStep[] {
  return isFlowStep(step) ? (flows?.get(step.id)?.steps ?? []) : (step.sub_steps ?? []);
}

/** Every step of the run in the order it would run them, inner steps right after their step. */
export function plannedSteps(steps: readonly AnyStep[], flows: PlannedFlows | undefined): AnyStep[] {
  return steps.flatMap((s) => [s, ...plannedSteps(innerSteps(s, flows), flows)]);
}
