import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadScenario, validateScenarioText } from '../../src/validate/index.js';

const base = { $schema_version: '2.2', scenario_id: 'lists', name: 'n', description: 'd', platform: 'android', app_package: 'com.example.app', metadata: { app_version: '1', environment: 'test' }, steps: [{ id: 'open', action: 'open_url', description: 'o', value: 'https://example.com' }], assertions: [] };
const withStep = (extra: Record<string, unknown>) => ({ steps: [{ ...base.steps[0], ...extra }] });

/** Each: the document's changed fields, and the one pointer the list must be reported at. */
const CASES: [string, Record<string, unknown>, string][] = [
  ['empty preconditions', { preconditions: [] }, '/preconditions'],
  ['preconditions as a list of words', { preconditions: ['logged_in'] }, '/preconditions'],
  ['metadata as a list', { metadata: ['1', 'staging'] }, '/metadata'],
  ['empty retry_policy', withStep({ on_failure: 'retry', retry_policy: [] }), '/steps/0/retry_policy'],
  ['retry_policy as numbers', withStep({ on_failure: 'retry', retry_policy: [3, 1000] }), '/steps/0/retry_policy'],
  ['wait_config as a list', { steps: [{ id: 'w', action: 'wait_for_element', description: 'w', target: 'the OK button', wait_config: [{ type: 'element_visible' }] }] }, '/steps/0/wait_config'],
  ['a parameter declared as []', { parameters: { PW: [] }, steps: [{ ...base.steps[0], value: 'https://example.com/${PW}' }] }, '/parameters/PW'],
  ['root parameters as a list', { parameters: [{ EMAIL: 'x' }] }, '/parameters'],
  ['root variables as a list', { variables: [] }, '/variables'],
  ['empty flow step parameters', { steps: [{ id: 'f', flow: 'flows/x.json', parameters: [] }] }, '/steps/0/parameters'],
  ['flow step parameters as a list', { steps: [{ id: 'f', flow: 'flows/x.json', parameters: [{ EMAIL: 'x' }] }] }, '/steps/0/parameters'],
];

test('a list where an object belongs is one type-mismatch on the list, nothing about its items', () => {
  for (const [name, extra, pointer] of CASES) {
    for (const text of [JSON.stringify({ ...base, ...extra }, null, 2), JSON.stringify({ ...base, ...extra })]) {
      const report = validateScenarioText(text, name);
      assert.equal(report.errors.map((e) => [e.rule, e.path]), [['type-mismatch', pointer]], name);
      assert.match(report.errors[0].message, /is a list \[\.\.\.\], but .*object/, name);
      assert.not.match(report.errors[0].message, /"0"/, name);
      // The full path (run, loadScenario) gives the same report and builds no scenario.
      const loaded = loadScenario(text, name);
      assert.equal(loaded.report, report, name);
      assert.is(loaded.scenario, undefined, name);
    }
  }
});

test('the message names what the object holds', () => {
  const [retry] = validateScenarioText(JSON.stringify({ ...base, ...withStep({ on_failure: 'retry', retry_policy: [3, 1000] }) })).errors;
  assert.match(retry.message, /"retry_policy" is a list .*max_attempts, backoff_ms/);
  const [vars] = validateScenarioText(JSON.stringify({ ...base, variables: [] })).errors;
  assert.match(vars.message, /keyed by name, e\.g\. \{"order_id"/);
});

test('objects there are still fine', () => {
  const ok = { preconditions: { app_state: 'logged_in' }, ...withStep({ on_failure: 'retry', retry_policy: { max_attempts: 3 } }) };
  assert.equal(validateScenarioText(JSON.stringify({ ...base, ...ok })).errors, []);
});

test.run();
