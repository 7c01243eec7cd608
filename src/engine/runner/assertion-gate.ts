/**
 * The 2.2 parts of judging an assertion (SPEC §8): a `condition` that is false makes it skipped,
 * and `timeout_ms` keeps looking until it passes or the time is up. The look itself is the
 * shared assertion evaluation, passed in.
 */
import { UNFILLED_CONDITION_FIELDS, type Assertion, type AssertionResult } from '../../validate/index.js';
import type { VerbContext } from '../verbs/index.js';
import { undecided } from '../assertions/index.js';
import { evaluateCondition, type ConditionEnv } from './conditions.js';
import { interpolateFields } from './variables.js';

type Judged = Omit<AssertionResult, 'screenshot'>;

/** One evaluation of the assertion; `settleMs` is how long a failing look is repeated. */
export type Look = (settleMs: number) => Promise<Judged>;

export async function judgeAssertion(a: Assertion, look: Look, settleMs: number, verbs: VerbContext, refresh: () => void, conditions: ConditionEnv): Promise<Judged> {
  if (a.condition) {
    try {
      const c = await evaluateCondition(interpolateFields(a.condition, conditions.variables, UNFILLED_CONDITION_FIELDS), conditions);
      if (!c.value) return { assertion_id: a.id, type: a.type, status: 'skipped', message: `condition false: ${c.message}` };
    } catch (err) {
      // A look cut short by the cancel decides nothing (SPEC §8: skipped, never error), as for a step's condition.
      if (verbs.signal?.aborted) return { assertion_id: a.id, type: a.type, status: 'skipped', message: `not decided: the run was cancelled while its condition was evaluated (${(err as Error).message})` };
      return { assertion_id: a.id, type: a.type, status: 'error', message: `could not evaluate the condition: ${(err as Error).message}` };
    }
  }
  if (a.timeout_ms === undefined) return look(settleMs);
  // Every type is looked at again here, those the settle rule looks at once included: the author asked to wait.
  // Looks are every poll, the last one at the deadline, none after it: a state reached after the time is
  // up is no pass (until 2026-11-29 a full poll was slept past the deadline and a pass then counted).
  const started = verbs.clock.now();
  const deadline = started + a.timeout_ms;
  for (;;) {
    const lookedAt = verbs.clock.now();
    const judged = await look(0);
    if (judged.status !== 'failed') return judged;
    // The wait was not over: a look failing then is no verdict.
    if (verbs.signal?.aborted) return undecided(judged);
    const left = deadline - verbs.clock.now();
    // Said in the message: a failure after waiting reads otherwise as if the screen was looked at once.
    // The wait is until the last look began: what the screen still showed then.
    if (left <= 0) return a.timeout_ms === 0 ? judged : { ...judged, message: `${judged.message}; still so after waiting ${Math.round(lookedAt - started)} ms (timeout_ms ${a.timeout_ms})` };
    try {
      await verbs.clock.sleep(Math.min(verbs.pollMs, left), verbs.signal);
    } catch (err) {
      if (!verbs.signal?.aborted) throw err;
      return undecided(judged);
    }
    refresh();
  }
}
