import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import type { VerbClock } from '../../src/engine/verbs/index.js';
import type { ResultDocument, StepResult } from '../../src/validate/index.js';
import { loadScenario, validateResultValue } from '../../src/validate/index.js';
import { rig, run, type Rig } from './harness.js';

const ANDROID = 'virtual-android-1';

const t = suite<{ r: Rig }>('a cancel in the middle of a flow or of sub-steps never leaves their step passed');
t.before.each((ctx) => {
  ctx.r = rig();
});
t.after.each(async (ctx) => {
  await ctx.r.close();
});

const record = (d: ResultDocument, id: string): StepResult | undefined => d.steps_executed.find((s) => s.step_id === id);

t('a flow cut short by Ctrl-C after its first step is not passed: its other steps never ran', async ({ r }) => {
  const controller = new AbortController();
  const { document: d, resultFile } = await run(r, 'params_login', ANDROID, {
    parameters: { given: { PASSWORD: 'secret123' } },
    signal: controller.signal,
    onProgress: (e) => {
      if (e.type === 'step' && e.step.step_id === 'login.type_email') controller.abort();
    },
  });
  assert.is(d.status, 'cancelled');
  const login = record(d, 'login')!;
  assert.equal(login.sub_steps_executed!.map((s) => [s.step_id, s.status]), [['login.type_email', 'passed']]);
  assert.is.not(login.status, 'passed', 'login.type_password and login.submit never ran');
  assert.is(login.status, 'skipped');
  assert.match(login.error_message ?? '', /cancelled before the flow finished: 1 of its 3 steps ran/);
  // The flow's assertion is skipped because its step never ran, not checked against whatever screen is there.
  const home = d.assertion_results.find((a) => a.assertion_id === 'login.home_list')!;
  assert.is(home.status, 'skipped');
  assert.match(home.message, /step login\.submit did not run \(the run was cancelled\)/);
  assert.equal(validateResultValue(JSON.parse(readFileSync(resultFile, 'utf8'))), []);
});

t('a parent whose sub-steps a cancel cut short is not passed either', async ({ r }) => {
  const scenario = loadScenario(
    JSON.stringify({
      $schema_version: '2.1', scenario_id: 'nested_cancel', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '1', environment: 't' },
      steps: [
        { id: 'launch', action: 'launch_app', description: 'Launch' },
        {
          id: 'open_more', action: 'open_url', description: 'more', value: 'mbdemo://screen/more',
          sub_steps: [
            { id: 'save', action: 'tap', description: 'save', target: 'Save draft' },
            { id: 'alert', action: 'tap', description: 'alert', target: 'Show alert' },
          ],
        },
      ],
      assertions: [{ id: 'alert_up', after_step: 'alert', type: 'alert_present', description: 'the alert' }],
    }),
  ).scenario!;
  const controller = new AbortController();
  const { document: d } = await runScenario({
    engine: r.engine, device: ANDROID, scenario, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'none',
    signal: controller.signal,
    onProgress: (e) => {
      if (e.type === 'step' && e.step.step_id === 'save') controller.abort();
    },
  });
  assert.is(d.status, 'cancelled');
  const parent = record(d, 'open_more')!;
  assert.equal(parent.sub_steps_executed!.map((s) => s.step_id), ['save']);
  assert.is(parent.status, 'skipped');
  assert.match(parent.error_message ?? '', /cancelled before its sub-steps finished: 1 of its 2 sub-steps ran/);
  assert.is(d.assertion_results[0].status, 'skipped');
});

t('a flow that finished before the cancel keeps its verdict', async ({ r }) => {
  const controller = new AbortController();
  const { document: d } = await run(r, 'params_login', ANDROID, {
    parameters: { given: { PASSWORD: 'secret123' } },
    signal: controller.signal,
    onProgress: (e) => {
      if (e.type === 'step' && e.step.step_id === 'login') controller.abort();
    },
  });
  assert.is(record(d, 'login')?.status, 'passed');
  assert.is(record(d, 'login')?.sub_steps_executed?.length, 3);
});

t('a cancel while the waiting assertion of a flow looks again keeps the flow record and the steps it ran', async ({ r }) => {
  // As the real clock does, a sleep ends with an error once the run is cancelled: the cancel surfaces
  // inside the flow, in its assertion's wait.
  const controller = new AbortController();
  let armed = false;
  let sleeps = 0;
  const clock: VerbClock = {
    now: () => r.clock.now(),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new Error('aborted');
      r.clock.advance(ms);
      if (armed && ++sleeps === 2) {
        controller.abort();
        throw new Error('aborted');
      }
    },
  };
  const { document: d } = await run(r, 'params_login', ANDROID, {
    parameters: { given: { PASSWORD: 'secret123' } },
    clock,
    signal: controller.signal,
    onProgress: (e) => {
      if (e.type === 'step' && e.step.step_id === 'login.submit') armed = true;
    },
  });
  assert.is(d.status, 'cancelled');
  assert.ok(sleeps >= 2, 'the cancel came during the wait');
  const login = record(d, 'login');
  assert.ok(login, `the flow step is recorded: ${JSON.stringify(d.steps_executed.map((s) => s.step_id))}`);
  assert.equal(login!.sub_steps_executed!.map((s) => [s.step_id, s.status]), [['login.type_email', 'passed'], ['login.type_password', 'passed'], ['login.submit', 'passed']]);
  // All its steps ran: only the check was cut short, and that check is skipped, not failed.
  assert.is(login!.status, 'passed');
  const home = d.assertion_results.find((a) => a.assertion_id === 'login.home_list')!;
  assert.is(home.status, 'skipped');
  assert.match(home.message, /^not decided: the run was cancelled while this check was made \(last look: /);
  assert.match(d.summary, /^cancelled after \d+ steps \(during assertion login\.home_list after step login\.submit, which was not decided\)$/);
  assert.not.match(d.summary, /^cancelled after 3 steps/, 'the flow and its steps count');
});

t('a cancel while a step looks at its element_visible condition leaves that step unrecorded, not failed', async ({ r }) => {
  const scenario = loadScenario(
    JSON.stringify({
      $schema_version: '2.1', scenario_id: 'condition_cancel', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '1', environment: 't' },
      steps: [
        { id: 'open_more', action: 'open_url', description: 'more', value: 'mbdemo://screen/more' },
        { id: 'save', action: 'tap', description: 'save', target: 'Save draft', condition: { type: 'element_visible', element_description: 'Save draft' } },
      ],
      assertions: [{ id: 'saved', after_step: 'save', type: 'toast_visible', description: 'toast', expected_text: 'Draft saved' }],
    }),
  ).scenario!;
  const controller = new AbortController();
  let armed = false;
  const off = r.engine.onCall((e) => {
    if (armed && e.tool === 'mobile_list_elements_on_screen') controller.abort();
  });
  const { document: d } = await runScenario({
    engine: r.engine, device: ANDROID, scenario, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'none',
    signal: controller.signal,
    onProgress: (e) => {
      if (e.type === 'step' && e.step.step_id === 'open_more') armed = true;
    },
  });
  off();
  assert.is(d.status, 'cancelled');
  assert.equal(d.steps_executed.map((s) => [s.step_id, s.status]), [['open_more', 'passed']]);
  assert.is(d.summary, 'cancelled after 1 step (during step save, whose result is not recorded)');
});

t('a cancel while an assertion looks at its condition makes that assertion skipped, not error', async ({ r }) => {
  const scenario = loadScenario(
    JSON.stringify({
      $schema_version: '2.2', scenario_id: 'assertion_condition_cancel', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '1', environment: 't' },
      steps: [
        { id: 'home', action: 'open_url', description: 'home', value: 'mbdemo://screen/home' },
        { id: 'next', action: 'open_url', description: 'more', value: 'mbdemo://screen/more' },
      ],
      assertions: [{ id: 'cond_a', after_step: 'home', type: 'element_exists', description: 'x', element_description: 'Item 1', condition: { type: 'element_visible', element_description: 'Item 2' } }],
    }),
  ).scenario!;
  const controller = new AbortController();
  let armed = false;
  const off = r.engine.onCall((e) => {
    if (armed && e.tool === 'mobile_list_elements_on_screen') controller.abort();
  });
  const { document: d, resultFile } = await runScenario({
    engine: r.engine, device: ANDROID, scenario, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'none',
    signal: controller.signal,
    onProgress: (e) => {
      if (e.type === 'step' && e.step.step_id === 'home') armed = true;
    },
  });
  off();
  assert.is(d.status, 'cancelled');
  const a = d.assertion_results.find((x) => x.assertion_id === 'cond_a')!;
  assert.is(a.status, 'skipped', a.message);
  assert.match(a.message, /^not decided: the run was cancelled while its condition was evaluated/);
  assert.equal([d.total_assertions, d.passed_assertions, d.failed_assertions, d.skipped_assertions], [1, 0, 0, 1]);
  assert.equal(validateResultValue(JSON.parse(readFileSync(resultFile, 'utf8'))), []);
});

t.run();
