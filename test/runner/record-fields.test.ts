import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Assertion, ResultDocument, StepResult } from '../../src/validate/index.js';
import { validateResultValue } from '../../src/validate/index.js';
import { rig, run, scenario } from './harness.js';

// SPEC §5 lists these fields; a reader may count on every one being there, null when not known.
const ROOT = ['run_id', 'schema_version', 'scenario_id', 'status', 'metadata', 'started_at', 'ended_at', 'duration_seconds', 'total_assertions', 'passed_assertions', 'failed_assertions', 'captured_variables', 'steps_executed', 'assertion_results', 'observations', 'summary'];
const METADATA = ['app_version', 'environment', 'platform', 'device_id', 'device_model', 'os_version', 'api_level', 'timestamp', 'tool_version'];
const STEP = ['step_id', 'action', 'status', 'resolved_target', 'screenshot', 'error_code', 'error_message', 'retried', 'retry_count', 'step_duration_ms', 'condition_evaluated', 'sub_steps_executed'];
const ASSERTION = ['assertion_id', 'type', 'status', 'expected', 'actual', 'message', 'screenshot'];

const missing = (record: object, keys: string[]): string[] => keys.filter((k) => !(k in record));

function checkFields(d: ResultDocument): void {
  assert.equal(missing(d, ROOT), [], 'root');
  assert.equal(missing(d.metadata, METADATA), [], 'metadata');
  const walk = (steps: StepResult[]): void => {
    for (const s of steps) {
      assert.equal(missing(s, STEP), [], `step ${s.step_id} (${s.status})`);
      walk(s.sub_steps_executed ?? []);
    }
  };
  walk(d.steps_executed);
  for (const a of d.assertion_results) assert.equal(missing(a, ASSERTION), [], `assertion ${a.assertion_id} (${a.status})`);
  for (const o of d.observations) assert.equal(missing(o, ['type', 'step_id', 'message']), [], 'observation');
  assert.equal(validateResultValue(d), []);
}

test('every step and assertion record carries every SPEC §5 field, skipped ones and steps without sub-steps included', async () => {
  const r = rig();
  try {
    const base = scenario(r, 'flow_control');
    const onIos = { id: 'ios_only', after_step: 'if_ios', type: 'element_exists', description: 'never judged on Android', element_description: 'the Like button' } as Assertion;
    const { document: d } = await run(r, 'flow_control', 'virtual-android-1', { scenario: { ...base, assertions: [...base.assertions, onIos] } });
    assert.ok(d.assertion_results.some((a) => a.status === 'skipped'), 'a skipped assertion');
    assert.ok(d.steps_executed.some((s) => !s.sub_steps_executed?.length), 'a step without sub-steps');
    checkFields(d);
    const skipped = d.assertion_results.find((a) => a.assertion_id === 'ios_only')!;
    assert.equal([skipped.status, skipped.expected, skipped.actual], ['skipped', null, null]);
    assert.equal(d.steps_executed.find((s) => !s.sub_steps_executed?.length)?.sub_steps_executed, []);
  } finally {
    await r.close();
  }
});

test('failed and errored assertions carry every field too', async () => {
  const r = rig();
  try {
    const { document: d } = await run(r, 'assertions_fail', 'virtual-android-1');
    assert.ok(d.assertion_results.some((a) => a.status === 'failed' || a.status === 'error'));
    checkFields(d);
  } finally {
    await r.close();
  }
});

test('a flow step has its screenshot like any step, and the assertions after it show it', async () => {
  const r = rig();
  try {
    const { document: d } = await run(r, 'params_login', 'virtual-android-1', { screenshots: 'steps', parameters: { given: { PASSWORD: 'secret123' } } });
    const login = d.steps_executed.find((s) => s.step_id === 'login')!;
    assert.is(login.screenshot, join('screenshots', d.scenario_id, d.run_id, 'login.png'));
    assert.ok(existsSync(join(r.out, login.screenshot!)));
    assert.is(d.assertion_results.find((a) => a.assertion_id === 'signed_in')?.screenshot, login.screenshot);
  } finally {
    await r.close();
  }
});

test.run();
