import { readFileSync } from 'node:fs';
import type { ResultDocument } from '../../validate/index.js';
import { deviceNotFoundMessage } from '../errors.js';
import { DeterministicResolver, ResolutionCache } from '../resolve/index.js';
import { call, realClock, VerbError, type VerbContext } from '../verbs/index.js';
import { deviceProperties } from '../verbs/device-facts.js';
import { applyPreconditions } from '../verbs/preconditions.js';
import { checkInstallFiles, filledPreconditions } from './precondition-files.js';
import { ParameterScope, plannedSteps, planRun, type RunPlan } from './flows.js';
import { scenarioWithDefaults } from './scenario-input.js';
import { missingParametersMessage } from './parameters.js';
import { paths } from './result-file.js';
import { claimRunId } from './recover.js';
import { previousRun, regressions } from './regressions.js';
import { RunState } from './run-state.js';
import { runSteps } from './step-runner.js';
import { failingStep } from './failing-step.js';
import type { RunOptions, RunResult } from './types.js';
import { verdictText } from './reports/verdict-text.js';

export function toolVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function emptyDocument(options: RunOptions, runId: string, started: Date): ResultDocument {
  const s = options.scenario;
  return {
    run_id: runId,
    schema_version: s.$schema_version,
    scenario_id: s.scenario_id,
    status: 'running',
    metadata: {
      // An object that is not a valid scenario still gets a result document saying so.
      app_version: s.metadata?.app_version ?? '',
      environment: s.metadata?.environment ?? '',
      platform: s.platform,
      device_id: options.device,
      device_model: null,
      os_version: null,
      api_level: null,
      timestamp: started.toISOString(),
      tool_version: toolVersion(),
    },
    started_at: started.toISOString(),
    ended_at: null,
    duration_seconds: null,
    total_assertions: 0,
    passed_assertions: 0,
    failed_assertions: 0,
    skipped_assertions: 0,
    captured_variables: Object.fromEntries(Object.keys(s.variables ?? {}).map((k) => [k, null])),
    steps_executed: [],
    assertion_results: [],
    observations: [],
    summary: 'running',
  };
}

function flatten(steps: ResultDocument['steps_executed']): ResultDocument['steps_executed'] {
  return steps.flatMap((s) => [s, ...flatten(s.sub_steps_executed ?? [])]);
}

/**
 * Replays one validated scenario on one device and returns the finished result document.
 * Never throws for device or app problems: they end up in the document's status and summary.
 */
export async function runScenario(options: RunOptions): Promise<RunResult> {
  const started = new Date();
  // Flows and parameters are settled before anything touches the device (SPEC §8).
  let plan: RunPlan | undefined;
  let planError: VerbError | undefined;
  try {
    plan = planRun(scenarioWithDefaults(options.scenario), options.scenarioDir, options.parameters);
    if (plan.missing.length) planError = new VerbError('INVALID_PARAMETER', missingParametersMessage(plan.missing, options.parameters?.howToGive));
  } catch (err) {
    planError = err instanceof VerbError ? err : new VerbError('INTERNAL', String(err));
  }
  const scenario = plan?.scenario ?? options.scenario;
  const lookup = await options.engine.lookupDevices();
  const devices = lookup.devices;
  const info = lookup.find(options.device);
  const cacheFile = paths.cache(options.outDir, scenario.scenario_id);
  const cache = options.cache === false ? undefined : await ResolutionCache.load(cacheFile);
  // The id is taken exclusively, its lock held from here to the end (a parallel run drawing it draws again).
  const { runId, release: unlock } = await claimRunId(options.outDir, started);
  const doc = emptyDocument({ ...options, scenario }, runId, started);
  const verbs: VerbContext = {
    engine: options.engine,
    device: options.device,
    os: info?.os ?? (scenario.platform === 'ios' ? 'iOS' : 'Android'),
    origin: options.origin ?? 'runner',
    resolver: options.resolver ?? new DeterministicResolver(),
    cache,
    appPackage: scenario.app_package,
    signal: options.signal,
    clock: options.clock ?? realClock,
    targetWaitMs: options.targetWaitMs ?? 3000,
    pollMs: options.pollMs ?? 250,
  };
  const scope = new ParameterScope(plan, options.parameters);
  // The activity feed (bridge viewers, recordings) sees the runner's calls with secrets masked.
  if (scope.mask.active) verbs.redact = (value) => scope.mask.deep(value);
  const state = new RunState(doc, verbs, scenario, info ?? { id: options.device, os: verbs.os, model: '', version: '' }, {
    outDir: options.outDir,
    scenarioDir: options.scenarioDir,
    settleMs: options.settleMs ?? 1000,
    screenshots: options.screenshots ?? 'steps',
    signal: options.signal,
    onProgress: options.onProgress,
  });
  state.scope = scope;
  state.progress({ type: 'started', run_id: runId, scenario_id: scenario.scenario_id, device: options.device, result_file: state.resultFile });

  let fatal: VerbError | undefined = planError;
  let crashed: VerbError | undefined;
  if (fatal) {
    // Nothing ran: the device is not looked at.
  } else if (!info) {
    fatal = new VerbError('DEVICE_NOT_FOUND', deviceNotFoundMessage(options.device, devices.map((d) => d.id)));
  } else {
    doc.metadata.device_model = info.model;
    doc.metadata.os_version = info.version;
    doc.metadata.api_level = (await deviceProperties(verbs)).apiLevel ?? null;
    const platform = info.os === 'iOS' ? 'ios' : 'android';
    if (scenario.platform !== 'cross-platform' && scenario.platform !== platform) {
      fatal = new VerbError('INVALID_PARAMETER', `scenario ${scenario.scenario_id} is for ${scenario.platform} but ${options.device} runs ${info.os}; pick a matching device or make the scenario cross-platform`);
    }
  }
  await state.write();

  if (!fatal) {
    try {
      const preconditions = filledPreconditions(scenario, plan?.values ?? {});
      await checkInstallFiles(preconditions, verbs);
      if (options.reset) {
        await call(verbs, 'mobile_terminate_app', { packageName: scenario.app_package });
        await call(verbs, 'mobile_clear_app_data', { packageName: scenario.app_package }).catch((err: unknown) => {
          if (!(err instanceof VerbError && err.code === 'UNSUPPORTED')) throw err;
          state.observe({ type: 'state_context', step_id: null, message: `--reset could not clear app data on ${options.device}: ${err.message}` });
        });
      }
      const pre = await applyPreconditions(verbs, preconditions, scenario.app_package);
      doc.observations.push(...pre.observations);
      state.needsManual.push(...pre.manual);
    } catch (err) {
      fatal = err instanceof VerbError ? err : new VerbError('INTERNAL', String(err));
    }
  }
  if (!fatal && !state.cancelled()) {
    try {
      await runSteps(state, scenario.steps, doc.steps_executed);
    } catch (err) {
      // A cancel can surface anywhere (a settle, a wait, a look); anything else is a bug reported as such.
      if (!state.cancelled()) crashed = err instanceof VerbError ? err : new VerbError('INTERNAL', err instanceof Error ? err.message : String(err));
    }
  }

  finish(state, fatal, crashed);
  if (doc.status === 'failed' || doc.status === 'error') {
    const previous = await previousRun(state.resultFile, doc);
    if (previous) doc.observations.push(...regressions(previous, doc, scenario));
  }
  scope.mask.inPlace(doc);
  await state.write();
  await unlock();
  // The cache is written by the run too: an entry naming a secret (a `${SECRET}` target, an element
  // showing the typed secret) stays out of it.
  if (cache) await cache.save(cacheFile, (text) => scope.mask.occursIn(text)).catch(() => undefined);
  state.progress({ type: 'finished', run_id: runId, status: doc.status, summary: doc.summary });
  return { document: doc, resultFile: state.resultFile, flows: plan?.flows };
}

function finish(state: RunState, fatal: VerbError | undefined, crashed: VerbError | undefined): void {
  const doc = state.doc;
  const steps = flatten(doc.steps_executed);
  const bad = failingStep(doc.steps_executed);
  const ended = new Date();
  if (state.storageError) {
    doc.status = 'error';
    state.closeUnevaluated('the run could not write its results');
    doc.summary = `error: the run stopped because its results could not be written: ${state.storageError.message}`;
  } else if (state.cancelled()) {
    doc.status = 'cancelled';
    state.closeUnevaluated('the run was cancelled');
    const during = state.cancelledDuring ? ` (during step ${state.cancelledDuring}, whose result is not recorded)` : state.cancelledInCheck ? ` (during ${state.cancelledInCheck}, which was not decided)` : '';
    doc.summary = `cancelled after ${steps.length} step${steps.length === 1 ? '' : 's'}${during}`;
  } else if (fatal) {
    doc.status = 'error';
    state.closeUnevaluated('the run could not start');
    doc.summary = `error before the first step: ${fatal.code}: ${fatal.message}`;
  } else if (crashed) {
    doc.status = 'error';
    state.closeUnevaluated('the run stopped on an internal error');
    doc.summary = `error after ${steps.length} step${steps.length === 1 ? '' : 's'}: ${crashed.code}: ${crashed.message}`;
  } else if (bad?.status === 'error') {
    doc.status = 'error';
    state.closeUnevaluated(`the run stopped at step ${bad.step_id}`);
    doc.summary = `error at step ${bad.step_id} (${bad.action}): ${bad.error_code}: ${bad.error_message}`;
  } else {
    state.closeUnevaluated(bad ? `the run stopped at step ${bad.step_id}` : 'it was not reached');
    const failedAssertions = doc.assertion_results.filter((a) => a.status === 'failed' || a.status === 'error');
    const passed = !bad && failedAssertions.length === 0 && state.needsManual.length === 0;
    doc.status = passed ? 'passed' : 'failed';
    // Skipped steps are counted with the steps, skipped assertions with the assertions: "7/8 steps passed" alone reads as one failure.
    const skippedSteps = steps.filter((s) => s.status === 'skipped').length;
    // Steps after the one that stopped the run are in no count; "1/2 steps passed" of a 10-step scenario hides eight.
    // Those inside a flow or under a parent count too: the order is the run's, inner steps after their step.
    const unreached = bad ? notReached(state, bad.step_id, steps) : 0;
    const notRun = unreached > 0 ? `, ${unreached} later step${unreached === 1 ? '' : 's'} not run` : '';
    const parts = [
      `${steps.filter((s) => s.status === 'passed').length}/${steps.length} steps passed${skippedSteps ? ` (${skippedSteps} skipped)` : ''}${notRun}`,
      `${doc.passed_assertions}/${doc.total_assertions} assertions passed${doc.skipped_assertions ? ` (${doc.skipped_assertions} skipped)` : ''}`,
    ];
    if (bad) parts.push(`step ${bad.step_id} failed: ${bad.error_code ? `${bad.error_code}: ` : ''}${bad.error_message ?? 'no message'}`);
    if (failedAssertions.length) parts.push(failingAssertions(failedAssertions));
    if (state.needsManual.length) parts.push(`needs manual action: ${state.needsManual.join('; ')}`);
    doc.summary = `${doc.status}: ${parts.join('; ')}`;
  }
  doc.ended_at = ended.toISOString();
  doc.duration_seconds = Math.round((ended.getTime() - new Date(doc.started_at).getTime()) / 10) / 100;
}

/** The planned steps after the one the run stopped at that have no record. */
function notReached(state: RunState, stoppedAt: string, recorded: ResultDocument['steps_executed']): number {
  const order = plannedSteps(state.scenario.steps, state.scope.plan?.flows);
  const ran = new Set(recorded.map((s) => s.step_id));
  return order.slice(order.findIndex((s) => s.id === stoppedAt) + 1).filter((s) => !ran.has(s.id)).length;
}

/** How many failing assertions the summary line spells out; the rest are counted. */
const NAMED_IN_SUMMARY = 3;

/** "assertions failed: a (element_exists): msg, b (…): msg, c (…): msg and 2 more" */
export function failingAssertions(list: ResultDocument['assertion_results']): string {
  const named = list.slice(0, NAMED_IN_SUMMARY).map((a) => `${a.assertion_id} ${a.status === 'error' ? 'error' : 'failed'}: ${verdictText(a)}`);
  const more = list.length - named.length;
  return `${list.length} assertion${list.length === 1 ? '' : 's'} not passed: ${named.join(' | ')}${more ? ` | and ${more} more` : ''}`;
}
