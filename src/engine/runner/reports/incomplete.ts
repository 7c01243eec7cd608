import { visibleBidi, xml as esc } from './junit.js';
import { caseNames, type NotStartedRun } from './types.js';

/**
 * The junit.xml and report.html a run puts in place before its first scenario, replaced by the real
 * ones at the end. A run killed on the way (SIGKILL, an OOM kill, a crash) otherwise leaves the
 * previous run's pair in the folder, and CI, which uploads them whatever the exit code, shows that
 * old verdict as this job's. Every planned scenario is an <error>: nothing about it is known yet.
 */
export interface IncompleteRun {
  startedAt: Date;
  pid: number;
  planned: Omit<NotStartedRun, 'reason'>[];
}

function why(run: IncompleteRun): string {
  return (
    `the run started at ${run.startedAt.toISOString()} (pid ${run.pid}) has not written its results: it is still running, ` +
    `or it stopped before it could (killed, crashed, or refused before its first scenario: its output says which); ` +
    `the result documents under results/ hold what it recorded`
  );
}

export function incompleteJunit(run: IncompleteRun): string {
  const message = esc(why(run));
  const names = caseNames(run.planned.map((p) => ({ classname: p.folder || 'scenarios', title: p.scenario.name || p.scenario.scenario_id, scenarioId: p.scenario.scenario_id })));
  const cases = run.planned.map((p, i) => `    <testcase classname="${esc(p.folder || 'scenarios')}" name="${esc(names[i])}" file="${esc(p.name)}" time="0.000"><error message="${message}" type="INCOMPLETE_RUN"/></testcase>`);
  const n = run.planned.length;
  return visibleBidi(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="mobilebridge" tests="${n}" failures="0" errors="${n}">
  <testsuite name="incomplete run" tests="${n}" failures="0" errors="${n}" skipped="0" time="0.000" timestamp="${run.startedAt.toISOString()}">
${cases.join('\n')}
  </testsuite>
</testsuites>
`);
}

export function incompleteHtml(run: IncompleteRun): string {
  const rows = run.planned.map((p) => `<li><bdi>${esc(p.scenario.name || p.scenario.scenario_id)}</bdi> <code><bdi>${esc(p.name)}</bdi></code></li>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mobilebridge report · incomplete run</title></head>
<body style="font:14px/1.45 system-ui,sans-serif;margin:24px"><h1>mobilebridge report · incomplete run</h1>
<p>${esc(why(run))}.</p>
<p>${run.planned.length} scenario${run.planned.length === 1 ? '' : 's'} planned:</p>
<ul>${rows.join('')}</ul>
</body></html>
`;
}
