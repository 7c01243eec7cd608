import type { ResultDocument, StepResult } from '../../../validate/index.js';
import { failingStep, manualStep } from '../failing-step.js';
import { verdictText } from './verdict-text.js';
import { caseNames, titleOf, type NotStartedRun, type ReportedRun } from './types.js';

/**
 * XML text and attribute escaping. What XML 1.0 §2.2 does not allow as a Char at all (control
 * characters, U+FFFE/U+FFFF, unpaired surrogates) is dropped: one of them makes the file unreadable.
 */
export function xml(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * junit.xml is shown as plain text by CI pages (GitLab, Jenkins), which do not isolate what a
 * scenario author or a screen put in a name or message: a bidirectional embedding, override or
 * isolate control (U+202A–U+202E, U+2066–U+2069) there makes the text after it display reordered
 * ("Trojan Source"), so a failing step can read as another. They are written as visible `[U+202E]`;
 * report.html isolates them instead (<bdi>), where the browser keeps them contained.
 */
export function visibleBidi(text: string): string {
  return text.replace(/[\u202A-\u202E\u2066-\u2069]/g, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase()}]`);
}

function flatten(steps: StepResult[]): StepResult[] {
  return steps.flatMap((s) => [s, ...flatten(s.sub_steps_executed ?? [])]);
}

/** A step that failed on its own before a cancel, not the step the cancel interrupted. */
const failedOnItsOwn = (s: StepResult): boolean => s.status === 'failed' && s.error_code !== 'CANCELLED';

const interrupted = (d: ResultDocument): boolean => d.status === 'cancelled' || d.status === 'running';

/**
 * How a run shows as a testcase. A cancelled run that had already failed (an assertion failed, or a
 * step failed and was not let pass) is a failure: <skipped> alone would hide from CI what went wrong
 * before the cancel. The step the cancel interrupted is not a failure of the app.
 */
function caseKind(d: ResultDocument): 'failure' | 'error' | 'skipped' | 'passed' {
  if (d.status === 'failed') return 'failure';
  if (d.status === 'error') return 'error';
  if (!interrupted(d)) return 'passed';
  const failedBefore = d.assertion_results.some((a) => a.status === 'failed') || failingStep(d.steps_executed, failedOnItsOwn) !== undefined;
  return failedBefore ? 'failure' : 'skipped';
}

/**
 * JUnit XML in the common Jenkins/Surefire shape: one <testsuite> per device, one <testcase> per
 * scenario run, named after the scenario (`name`, else its id; see caseNames) with its folder as
 * classname, so CI tools track the same test across machines and checkouts. A failed run carries <failure> with
 * the step and message, an errored one <error>, a cancelled one <skipped> (<failure> when something had
 * failed before the cancel, see caseKind). Scenarios never started
 * (the run was cancelled first) are <skipped> testcases of a suite "not started", so CI counts
 * every scenario of the run and says why some have no result.
 */
export function junitXml(runs: ReportedRun[], notStarted: NotStartedRun[] = []): string {
  const identities = [
    ...runs.map((r) => ({ classname: r.folder || 'scenarios', title: titleOf(r), scenarioId: r.document.scenario_id })),
    ...notStarted.map((n) => ({ classname: n.folder || 'scenarios', title: n.scenario.name || n.scenario.scenario_id, scenarioId: n.scenario.scenario_id })),
  ];
  const names = caseNames(identities);
  const nameOf = new Map<ReportedRun | NotStartedRun, string>([...runs, ...notStarted].map((c, i) => [c, names[i]]));
  const kindOf = new Map(runs.map((r) => [r, caseKind(r.document)]));
  const bySuite = new Map<string, ReportedRun[]>();
  for (const r of runs) bySuite.set(r.document.metadata.device_id, [...(bySuite.get(r.document.metadata.device_id) ?? []), r]);
  const suites = [...bySuite].map(([device, list]) => {
    const count = (kind: ReturnType<typeof caseKind>) => list.filter((r) => kindOf.get(r) === kind).length;
    const time = list.reduce((t, r) => t + (r.document.duration_seconds ?? 0), 0);
    const cases = list.map((run) => {
      const d = run.document;
      const steps = flatten(d.steps_executed);
      // The step that failed itself (inside a flow or under a parent), with its error code; a step
      // needing manual action only when nothing failed.
      const kind = kindOf.get(run)!;
      const bad = failingStep(d.steps_executed, interrupted(d) ? failedOnItsOwn : undefined) ?? manualStep(d.steps_executed);
      const badAssertion = d.assertion_results.find((a) => a.status === 'failed' || a.status === 'error');
      const detail = [
        ...steps.map((s) => `${s.status.padEnd(12)} ${s.step_id} (${s.action})${s.error_message ? `: ${s.error_message}` : ''}`),
        ...d.assertion_results.map((a) => `${a.status.padEnd(12)} assertion ${a.assertion_id} (${a.type}): ${verdictText(a)}`),
      ].join('\n');
      const where = bad ? `step ${bad.step_id}: ${bad.error_message ?? bad.status}` : badAssertion ? `assertion ${badAssertion.assertion_id}: ${verdictText(badAssertion)}` : d.summary;
      let body = '';
      const cancelled = interrupted(d) ? `${d.summary}; before that, ` : '';
      if (kind === 'failure') body = `<failure message="${xml(`${cancelled}${where}`)}" type="${xml(bad?.error_code ?? badAssertion?.type ?? 'failed')}">${xml(detail)}</failure>`;
      else if (kind === 'error') body = `<error message="${xml(d.summary)}" type="${xml(bad?.error_code ?? 'error')}">${xml(detail)}</error>`;
      else if (kind === 'skipped') body = `<skipped message="${xml(d.summary)}"/>`;
      const out = `<system-out>${xml(`${d.summary}\nscenario: ${run.name} (${d.scenario_id})\nresult: results/${d.run_id}.json`)}</system-out>`;
      const classname = run.folder || 'scenarios';
      return `    <testcase classname="${xml(classname)}" name="${xml(nameOf.get(run)!)}" file="${xml(run.name)}" time="${(d.duration_seconds ?? 0).toFixed(3)}">${body}${out}</testcase>`;
    });
    return `  <testsuite name="${xml(device)}" tests="${list.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${time.toFixed(3)}" timestamp="${xml(list[0].document.started_at)}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  if (notStarted.length) {
    const cases = notStarted.map((n) => `    <testcase classname="${xml(n.folder || 'scenarios')}" name="${xml(nameOf.get(n)!)}" file="${xml(n.name)}" time="0.000"><skipped message="${xml(n.reason)}"/></testcase>`);
    suites.push(`  <testsuite name="not started" tests="${notStarted.length}" failures="0" errors="0" skipped="${notStarted.length}" time="0.000">\n${cases.join('\n')}\n  </testsuite>`);
  }
  const total = runs.length + notStarted.length;
  const kinds = [...kindOf.values()];
  const failures = kinds.filter((k) => k === 'failure').length;
  const errors = kinds.filter((k) => k === 'error').length;
  const skipped = kinds.filter((k) => k === 'skipped').length + notStarted.length;
  const seconds = runs.reduce((t, r) => t + (r.document.duration_seconds ?? 0), 0);
  // The markup holds none of them: applied to the whole, it reaches every name, message and body.
  return visibleBidi(`<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mobilebridge" tests="${total}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds.toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`);
}
