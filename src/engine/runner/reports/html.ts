import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AssertionResult, ResultDocument, StepResult } from '../../../validate/index.js';
import { xml as esc } from './junit.js';

/** Screenshots up to this size are inlined as data URIs; bigger ones are linked by relative path. */
const INLINE_LIMIT = 1_500_000;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1b1b1f;background:#fafafa}
h1{font-size:20px}h2{font-size:16px;margin:0}
.run{background:#fff;border:1px solid #ddd;border-radius:8px;margin:16px 0;padding:16px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;color:#fff}
.passed{background:#1e8e3e}.failed{background:#d93025}.error{background:#a142f4}.skipped,.cancelled,.running{background:#80868b}.needs_manual{background:#f29900}
table{border-collapse:collapse;width:100%;margin-top:8px}td,th{border-top:1px solid #eee;padding:6px;text-align:left;vertical-align:top}
th{font-size:12px;color:#5f6368}.msg{color:#5f6368;font-size:12px}img{max-width:120px;border:1px solid #ccc;border-radius:4px}
.sub td:first-child{padding-left:24px}code{font-size:12px}`;

async function image(outDir: string, rel: string | null | undefined): Promise<string> {
  if (!rel) return '';
  try {
    const png = await readFile(join(outDir, rel));
    const src = png.length <= INLINE_LIMIT ? `data:image/png;base64,${png.toString('base64')}` : rel;
    return `<a href="${esc(rel)}"><img alt="screenshot" loading="lazy" src="${esc(src)}"></a>`;
  } catch {
    return `<span class="msg">missing ${esc(rel)}</span>`;
  }
}

async function stepRows(outDir: string, steps: StepResult[], depth = 0): Promise<string> {
  const rows: string[] = [];
  for (const s of steps) {
    const target = s.resolved_target ? `${esc(JSON.stringify(s.resolved_target.text ?? s.resolved_target.id))}<div class="msg">id ${esc(s.resolved_target.id)} at (${s.resolved_target.center.x}, ${s.resolved_target.center.y})</div>` : '';
    const retry = s.retried ? `<div class="msg">retried ${s.retry_count}×</div>` : '';
    const cond = s.condition_evaluated === null || s.condition_evaluated === undefined ? '' : `<div class="msg">condition ${s.condition_evaluated}</div>`;
    const error = s.error_message ? `<div class="msg">${esc(s.error_code ?? '')} ${esc(s.error_message)}</div>` : '';
    rows.push(`<tr class="${depth ? 'sub' : ''}"><td><code>${esc(s.step_id)}</code>${retry}${cond}</td><td>${esc(s.action)}</td><td><span class="badge ${s.status}">${s.status}</span>${error}</td><td>${target}</td><td>${s.step_duration_ms ?? 0} ms</td><td>${await image(outDir, s.screenshot)}</td></tr>`);
    if (s.sub_steps_executed?.length) rows.push(await stepRows(outDir, s.sub_steps_executed, depth + 1));
  }
  return rows.join('\n');
}

function assertionRows(results: AssertionResult[]): string {
  const show = (v: unknown) => (v === undefined ? '' : esc(typeof v === 'string' ? v : JSON.stringify(v)));
  return results
    .map((a) => `<tr><td><code>${esc(a.assertion_id)}</code></td><td>${esc(a.type)}</td><td><span class="badge ${a.status}">${a.status}</span></td><td>${show(a.expected)}</td><td>${show(a.actual)}</td><td class="msg">${esc(a.message)}</td></tr>`)
    .join('\n');
}

/** One self-contained page for every run of this invocation: no scripts, no external files. */
export async function htmlReport(outDir: string, runs: { document: ResultDocument; name: string }[]): Promise<string> {
  const sections: string[] = [];
  for (const { document: d, name } of runs) {
    sections.push(`<section class="run">
<h2><span class="badge ${d.status}">${d.status}</span> ${esc(name)} <span class="msg">on ${esc(d.metadata.device_id)} (${esc(d.metadata.device_model ?? '')} ${esc(d.metadata.os_version ?? '')}) · ${d.duration_seconds ?? 0} s · ${esc(d.run_id)}</span></h2>
<p>${esc(d.summary)}</p>
<table><tr><th>step</th><th>action</th><th>status</th><th>resolved target</th><th>duration</th><th>screenshot</th></tr>
${await stepRows(outDir, d.steps_executed)}</table>
${d.assertion_results.length ? `<table><tr><th>assertion</th><th>type</th><th>status</th><th>expected</th><th>actual</th><th>message</th></tr>\n${assertionRows(d.assertion_results)}</table>` : ''}
${d.observations.length ? `<ul>${d.observations.map((o) => `<li class="msg">${esc(o.type)}${o.step_id ? ` (${esc(o.step_id)})` : ''}: ${esc(o.message)}</li>`).join('')}</ul>` : ''}
${Object.keys(d.captured_variables).length ? `<p class="msg">variables: <code>${esc(JSON.stringify(d.captured_variables))}</code></p>` : ''}
</section>`);
  }
  const passed = runs.filter((r) => r.document.status === 'passed').length;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mobilebridge report</title><style>${STYLE}</style></head>
<body><h1>mobilebridge report · ${passed}/${runs.length} scenarios passed</h1>
${sections.join('\n')}
</body></html>
`;
}
