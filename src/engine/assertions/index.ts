import type { Assertion, AssertionResult } from '../../validate/index.js';
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
 * Evaluates one assertion. A failing check is looked at again until `settleMs` has passed,
 * because screens finish animating after the step returns; the last verdict counts. `${name}`
 * references must already be filled in by the caller (the runner knows the scenario's variables).
 */
export async function evaluateAssertion(assertion: Assertion, env: AssertionEnv, settleMs: number, refresh: () => void): Promise<Omit<AssertionResult, 'screenshot'>> {
  const base = { assertion_id: assertion.id, type: assertion.type };
  const evaluate = EVALUATORS[assertion.type];
  const deadline = env.verbs.clock.now() + (ONE_LOOK.has(assertion.type) ? 0 : settleMs);
  let verdict: Verdict;
  for (;;) {
    try {
      verdict = await evaluate(assertion as never, env);
    } catch (err) {
      verdict = { pass: false, error: true, message: `could not evaluate: ${(err as Error).message}` };
    }
    if (verdict.pass || verdict.error || env.verbs.clock.now() >= deadline) break;
    try {
      await env.verbs.clock.sleep(env.verbs.pollMs, env.verbs.signal);
    } catch {
      break; // cancelled while settling: judged below
    }
    refresh();
  }
  // A check cut short by a cancel was never decided: it is neither passed nor failed (SPEC §8).
  if (!verdict.pass && env.verbs.signal?.aborted) return { ...base, status: 'skipped', message: `not decided: the run was cancelled while this check was made (last look: ${verdict.message})` };
  const result: Omit<AssertionResult, 'screenshot'> = { ...base, status: verdict.pass ? 'passed' : verdict.error ? 'error' : 'failed', message: verdict.message };
  if (verdict.expected !== undefined) result.expected = verdict.expected;
  if (verdict.actual !== undefined) result.actual = verdict.actual;
  return result;
}
