import { join } from 'node:path';
import type { AnyStep, AssertionResult, ResultDocument, StepResult } from '../../../validate/index.js';
import { xml as esc } from './junit.js';
import { titleOf, type NotStartedRun, type ReportedRun } from './types.js';
import { loadSharp } from '../../screen/sharp.js';
import { readInside } from '../../files/safe-fs.js';
import { plannedSteps, type PlannedFlows } from '../flows.js';

/** Thumbnails: small JPEGs inlined so the page stands alone; the full PNG is linked beside it. */
const THUMB_WIDTH = 160;
const THUMB_QUALITY = 60;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1b1f;background:#fafafa}
h1{font-size:20px}h2{font-size:16px;margin:0;display:inline}h2,code{unicode-bidi:isolate}
.run{background:#fff;border:1px solid #ddd;border-radius:8px;margin:16px 0;padding:16px}
summary{cursor:pointer}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff}
.passed{background:#1e8e3e}.failed{background:#d93025}.error{background:#a142f4}.skipped,.cancelled,.running,.unreached{background:#80868b}.needs_manual{background:#f29900}
table{border-collapse:collapse;width:100%;margin-top:8px}td,th{border-top:1px solid #eee;padding:6px;text-align:left;vertical-align:top}
th{font-size:12px;color:#5f6368}.msg{color:#5f6368;font-size:12px}img{width:${THUMB_WIDTH / 2}px;border:1px solid #ccc;border-radius:4px}
.sub td:first-child{padding-left:24px}code{font-size:12px}`;

/**
 * Text from the scenario, the device or a bridge where more follows it in the same line, isolated: a
 * right-to-left override left open in it would reverse the rest of the line (the device, the run id).
 * A table cell, a block and an <h2> or <code> (isolated by the style) end an override by themselves.
 */
function text(value: string): string {
  return `<bdi>${esc(value)}</bdi>`;
}

async function thumbnail(outDir: string, rel: string | null | undefined): Promise<string> {
  if (!rel) return '';
  try {
    // Only what lies in the output folder is inlined: a path in a bridge's document may point anywhere.
    const png = await readInside(join(outDir, rel), { roots: [outDir], param: 'screenshot' });
    const jpeg = await (await loadSharp())(png).resize({ width: THUMB_WIDTH, withoutEnlargement: true }).flatten({ background: '#ffffff' }).jpeg({ quality: THUMB_QUALITY, mozjpeg: true }).toBuffer();
    return `<a href="${esc(rel)}"><img alt="screenshot (full size: ${esc(rel)})" loading="lazy" src="data:image/jpeg;base64,${jpeg.toString('base64')}"></a>`;
  } catch {
    return `<span class="msg">missing ${esc(rel)}</span>`;
  }
}

async function stepRows(outDir: string, steps: StepResult[], depth = 0): Promise<string> {
  const rows: string[] = [];
  for (const s of steps) {
    const target = s.resolved_target ? `${esc(JSON.stringify(s.resolved_target.text ?? s.resolved_target.id))}<div class="msg">id ${text(s.resolved_target.id)} at (${s.resolved_target.center.x}, ${s.resolved_target.center.y})</div>` : '';
    const retry = s.retried ? `<div class="msg">retried ${s.retry_count}×</div>` : '';
    const cond = s.condition_evaluated === null || s.condition_evaluated === undefined ? '' : `<div class="msg">condition ${s.condition_evaluated}</div>`;
    const error = s.error_message ? `<div class="msg">${esc(s.error_code ?? '')} ${esc(s.error_message)}</div>` : '';
    rows.push(`<tr class="${depth ? 'sub' : ''}"><td><code>${esc(s.step_id)}</code>${retry}${cond}</td><td>${esc(s.action)}</td><td><span class="badge ${esc(s.status)}">${esc(s.status)}</span>${error}</td><td>${target}</td><td>${s.step_duration_ms ?? 0} ms</td><td>${await thumbnail(outDir, s.screenshot)}</td></tr>`);
    if (s.sub_steps_executed?.length) rows.push(await stepRows(outDir, s.sub_steps_executed, depth + 1));
  }
  return rows.join('\n');
}

/**
 * Steps of the scenario with no record: the run stopped before them, or their parent did not run.
 * A flow's steps are among them when the run's expansion of its flows is given (`flows`).
 */
export function unreachedSteps(scenario: Pick<ReportedRun, 'scenario'>['scenario'], d: ResultDocument, flows?: PlannedFlows): AnyStep[] {
  if (!scenario) return [];
  const ran = new Set<string>();
  const note = (list: StepResult[]) => list.forEach((s) => (ran.add(s.step_id), note(s.sub_steps_executed ?? [])));
  note(d.steps_executed);
  return plannedSteps(scenario.steps, flows).filter((s) => !ran.has(s.id));
}

function unreachedRows(steps: AnyStep[]): string {
  const row = (id: string, action: string, what: string) => `<tr><td><code>${esc(id)}</code></td><td>${esc(action)}</td><td><span class="badge unreached">not run</span></td><td>${esc(what)}</td><td></td><td></td></tr>`;
  return steps.map((s) => ('flow' in s ? row(s.id, 'flow', s.flow) : row(s.id, s.action, s.target ?? s.value ?? ''))).join('\n');
}

/**
 * The screen an assertion was judged on is shown when no step row shows it already: a waiting
 * assertion's last look, the screen a parent's sub-steps or a flow's steps left.
 */
async function assertionRows(outDir: string, results: AssertionResult[], stepShots: Set<string>): Promise<string> {
  const show = (v: unknown) => (v === undefined || v === null ? '' : esc(typeof v === 'string' ? v : JSON.stringify(v)));
  const rows: string[] = [];
  for (const a of results) {
    const shot = a.screenshot && !stepShots.has(a.screenshot) ? await thumbnail(outDir, a.screenshot) : '';
    rows.push(`<tr><td><code>${esc(a.assertion_id)}</code></td><td>${esc(a.type)}</td><td><span class="badge ${esc(a.status)}">${esc(a.status)}</span></td><td>${show(a.expected)}</td><td>${show(a.actual)}</td><td class="msg">${esc(a.message)}</td><td>${shot}</td></tr>`);
  }
  return rows.join('\n');
}

function screenshotsOf(steps: StepResult[]): string[] {
  return steps.flatMap((s) => [...(s.screenshot ? [s.screenshot] : []), ...screenshotsOf(s.sub_steps_executed ?? [])]);
}

async function section(outDir: string, run: ReportedRun): Promise<string> {
  const d = run.document;
  const unreached = unreachedSteps(run.scenario, d, run.flows);
  const heading = `<span class="badge ${esc(d.status)}">${esc(d.status)}</span> <h2>${esc(titleOf(run))}</h2> <span class="msg">${text(run.name)} on ${text(d.metadata.device_id)} (${text(d.metadata.device_model ?? '')} ${text(d.metadata.os_version ?? '')}) · ${d.duration_seconds ?? 0} s · ${text(d.run_id)}</span>`;
  const body = `<p>${esc(d.summary)}</p>
<table><tr><th>step</th><th>action</th><th>status</th><th>resolved target</th><th>duration</th><th>screenshot</th></tr>
${await stepRows(outDir, d.steps_executed)}
${unreachedRows(unreached)}</table>
${d.assertion_results.length ? `<table><tr><th>assertion</th><th>type</th><th>status</th><th>expected</th><th>actual</th><th>message</th><th>judged on</th></tr>\n${await assertionRows(outDir, d.assertion_results, new Set(screenshotsOf(d.steps_executed)))}</table>` : ''}
${d.observations.length ? `<ul>${d.observations.map((o) => `<li class="msg">${esc(o.type)}${o.step_id ? ` (${text(o.step_id)})` : ''}: ${esc(o.message)}</li>`).join('')}</ul>` : ''}
${Object.keys(d.captured_variables).length ? `<p class="msg">variables: <code>${esc(JSON.stringify(d.captured_variables))}</code></p>` : ''}`;
  // Passing runs fold away so the failures are what the reader sees first.
  return d.status === 'passed' ? `<details class="run"><summary>${heading}</summary>\n${body}\n</details>` : `<section class="run">${heading}\n${body}\n</section>`;
}

/** The scenarios the run never started, listed before the runs so nobody takes the page for the whole suite. */
function notStartedSection(list: NotStartedRun[]): string {
  if (!list.length) return '';
  const rows = list.map((n) => `<tr><td>${esc(n.scenario.name || n.scenario.scenario_id)}</td><td><code>${esc(n.name)}</code></td><td><span class="badge unreached">not started</span></td><td class="msg">${esc(n.reason)}</td></tr>`);
  return `<section class="run"><span class="badge unreached">not started</span> <h2>${list.length} scenario${list.length === 1 ? '' : 's'} not started</h2>
<table><tr><th>scenario</th><th>file</th><th>status</th><th>why</th></tr>
${rows.join('\n')}</table>
</section>`;
}

const ORDER: Record<ResultDocument['status'], number> = { failed: 0, error: 1, cancelled: 2, running: 3, passed: 4 };

/**
 * One self-contained page for every run of this invocation: failures first, passing runs
 * collapsed; no scripts, no external files (screenshots are small inlined JPEGs linking the PNGs).
 */
export async function htmlReport(outDir: string, runs: ReportedRun[], notStarted: NotStartedRun[] = []): Promise<string> {
  const ordered = runs.map((r, i) => ({ r, i })).sort((a, b) => ORDER[a.r.document.status] - ORDER[b.r.document.status] || a.i - b.i);
  const sections: string[] = [];
  for (const { r } of ordered) sections.push(await section(outDir, r));
  const passed = runs.filter((r) => r.document.status === 'passed').length;
  const total = runs.length + notStarted.length;
  const unstarted = notStarted.length ? ` · ${notStarted.length} not started` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mobilebridge report</title><style>${STYLE}</style></head>
<body><h1>mobilebridge report · ${passed}/${total} scenarios passed${unstarted}</h1>
${notStartedSection(notStarted)}
${sections.join('\n')}
</body></html>
`;
}
