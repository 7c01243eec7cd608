import type { StepResult } from '../../validate/index.js';

const FAILING = (s: StepResult) => s.status === 'failed' || s.status === 'error';

/**
 * The step a failure happened at. A flow step or a parent whose sub-step failed is failed too,
 * but its own record holds no error code and only says "a step of the flow failed": the summary
 * and JUnit need the step below it that did fail (`login.submit`, ELEMENT_NOT_FOUND). So the first
 * failed or errored step in document order is followed down to its deepest failed descendant.
 */
export function failingStep(steps: readonly StepResult[], bad: (s: StepResult) => boolean = FAILING): StepResult | undefined {
  for (const s of steps) {
    const inner = failingStep(s.sub_steps_executed ?? [], bad);
    if (bad(s)) return inner ?? s;
    if (inner) return inner;
  }
  return undefined;
}

/** "step login.submit failed (ELEMENT_NOT_FOUND)": what a parent's own record says of the child that failed it. */
export function failedBecause(children: readonly StepResult[], what: string): string {
  const cause = failingStep(children);
  if (!cause) return what;
  return `${what}: step ${cause.step_id} ${cause.status === 'error' ? 'errored' : 'failed'}${cause.error_code ? ` (${cause.error_code})` : ''}`;
}

const MANUAL = (s: StepResult) => s.status === 'needs_manual';

/**
 * The verdict of a flow step or a parent on its inner steps: failed or errored as the worst of them;
 * otherwise `needs_manual` when one of them needs manual action, since what the container was for
 * (a "sign out by wiping" flow) did not all happen, and its assertions would judge a screen that was
 * never changed. `what` names the inner steps: "a step of the flow", "a sub-step".
 */
export function innerVerdict(rec: StepResult, what: string): void {
  const inner = rec.sub_steps_executed ?? [];
  if (inner.some((s) => s.status === 'error')) rec.status = 'error';
  else if (inner.some((s) => s.status === 'failed')) rec.status = 'failed';
  else {
    const manual = failingStep(inner, MANUAL);
    if (!manual) return;
    rec.status = 'needs_manual';
    rec.error_message = `${what} needs manual action: step ${manual.step_id} was not done on the device`;
    return;
  }
  rec.error_message = failedBecause(inner, `${what} failed`);
}

/** The step deepest down that needs manual action (not the flow or parent that holds it). */
export function manualStep(steps: readonly StepResult[]): StepResult | undefined {
  return failingStep(steps, MANUAL);
}
