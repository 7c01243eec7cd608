/**
 * Pure helpers of the Validate tab's Run: which assertions a step is followed by, how a step's
 * screenshot is addressed on the bridge, and what a result document says in one line.
 */

/** An assertion as the scenario declares it: which step it follows and how long it may wait. */
export interface PendingAssertion {
  id: string;
  type: string;
  timeoutMs?: number;
}

/**
 * The scenario's assertions by the step they follow (`after_step`), so the panel can show one as
 * being checked (a waiting one for up to its `timeout_ms`) between its step's report and its own.
 */
export function assertionsByStep(scenarioText: string): Map<string, PendingAssertion[]> {
  const byStep = new Map<string, PendingAssertion[]>();
  let doc: unknown;
  try {
    doc = JSON.parse(scenarioText);
  } catch {
    return byStep;
  }
  const list = (doc as { assertions?: unknown } | null)?.assertions;
  if (!Array.isArray(list)) return byStep;
  for (const raw of list) {
    const a = (raw && typeof raw === 'object' ? raw : {}) as { id?: unknown; type?: unknown; after_step?: unknown; timeout_ms?: unknown };
    if (typeof a.id !== 'string' || typeof a.after_step !== 'string') continue;
    const pending: PendingAssertion = { id: a.id, type: typeof a.type === 'string' ? a.type : '', ...(typeof a.timeout_ms === 'number' && a.timeout_ms > 0 ? { timeoutMs: a.timeout_ms } : {}) };
    byStep.set(a.after_step, [...(byStep.get(a.after_step) ?? []), pending]);
  }
  return byStep;
}

/** "waiting up to 8 s for it to pass" / "checking" */
export function pendingText(a: PendingAssertion): string {
  return a.timeoutMs ? `waiting up to ${Number((a.timeoutMs / 1000).toFixed(1))} s for it to pass…` : 'checking…';
}

/**
 * Where the bridge serves a step screenshot of a run it started (GET /api/runs/<run>/screenshots/<file>).
 * `relative` is the result document's `screenshot` (screenshots/<scenario>/<run>/<step>.png, either
 * slash); the token rides along for browsers that keep no cookie.
 */
export function screenshotUrl(runId: string, relative: string, pageSearch: string): string {
  const file = relative.split(/[\\/]/).pop() ?? '';
  const token = new URLSearchParams(pageSearch).get('token');
  return `/api/runs/${encodeURIComponent(runId)}/screenshots/${encodeURIComponent(file)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

export type RunStatus = 'running' | 'passed' | 'failed' | 'error' | 'cancelled';

/** The fields of a result document (SPEC §5) the panel shows. */
export interface ResultView {
  run_id: string;
  status: RunStatus;
  summary?: string;
  duration_seconds?: number;
  total_assertions?: number;
  passed_assertions?: number;
  failed_assertions?: number;
  skipped_assertions?: number;
  steps_executed?: StepView[];
  assertion_results?: AssertionView[];
}

export interface StepView {
  step_id: string;
  action: string;
  status: string;
  screenshot?: string | null;
  error_code?: string | null;
  error_message?: string | null;
  step_duration_ms?: number;
  resolved_target?: { text?: string | null } | null;
  sub_steps_executed?: StepView[];
}

export interface AssertionView {
  assertion_id: string;
  type: string;
  status: string;
  expected?: unknown;
  actual?: unknown;
  message?: string;
  screenshot?: string | null;
}

/** A result document, or undefined when the answer is something else (a validation envelope, a failure). */
export function asResult(value: unknown): ResultView | undefined {
  const v = value as Partial<ResultView> | null;
  return v && typeof v === 'object' && typeof v.run_id === 'string' && typeof v.status === 'string' ? (v as ResultView) : undefined;
}

/** "passed — 3 steps, 2 of 2 assertions passed, 4.1 s" */
export function verdictLine(doc: ResultView): string {
  const steps = doc.steps_executed?.length ?? 0;
  const parts = [`${steps} step${steps === 1 ? '' : 's'}`];
  if (doc.total_assertions) parts.push(`${doc.passed_assertions ?? 0} of ${doc.total_assertions} assertions passed${doc.skipped_assertions ? `, ${doc.skipped_assertions} skipped` : ''}`);
  if (doc.duration_seconds !== undefined) parts.push(`${doc.duration_seconds.toFixed(1)} s`);
  return `${doc.status} — ${parts.join(', ')}`;
}

/** A value for the expected/actual columns: strings as they are, anything else as JSON. */
export function shown(value: unknown): string {
  if (value === undefined || value === null) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
