import { isFlowStep, UNFILLED_CONDITION_FIELDS, type AnyStep, type Step, type StepResult } from '../../validate/index.js';
import { runVerb, VerbError, type VerbContext, type VerbOutcome } from '../verbs/index.js';
import { evaluateCondition, type ConditionEnv } from './conditions.js';
import { innerVerdict, manualStep } from './failing-step.js';
import { coerce, interpolateFields } from './variables.js';
import type { RunState } from './run-state.js';

/** Whether the run goes on after a step. */
export type Flow = 'continue' | 'stop';

const DEFAULT_ATTEMPTS = 3;
const DEFAULT_BACKOFF_MS = 1000;

/** Every field of SPEC §5's step record is present from the start, null or empty until known. */
function record(step: AnyStep, status: StepResult['status']): StepResult {
  return { step_id: step.id, action: isFlowStep(step) ? 'flow' : step.action, status, resolved_target: null, screenshot: null, error_code: null, error_message: null, retried: false, retry_count: 0, step_duration_ms: 0, condition_evaluated: null, sub_steps_executed: [] };
}

/**
 * Runs steps in order with their conditions, retries, optional/skip handling and sub-steps,
 * evaluating each step's assertions right after it. Records go into `into` as they finish.
 */
export async function runSteps(state: RunState, steps: AnyStep[], into: StepResult[]): Promise<Flow> {
  for (const step of steps) {
    if (state.cancelled()) return 'stop';
    const flow = await runStep(state, step, into);
    if (flow === 'stop') return 'stop';
  }
  return 'continue';
}

async function runStep(state: RunState, step: AnyStep, into: StepResult[]): Promise<Flow> {
  const toasts = state.beginStep();
  try {
    return await runOne(state, step, into, toasts);
  } finally {
    state.endStep(toasts);
  }
}

async function runOne(state: RunState, step: AnyStep, into: StepResult[], toasts: readonly string[]): Promise<Flow> {
  const started = performance.now();
  await state.recordTextsBefore(step.id);
  const rec = record(step, 'passed');
  let attached = false;
  /** The screen the step's assertions are judged on, when it is not the step's own screenshot (a parent's, after its sub-steps). */
  let judgedOn: string | null | undefined;
  const finish = async (flow: Flow): Promise<Flow> => {
    rec.step_duration_ms = Math.round(performance.now() - started);
    if (!attached) into.push(rec);
    state.statuses.set(step.id, rec.status);
    await state.stepDone(rec);
    const cutByCancel = flow === 'stop' && state.cancelled();
    // A step a cancel cut short leaves its assertions to the run's end, which says the run was cancelled.
    // Worded by cause: a step that failed did run ("did not run" read as if it had been skipped).
    if (rec.status === 'skipped' && !cutByCancel) state.skipAfter(step, rec.condition_evaluated === false ? `did not run (${rec.error_message ?? 'condition false'})` : `failed and was skipped (${rec.error_message ?? 'skipped'}), so what it should have done was not checked`);
    // What a failed step should have done did not happen: checking it would report on the screen as the
    // failure left it ("Sign in button gone: passed" after the tap on it failed), so it is not checked.
    else if ((rec.status === 'failed' || rec.status === 'error') && !cutByCancel) state.skipAfter(step, `${rec.status === 'error' ? 'ended in an error' : 'failed'}, so what it should have done was not checked`);
    // Nor did a step that needs manual action do anything on the device: its checks would judge the screen
    // before it. A flow or parent holding such a step did only part of its work, so the same holds for it.
    else if (rec.status === 'needs_manual') {
      const inner = manualStep(rec.sub_steps_executed ?? []);
      state.skipAfter(step, `needs manual action (${inner ? `step ${inner.step_id} inside it was not done on the device` : 'nothing was done on the device'}), so what it should have done was not checked`);
    }
    else if (flow === 'continue' || rec.status !== 'error') await state.assertAfter(step.id, judgedOn !== undefined ? judgedOn : (rec.screenshot ?? null), toasts);
    return flow;
  };
  /**
   * A parent or flow goes into the document before its inner steps run, so each inner step that finishes
   * is on disk with it (a crash loses at most the step in flight). Until it finishes it reads as unfinished.
   */
  const attach = async (): Promise<() => void> => {
    attached = true;
    const own = { status: rec.status, message: rec.error_message };
    rec.status = 'error';
    rec.error_message = UNFINISHED;
    into.push(rec);
    await state.write();
    // Called once the inner steps are done: the record is its own again, for the verdict on them.
    return () => void ([rec.status, rec.error_message] = [own.status, own.message]);
  };

  if (step.condition) {
    const env: ConditionEnv = { verbs: state.verbs, facts: () => state.facts(), variables: state.values(), stepStatus: (id) => state.statuses.get(id) };
    try {
      const c = await evaluateCondition(interpolateFields(step.condition, state.values(), UNFILLED_CONDITION_FIELDS), env);
      rec.condition_evaluated = c.value;
      if (!c.value) {
        rec.status = 'skipped';
        rec.error_message = `condition false: ${c.message}`;
        return finish('continue');
      }
    } catch (err) {
      // A look cut short by the cancel is no verdict on the step: like a cut-short action, it is not recorded.
      if (state.cancelled()) {
        state.cancelledDuring ??= step.id;
        return 'stop';
      }
      return fail(step, rec, err, finish);
    }
  }

  if (isFlowStep(step)) return runFlow(state, step, rec, finish, attach);

  let live: Step;
  try {
    live = interpolateFields(step, state.values());
  } catch (err) {
    return fail(step, rec, err, finish);
  }

  const attempts = step.on_failure === 'retry' ? (step.retry_policy?.max_attempts ?? DEFAULT_ATTEMPTS) : 1;
  const backoff = step.retry_policy?.backoff_ms ?? DEFAULT_BACKOFF_MS;
  let outcome: VerbOutcome | undefined;
  let tries = 0;
  const ctx: VerbContext = { ...state.verbs, cacheScope: `${state.scenarioId}/${step.id}` };
  while (tries < attempts) {
    tries++;
    outcome = await runVerb(ctx, live);
    if (outcome.status === 'passed' && step.action === 'capture_value' && step.capture_to) {
      try {
        state.variables[step.capture_to] = coerce(outcome.value ?? '', state.declared[step.capture_to], step.capture_to);
      } catch (err) {
        const e = err as VerbError;
        outcome = { ...outcome, status: 'failed', message: e.message, error: { code: e.code, message: e.message } };
      }
    }
    if (outcome.status !== 'failed' || tries >= attempts || state.cancelled()) break;
    try {
      await state.verbs.clock.sleep(backoff, state.verbs.signal);
    } catch {
      break;
    }
  }
  const o = outcome!;
  if (o.error?.code === 'CANCELLED' || state.cancelled()) {
    // Not recorded (it was cut short, or its result came after the cancel), but the summary names it.
    state.cancelledDuring ??= step.id;
    return 'stop';
  }
  rec.retried = tries > 1;
  rec.retry_count = tries - 1;
  if (o.resolved) rec.resolved_target = { id: o.resolved.id, text: o.resolved.text || o.resolved.label || null, center: o.resolved.center };
  if (o.error) {
    rec.error_code = o.error.code;
    rec.error_message = o.error.message;
  }
  switch (o.status) {
    case 'passed':
      if (rec.retried) state.observe({ type: 'flakiness', step_id: step.id, message: `step ${step.id} passed on attempt ${tries} of ${attempts}; earlier attempts failed` });
      break;
    case 'needs_manual':
      rec.status = 'needs_manual';
      state.needsManual.push(`step ${step.id}: ${o.message}`);
      break;
    case 'error':
      rec.status = 'error';
      await state.screenshotFor(rec, step, true);
      return finish('stop');
    case 'failed': {
      const skip = skippedBy(step);
      if (skip) {
        rec.status = 'skipped';
        rec.error_message = `${skip}: ${o.message}`;
        await state.screenshotFor(rec, step, false);
        return finish('continue');
      }
      rec.status = 'failed';
      await state.screenshotFor(rec, step, true);
      return finish('stop');
    }
  }
  await state.screenshotFor(rec, step, false);
  if (step.sub_steps?.length && rec.status === 'passed') {
    rec.sub_steps_executed = [];
    const innerDone = await attach();
    const flow = await runInside(state, step.sub_steps, rec.sub_steps_executed);
    innerDone();
    innerVerdict(rec, 'a sub-step');
    if (flow === 'stop' && state.cancelled()) cutShort(rec, step.sub_steps.length, 'its sub-steps', 'sub-steps');
    // Its assertions are judged now, on the screen its sub-steps left (as a flow step's): they show that
    // screen, not the parent's own screenshot from before the sub-steps (a red "title is Item 3" beside the list).
    if (rec.status === 'passed' && rec.screenshot && !state.cancelled() && state.hasAssertions(step.id)) judgedOn = (await state.saveScreenshot(`${step.id}+sub-steps`)) ?? null;
    return finish(flow);
  }
  return finish('continue');
}

/** A flow step: the flow's own steps, in its parameter scope, recorded as this step's sub-steps. */
async function runFlow(state: RunState, step: Extract<AnyStep, { flow: string }>, rec: StepResult, finish: (flow: Flow) => Promise<Flow>, attach: () => Promise<() => void>): Promise<Flow> {
  let use;
  try {
    use = state.scope.enter(step, state.variables);
  } catch (err) {
    return fail(step, rec, err, finish);
  }
  rec.sub_steps_executed = [];
  const innerDone = await attach();
  let flow: Flow;
  try {
    flow = await runInside(state, use.steps, rec.sub_steps_executed);
  } finally {
    state.scope.leave();
    innerDone();
  }
  innerVerdict(rec, 'a step of the flow');
  if (flow === 'stop' && state.cancelled()) cutShort(rec, use.steps.length, 'the flow', 'steps');
  // The screen the flow left behind is this step's screenshot, as after any other step (SPEC §5).
  if (!state.cancelled()) await state.screenshotFor(rec, step, rec.status !== 'passed');
  return finish(flow);
}

/**
 * The inner steps of a flow or a parent. A cancel can surface inside them as an error (a wait or a
 * settle in an assertion that follows an inner step); the container's record must still be written,
 * or the steps that ran on the device would vanish from the result with it.
 */
async function runInside(state: RunState, steps: AnyStep[], into: StepResult[]): Promise<Flow> {
  try {
    return await runSteps(state, steps, into);
  } catch (err) {
    if (!state.cancelled()) throw err;
    return 'stop';
  }
}

/**
 * A flow or a parent whose inner steps a cancel stopped did not do its work: `passed` would claim
 * the steps that never ran. `skipped` is what the run's assertions never reached are, too.
 */
function cutShort(rec: StepResult, planned: number, what: string, unit: string): void {
  // Every inner step has its record: only a check after the last one was cut short.
  if (rec.status !== 'passed' || (rec.sub_steps_executed?.length ?? 0) >= planned) return;
  rec.status = 'skipped';
  rec.error_message = `the run was cancelled before ${what} finished: ${rec.sub_steps_executed?.length ?? 0} of its ${planned} ${unit} ran`;
}

/**
 * A step that failed before its action ran (its condition could not be evaluated, a `${name}` had no
 * value yet, a flow could not be entered): the same rule as a failed action, so an optional or
 * `on_failure: skip` step is skipped and the run goes on.
 */
async function fail(step: AnyStep, rec: StepResult, err: unknown, finish: (flow: Flow) => Promise<Flow>): Promise<Flow> {
  const e = err instanceof VerbError ? err : new VerbError('INTERNAL', err instanceof Error ? err.message : String(err));
  rec.status = e.code === 'DEVICE_NOT_FOUND' || e.code === 'INTERNAL' ? 'error' : 'failed';
  rec.error_code = e.code;
  rec.error_message = e.message;
  const skip = skippedBy(step);
  if (rec.status === 'failed' && skip) {
    rec.status = 'skipped';
    rec.error_message = `${skip}: ${e.message}`;
    return finish('continue');
  }
  return finish('stop');
}

/** Why a failure of this step skips it and the run goes on (SPEC §3 `optional`, `on_failure: skip`); a flow step has neither field. */
function skippedBy(step: AnyStep): string | undefined {
  if (isFlowStep(step)) return undefined;
  return step.optional ? 'optional step' : step.on_failure === 'skip' ? 'on_failure skip' : undefined;
}

const UNFINISHED = 'unfinished: its inner steps were still running when this was written (if the run stopped here, it was interrupted)';
