import type { Assertion, AssertionResult } from '../../validate/index.js';
import type { UiElement } from '../types.js';
import { isLoadingIndicator, screenFingerprint } from '../verbs/index.js';
import { elementEvaluators } from './elements.js';
import { screenEvaluators } from './screen.js';
import type { AssertionEnv, Evaluator, Verdict } from './types.js';

export type { AssertionEnv, Verdict, VariableValue } from './types.js';
export { compare, type Operator } from './compare.js';
export { darkMode } from './dark-mode.js';
export { meanLuminance } from './observe.js';

const EVALUATORS = { ...elementEvaluators, ...screenEvaluators } as Record<Assertion['type'], Evaluator>;

/** Types whose answer does not change by looking again (or must not be looked at twice). */
const ONE_LOOK = new Set<Assertion['type']>(['screenshot_match', 'text_changed', 'toast_visible']);

/**
 * What the screen showed at one look, or undefined while something still loads. Two equal looks
 * a poll apart mean the screen is still: a failing check would fail again.
 */
async function stillLook(env: AssertionEnv): Promise<string | undefined> {
  let elements: UiElement[];
  try {
    elements = await env.elements();
  } catch {
    return undefined;
  }
  if (elements.some((e) => isLoadingIndicator(e, 'any'))) return undefined;
  return screenFingerprint(elements);
}

/**
 * A check a cancel cut short (settling, or waiting out its `timeout_ms`) was never decided: it is
 * neither passed nor failed (SPEC §8), and what it saw last is kept.
 */
export function undecided(last: Pick<AssertionResult, 'assertion_id' | 'type' | 'message'>): Omit<AssertionResult, 'screenshot'> {
  return { assertion_id: last.assertion_id, type: last.type, status: 'skipped', message: `not decided: the run was cancelled while this check was made (last look: ${last.message})` };
}

/**
 * Evaluates one assertion. A failing check is looked at again while the screen settles (up to
 * `settleMs`: screens finish animating after the step returns); the last verdict counts. The
 * settle ends early once two looks a poll apart show the same still screen: nothing is moving
 * that could change the verdict, so a failure decided at once costs one poll, not the whole settle. `${name}`
 * references must already be filled in by the caller (the runner knows the scenario's variables).
 */
export async function evaluateAssertion(assertion: Assertion, env: AssertionEnv, settleMs: number, refresh: () => void): Promise<Omit<AssertionResult, 'screenshot'>> {
  const base = { assertion_id: assertion.id, type: assertion.type };
  const evaluate = EVALUATORS[assertion.type];
  const deadline = env.verbs.clock.now() + (ONE_LOOK.has(assertion.type) ? 0 : settleMs);
  let verdict: Verdict;
  let previous: string | undefined;
  // What the device said of the listing the verdict was made on: a failure then names the cause a
  // reader cannot see in "not found" (Android's crash dialog over the app, an iOS tree cut short).
  let note: string | undefined;
  const looked: AssertionEnv = { ...env, elements: () => env.elements().then((listing) => ((note = listing.note), listing)) };
  for (;;) {
    note = undefined;
    try {
      verdict = await evaluate(assertion as never, looked);
    } catch (err) {
      verdict = { pass: false, error: true, message: `could not evaluate: ${(err as Error).message}` };
    }
    if (verdict.pass || verdict.error || env.verbs.clock.now() >= deadline) break;
    const look = await stillLook(env);
    if (look !== undefined && look === previous) break;
    previous = look;
    try {
      await env.verbs.clock.sleep(env.verbs.pollMs, env.verbs.signal);
    } catch {
      break; // cancelled while settling: judged below
    }
    refresh();
  }
  if (!verdict.pass && env.verbs.signal?.aborted) return undecided({ ...base, message: verdict.message });
  const message = !verdict.pass && note ? `${verdict.message}; ${note}` : verdict.message;
  const result: Omit<AssertionResult, 'screenshot'> = { ...base, status: verdict.pass ? 'passed' : verdict.error ? 'error' : 'failed', message };
  if (verdict.expected !== undefined) result.expected = verdict.expected;
  if (verdict.actual !== undefined) result.actual = verdict.actual;
  return result;
}
