import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import type { Assertion } from '../../src/validate/index.js';
import { validateResultValue } from '../../src/validate/index.js';
import { rig, scenario } from './harness.js';

const likeShown = (id: string, after: string): Assertion => ({ id, after_step: after, type: 'element_exists', description: 'the Like button is there', element_description: 'the Like button' }) as Assertion;

test('assertions after a step skipped by its condition are skipped at every nesting level, and the run still passes', async () => {
  const r = rig();
  try {
    const base = scenario(r, 'flow_control');
    // On Android the iOS branch is skipped: its checks (top level and nested) must not be judged.
    const s = { ...base, assertions: [...base.assertions, likeShown('ios_top', 'if_ios'), likeShown('ios_nested', 'sub_ios_like'), likeShown('after_skip_skipped', 'if_android_skipped')] };
    const { document: d } = await runScenario({ engine: r.engine, device: 'virtual-android-1', scenario: s, scenarioDir: join(r.dir, 'scenarios'), outDir: r.out, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'none' });
    const byId = Object.fromEntries(d.assertion_results.map((a) => [a.assertion_id, a]));
    for (const id of ['ios_top', 'ios_nested', 'after_skip_skipped']) assert.is(byId[id].status, 'skipped', `${id}: ${byId[id].message}`);
    assert.match(byId.ios_top.message, /step if_ios did not run \(condition false/);
    assert.match(byId.ios_nested.message, /^skipped: step sub_ios_like did not run: it is inside step if_ios, which did not run \(condition false/);
    assert.is(d.skipped_assertions, 3);
    assert.is(d.failed_assertions, 0);
    assert.is(d.passed_assertions + d.failed_assertions + d.skipped_assertions, d.total_assertions);
    assert.is(d.status, 'passed', d.summary);
    // The steps skipped by their condition are said with the steps, the skipped assertions with the assertions.
    const summary = /^passed: (\d+)\/(\d+) steps passed \((\d+) skipped\); (\d+)\/(\d+) assertions passed \(3 skipped\)$/.exec(d.summary);
    assert.ok(summary, d.summary);
    const [passedSteps, steps, skippedSteps] = summary.slice(1, 4).map(Number);
    assert.ok(skippedSteps > 0);
    assert.is(passedSteps + skippedSteps, steps, d.summary);
    assert.equal(validateResultValue(d), []);
  } finally {
    await r.close();
  }
});

test('the summary names the first three failing assertions and counts the rest', async () => {
  const r = rig();
  try {
    const { document: d } = await runScenario({ engine: r.engine, device: 'virtual-android-1', scenario: scenario(r, 'assertions_fail'), scenarioDir: join(r.dir, 'scenarios'), outDir: r.out, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'none' });
    const failing = d.assertion_results.filter((a) => a.status === 'failed' || a.status === 'error');
    assert.ok(failing.length > 3);
    for (const a of failing.slice(0, 3)) assert.ok(d.summary.includes(`${a.assertion_id} `), `${a.assertion_id} named`);
    assert.not.ok(d.summary.includes(`${failing[3].assertion_id} `));
    assert.match(d.summary, new RegExp(`${failing.length} assertions not passed: .* \\| and ${failing.length - 3} more$`));
  } finally {
    await r.close();
  }
});

test('a run stopped by a failing step counts the later steps it never ran', async () => {
  const r = rig();
  try {
    const base = scenario(r, 'flow_control');
    const step = (id: string, extra: object) => ({ id, description: id, ...extra });
    const s = {
      ...base,
      steps: [step('launch', { action: 'launch_app' }), step('missing', { action: 'tap', target: 'the Checkout button' }), step('after_1', { action: 'press_button', value: 'HOME' }), step('after_2', { action: 'press_button', value: 'HOME' })],
      assertions: [],
    } as unknown as typeof base;
    const { document: d } = await runScenario({ engine: r.engine, device: 'virtual-android-1', scenario: s, scenarioDir: join(r.dir, 'scenarios'), outDir: r.out, clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'none' });
    assert.is(d.status, 'failed', d.summary);
    assert.match(d.summary, /^failed: 1\/2 steps passed, 2 later steps not run; /);
  } finally {
    await r.close();
  }
});

test('skip messages say what became of the step: a step that failed ran, it is not said to have not run', async () => {
  const r = rig();
  try {
    const base = scenario(r, 'flow_control');
    const step = (id: string, extra: object) => ({ id, description: id, ...extra });
    const s = {
      ...base,
      steps: [
        step('launch', { action: 'launch_app' }),
        step('maybe', { action: 'tap', target: 'the Checkout button', optional: true }),
        step('open', { action: 'tap', target: 'the Frobnicate button', sub_steps: [step('inner', { action: 'press_button', value: 'HOME' })] }),
      ],
      assertions: [likeShown('after_maybe', 'maybe'), likeShown('after_open', 'open'), likeShown('after_inner', 'inner')],
    } as unknown as typeof base;
    const { document: d } = await runScenario({ engine: r.engine, device: 'virtual-android-1', scenario: s, scenarioDir: join(r.dir, 'scenarios'), outDir: r.out, clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'none' });
    const byId = Object.fromEntries(d.assertion_results.map((a) => [a.assertion_id, a]));
    for (const id of ['after_maybe', 'after_open', 'after_inner']) assert.is(byId[id].status, 'skipped', `${id}: ${byId[id].message}`);
    assert.match(byId.after_maybe.message, /^skipped: step maybe failed and was skipped \(optional step: .+\), so what it should have done was not checked$/);
    assert.is(byId.after_open.message, 'skipped: step open failed, so what it should have done was not checked');
    assert.is(byId.after_inner.message, 'skipped: step inner did not run: it is inside step open, which failed, so what it should have done was not checked');
  } finally {
    await r.close();
  }
});

test('the assertions after a step that needs manual action are skipped: nothing was done on the device, so nothing is judged', async () => {
  const r = rig();
  try {
    const base = scenario(r, 'flow_control');
    const step = (id: string, extra: object) => ({ id, description: id, ...extra });
    const exists = (id: string, after: string, what: string): Assertion => ({ id, after_step: after, type: 'element_exists', description: what, element_description: what }) as Assertion;
    const s = {
      ...base,
      platform: 'cross-platform',
      steps: [step('home', { action: 'open_url', value: 'mbdemo://screen/home' }), step('wipe', { action: 'clear_app_data', sub_steps: [step('relaunch', { action: 'launch_app' })] })],
      // The list a data wipe should have removed is still there: judged, these passed.
      assertions: [exists('list_still', 'wipe', 'Item 1'), exists('after_relaunch', 'relaunch', 'Item 1')],
    } as unknown as typeof base;
    const { document: d } = await runScenario({ engine: r.engine, device: 'virtual-ios-1', scenario: s, scenarioDir: join(r.dir, 'scenarios'), outDir: r.out, clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'none' });
    const wipe = d.steps_executed.find((x) => x.step_id === 'wipe')!;
    assert.is(wipe.status, 'needs_manual', wipe.error_message ?? '');
    const byId = Object.fromEntries(d.assertion_results.map((a) => [a.assertion_id, a]));
    assert.is(byId.list_still.status, 'skipped', byId.list_still.message);
    assert.is(byId.list_still.message, 'skipped: step wipe needs manual action (nothing was done on the device), so what it should have done was not checked');
    assert.is(byId.after_relaunch.status, 'skipped', byId.after_relaunch.message);
    assert.match(byId.after_relaunch.message, /^skipped: step relaunch did not run: it is inside step wipe, which needs manual action/);
    assert.equal([d.passed_assertions, d.skipped_assertions, d.failed_assertions], [0, 2, 0]);
    assert.is(d.status, 'failed', d.summary);
    assert.match(d.summary, /needs manual action: step wipe: /);
    assert.equal(validateResultValue(d), []);
  } finally {
    await r.close();
  }
});

test.run();
