import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResultDocument, Step, StepResult } from '../../src/validate/index.js';
import { validateResultValue } from '../../src/validate/index.js';
import { rig, run, scenario, type Rig } from './harness.js';

const flat = (steps: StepResult[]): StepResult[] => steps.flatMap((s) => [s, ...flat(s.sub_steps_executed ?? [])]);
const step = (d: ResultDocument, id: string) => flat(d.steps_executed).find((s) => s.step_id === id);
const ANDROID = 'virtual-android-1';
const IOS = 'virtual-ios-1';

const test = suite<{ r: Rig }>('scenario suite on the virtual devices', { r: undefined as unknown as Rig });
test.before.each((ctx) => {
  ctx.r = rig();
});
test.after.each(async (ctx) => {
  await ctx.r.close();
});

test('every core action replays on Android, and the result file on disk is the final, valid document', async ({ r }) => {
  const { document: d, resultFile } = await run(r, 'actions_android', ANDROID);
  assert.is(d.status, 'passed', d.summary);
  for (const a of ['launch_app', 'tap', 'long_press', 'double_tap', 'type', 'swipe', 'scroll_to_element', 'press_button', 'open_url', 'wait_for_element', 'wait_for_element_gone', 'wait_for_loading_complete', 'capture_value', 'clear_app_data']) {
    assert.ok(d.steps_executed.some((s) => s.action === a && s.status === 'passed'), `${a} ran`);
  }
  assert.is(d.captured_variables.account, 'Signed in as demo@example.com');
  assert.equal(step(d, 'open_item')?.resolved_target?.id, 'item_40');
  const onDisk = JSON.parse(readFileSync(resultFile, 'utf8')) as ResultDocument;
  assert.equal(onDisk, JSON.parse(JSON.stringify(d)));
  assert.equal(validateResultValue(onDisk), []);
});

test('all 27 assertion types pass, then all 27 fail against another screen', async ({ r }) => {
  const pass = (await run(r, 'assertions_pass', ANDROID)).document;
  assert.is(pass.status, 'passed', pass.summary);
  assert.is(new Set(pass.assertion_results.map((a) => a.type)).size, 27);
  assert.ok(pass.assertion_results.every((a) => a.status === 'passed'));
  assert.ok(existsSync(join(r.dir, 'scenarios', 'baselines', 'inbox_android.png')), 'first run records the baseline');

  const fail = (await run(r, 'assertions_fail', ANDROID)).document;
  assert.is(fail.status, 'failed');
  assert.is(new Set(fail.assertion_results.map((a) => a.type)).size, 27);
  const notFailed = fail.assertion_results.filter((a) => a.status !== 'failed');
  assert.equal(notFailed.map((a) => `${a.assertion_id}: ${a.message}`), []);
  assert.is(fail.failed_assertions, 27);
  assert.is(fail.passed_assertions, 0);
});

for (const device of [ANDROID, IOS]) {
  test(`conditions true and false, sub-steps, captures used later, optional and skip on ${device}`, async ({ r }) => {
    const d = (await run(r, 'flow_control', device)).document;
    assert.is(d.status, 'passed', d.summary);
    const android = device === ANDROID;
    assert.is(step(d, 'if_android')?.status, android ? 'passed' : 'skipped');
    assert.is(step(d, 'if_android')?.condition_evaluated, android);
    assert.is(step(d, 'if_ios')?.status, android ? 'skipped' : 'passed');
    assert.is(step(d, android ? 'sub_back' : 'sub_ios_back')?.status, 'passed');
    assert.ok((android ? step(d, 'if_android') : step(d, 'if_ios'))?.sub_steps_executed?.length === 2);
    assert.is(step(d, 'if_android_skipped')?.status, android ? 'skipped' : 'passed');
    assert.is(step(d, 'if_ios_skipped')?.status, android ? 'passed' : 'skipped');
    assert.is(step(d, 'never_visible')?.condition_evaluated, false);
    assert.is(step(d, 'var_true')?.status, 'passed');
    assert.is(step(d, 'var_false')?.status, 'skipped');
    assert.is(step(d, 'optional_missing')?.status, 'skipped');
    assert.is(step(d, 'skip_missing')?.status, 'skipped');
    assert.is(d.captured_variables.item_no, 2, 'captured as an integer');
    assert.is(step(d, 'type_in_search')?.status, 'passed');
  });

  test(`a step that passes on its second attempt is recorded as retried, with a flakiness observation (${device})`, async ({ r }) => {
    const d = (await run(r, 'retry_flaky', device)).document;
    assert.is(d.status, 'passed', d.summary);
    const s = step(d, 'open_first')!;
    assert.is(s.retried, true);
    assert.is(s.retry_count, 1);
    assert.ok(d.observations.some((o) => o.type === 'flakiness' && o.step_id === 'open_first'));
  });

  test(`back, keyboard dismissal and permissions resolve per platform (${device})`, async ({ r }) => {
    const d = (await run(r, 'semantic_cross', device)).document;
    assert.is(d.status, 'passed', d.summary);
    assert.is(d.metadata.device_id, device);
  });
}

test('clear_app_data replays on Android and needs a person on iOS, so the iOS run is not passed', async ({ r }) => {
  const a = (await run(r, 'clear_data_cross', ANDROID)).document;
  assert.is(a.status, 'passed', a.summary);
  const i = (await run(r, 'clear_data_cross', IOS)).document;
  assert.is(step(i, 'clear')?.status, 'needs_manual');
  assert.is.not(i.status, 'passed');
  assert.match(i.summary, /needs manual action/);
});

test('a retry that never succeeds uses every attempt, fails the run, and leaves later assertions not evaluated', async ({ r }) => {
  const s = scenario(r, 'retry_flaky');
  const target = s.steps.find((x) => x.id === 'open_first')! as Step;
  target.target = 'Item 999';
  const d = (await run(r, 'retry_flaky', ANDROID, { scenario: s })).document;
  assert.is(d.status, 'failed');
  const st = step(d, 'open_first')!;
  assert.is(st.status, 'failed');
  assert.is(st.retry_count, 2);
  assert.is(st.error_code, 'ELEMENT_NOT_FOUND');
  // Its own assertion is not checked on the screen the failure left: what the step should have done did not happen.
  const [own] = d.assertion_results;
  assert.equal([own.assertion_id, own.status], ['a31_screen_title', 'skipped']);
  assert.match(own.message, /step open_first failed, so what it should have done was not checked/);
});

test.run();
