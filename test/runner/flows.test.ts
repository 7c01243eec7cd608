import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { htmlReport, junitXml, runScenario } from '../../src/engine/runner/index.js';
import type { ResultDocument } from '../../src/validate/index.js';
import { loadScenario } from '../../src/validate/index.js';
import { rig, type Rig } from './harness.js';

const ANDROID = 'virtual-android-1';

const t = suite<{ r: Rig; folder: string }>('flows in the runner: files relative to the flow, failures named where they happened');
t.before.each((ctx) => {
  ctx.r = rig();
  ctx.folder = join(ctx.r.dir, 'flowcase');
  mkdirSync(join(ctx.folder, 'flows'), { recursive: true });
});
t.after.each(async (ctx) => {
  await ctx.r.close();
});

const doc = (id: string, extra: Record<string, unknown>) => ({
  $schema_version: '2.2', scenario_id: id, name: id, description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1', environment: 't' }, assertions: [], ...extra,
});

function write(folder: string, name: string, value: object): string {
  const file = join(folder, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

async function runTop(ctx: { r: Rig; folder: string }, top: object, parameters?: Record<string, string>): Promise<ResultDocument> {
  const file = write(ctx.folder, 'top.json', top);
  const loaded = loadScenario(readFileSync(file, 'utf8'), file, { baseDir: ctx.folder });
  if (!loaded.scenario) throw new Error(JSON.stringify(loaded.report.errors));
  const r = ctx.r;
  return (await runScenario({ engine: r.engine, device: ANDROID, scenario: loaded.scenario, scenarioDir: ctx.folder, outDir: r.out, clock: r.verbClock, targetWaitMs: 300, settleMs: 0, screenshots: 'none', parameters: parameters && { given: parameters } })).document;
}

t('a reference_screenshot in a flow is relative to the flow file, and may climb to the top scenario\'s folder', async (ctx) => {
  write(join(ctx.folder, 'flows'), 'f.json', doc('f', {
    steps: [{ id: 'launch', action: 'launch_app', description: 'Launch' }],
    assertions: [
      { id: 'beside', after_step: 'launch', type: 'screenshot_match', description: 'next to the flow', reference_screenshot: 'ref.png' },
      { id: 'above', after_step: 'launch', type: 'screenshot_match', description: 'in the top folder', reference_screenshot: '../ref_up.png' },
    ],
  }));
  const d = await runTop(ctx, doc('top', { steps: [{ id: 'f', flow: 'flows/f.json' }] }));
  assert.is(d.status, 'passed', d.summary);
  assert.ok(existsSync(join(ctx.folder, 'flows', 'ref.png')), 'baseline recorded beside the flow, where validate looks for it');
  assert.not.ok(existsSync(join(ctx.folder, 'ref.png')), 'not in the top scenario\'s folder');
  assert.ok(existsSync(join(ctx.folder, 'ref_up.png')));
  // The second run compares with the baselines the first recorded.
  const again = await runTop(ctx, doc('top', { steps: [{ id: 'f', flow: 'flows/f.json' }] }));
  assert.equal(again.assertion_results.map((a) => [a.assertion_id, a.status]), [['f.beside', 'passed'], ['f.above', 'passed']]);
  assert.match(again.assertion_results[0].message, /matches flows[\\/]ref\.png/);
});

t('a flow\'s parameter without a value names the flow step and gives advice that works: the step\'s parameters, or --param NAME', async (ctx) => {
  write(join(ctx.folder, 'flows'), 'login.json', doc('login', {
    parameters: { USER_EMAIL: { description: 'who' }, TOKEN: { description: 'how' } },
    steps: [
      { id: 'open', action: 'open_url', description: 'sign-in', value: 'mbdemo://screen/signin' },
      { id: 'email', action: 'type', description: 'type', target: 'Email', value: '${USER_EMAIL}/${TOKEN}' },
    ],
  }));
  const top = (passed?: Record<string, string>) => doc('top', {
    parameters: { TOKEN: { description: 'passed on', default: 'abc' } },
    steps: [{ id: 'launch', action: 'launch_app', description: 'Launch' }, { id: 'login', flow: 'flows/login.json', ...(passed && { parameters: passed }) }],
  });
  const missing = await runTop(ctx, top());
  assert.is(missing.status, 'error');
  assert.ok(missing.summary.endsWith('INVALID_PARAMETER: flow step login (flows/login.json) has no value for the flow\'s parameters USER_EMAIL, TOKEN; pass them in the step\'s "parameters": {"USER_EMAIL": "...", "TOKEN": "${TOKEN}"}, or give each with --param USER_EMAIL=..., a --params-file JSON object, or the environment variable MB_PARAM_USER_EMAIL (not empty)'), missing.summary);
  // Both ways it names work.
  const byParam = await runTop(ctx, top(), { USER_EMAIL: 'a@b.c', TOKEN: 'xyz' });
  assert.is(byParam.status, 'passed', byParam.summary);
  const byStep = await runTop(ctx, top({ TOKEN: '${TOKEN}' }), { USER_EMAIL: 'a@b.c' });
  assert.is(byStep.status, 'passed', byStep.summary);
});

t('a failure inside a flow or under a parent is named by the step that failed and its code, in the summary and in JUnit', async (ctx) => {
  write(join(ctx.folder, 'flows'), 'f.json', doc('f', {
    steps: [{ id: 'ghost', action: 'tap', description: 'not there', target: 'the Ghost button' }],
  }));
  const d = await runTop(ctx, doc('top', {
    steps: [
      { id: 'launch', action: 'launch_app', description: 'Launch', sub_steps: [{ id: 'inner', action: 'wait_for_loading_complete', description: 'w', wait_config: { type: 'loading_complete', timeout_ms: 1000 } }] },
      { id: 'go', flow: 'flows/f.json' },
    ],
  }));
  assert.is(d.status, 'failed');
  assert.match(d.summary, /; step go\.ghost failed: ELEMENT_NOT_FOUND: /);
  const go = d.steps_executed[1];
  assert.equal([go.step_id, go.error_code, go.error_message], ['go', null, 'a step of the flow failed: step go.ghost failed (ELEMENT_NOT_FOUND)']);
  const xml = junitXml([{ document: d, name: 'top.json' }]);
  assert.match(xml, /<failure message="step go\.ghost: [^"]*" type="ELEMENT_NOT_FOUND">/);

  const nested = await runTop(ctx, doc('top', {
    steps: [{ id: 'launch', action: 'launch_app', description: 'Launch', sub_steps: [{ id: 'missing', action: 'tap', description: 't', target: 'the Ghost button' }] }],
  }));
  assert.match(nested.summary, /; step missing failed: ELEMENT_NOT_FOUND: /);
  assert.is(nested.steps_executed[0].error_message, 'a sub-step failed: step missing failed (ELEMENT_NOT_FOUND)');
  assert.match(junitXml([{ document: nested, name: 'top.json' }]), /<failure message="step missing: [^"]*" type="ELEMENT_NOT_FOUND">/);
});

t('steps never reached inside a flow or under a parent count as "later steps not run" and are "not run" rows in the HTML report', async (ctx) => {
  write(join(ctx.folder, 'flows'), 'f.json', doc('f', {
    steps: [
      { id: 'home', action: 'open_url', description: 'home', value: 'mbdemo://screen/home' },
      { id: 'bad_tap', action: 'tap', description: 'not there', target: 'the Ghost button' },
      { id: 'never', action: 'press_button', description: 'never reached', value: 'HOME' },
    ],
  }));
  const file = write(ctx.folder, 'top.json', doc('top', {
    steps: [
      { id: 'launch', action: 'launch_app', description: 'Launch' },
      { id: 'fl', flow: 'flows/f.json' },
      { id: 'after_fl', action: 'press_button', description: 'after', value: 'HOME' },
    ],
  }));
  const loaded = loadScenario(readFileSync(file, 'utf8'), file, { baseDir: ctx.folder });
  const r = ctx.r;
  const run = await runScenario({ engine: r.engine, device: ANDROID, scenario: loaded.scenario!, scenarioDir: ctx.folder, outDir: r.out, clock: r.verbClock, targetWaitMs: 300, settleMs: 0, screenshots: 'none' });
  const d = run.document;
  assert.is(d.status, 'failed');
  assert.match(d.summary, /^failed: 2\/4 steps passed, 2 later steps not run; /, d.summary);
  const html = await htmlReport(r.out, [{ document: d, name: 'top.json', scenario: loaded.scenario!, flows: run.flows }]);
  for (const id of ['fl.never', 'after_fl']) assert.match(html, new RegExp(`<tr><td><code>${id.replace('.', '\\.')}</code></td><td>press_button</td><td><span class="badge unreached">not run</span>`), id);

  const parent = await runTop(ctx, doc('top', {
    steps: [
      { id: 'launch', action: 'launch_app', description: 'Launch', sub_steps: [{ id: 'missing', action: 'tap', description: 't', target: 'the Ghost button' }, { id: 'sub_never', action: 'press_button', description: 'n', value: 'HOME' }] },
      { id: 'last', action: 'press_button', description: 'l', value: 'HOME' },
    ],
  }));
  assert.match(parent.summary, /^failed: 0\/2 steps passed, 2 later steps not run; /, parent.summary);
});

t.run();
