import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LineIndex } from '../../src/validate/json.js';
import { renderHuman } from '../../src/validate/human.js';
import { validateScenarioText } from '../../src/validate/index.js';

const base = { $schema_version: '2.1', scenario_id: 'small', name: 'n', description: 'd', platform: 'android', app_package: 'com.example.app', metadata: { app_version: '1', environment: 'test' } };
const open = { id: 'open', action: 'launch_app', description: 'open' };
const seen = { id: 'seen', after_step: 'open', type: 'element_exists', description: 'seen', element_description: 'the title' };
const doc = (extra: Record<string, unknown>) => JSON.stringify({ ...base, steps: [open], assertions: [seen], ...extra }, null, 2);

test('a $schema_version written as a number is told to be quoted, with the string it stands for', () => {
  for (const [given, meant] of [[2.1, '2.1'], [2, '2.0'], [2.2, '2.2']] as const) {
    const [e] = validateScenarioText(doc({ $schema_version: given })).errors;
    assert.is(e.rule, 'schema-version');
    assert.match(e.message, /write it in quotes/);
    assert.is(e.suggestion, `use "${meant}"`);
  }
});

test('a 2.1 document is not offered 2.2-only fields in the lists of allowed ones', () => {
  const [notFor] = validateScenarioText(doc({ assertions: [{ ...seen, expected_value: 'x' }] })).errors;
  assert.is(notFor.rule, 'field-not-for-type');
  assert.not.match(notFor.message, /timeout_ms|condition/);
  const [unknownStep] = validateScenarioText(doc({ steps: [{ ...open, bogus: 1 }] })).errors;
  assert.is(unknownStep.rule, 'unknown-property');
  assert.not.match(unknownStep.message, /clear_first/);
  const [unknownRoot] = validateScenarioText(doc({ bogus: 1 })).errors;
  assert.not.match(unknownRoot.message, /parameters/);
  // A 2.2 document is offered them.
  const [v22] = validateScenarioText(doc({ $schema_version: '2.2', assertions: [{ ...seen, expected_value: 'x' }] })).errors;
  assert.match(v22.message, /timeout_ms, condition/);
});

test('press_button BACK in a cross-platform scenario warns: it fails when the scenario runs on iOS', () => {
  const report = validateScenarioText(doc({ platform: 'cross-platform', steps: [open, { id: 'back', action: 'press_button', description: 'back', value: 'BACK' }] }));
  assert.is(report.valid, true);
  assert.equal(report.warnings.map((w) => [w.rule, w.path]), [['unattended-replay', '/steps/1/value']]);
  // Not when a platform condition keeps it to Android, on the step or on a step it is nested in.
  const onAndroid = { type: 'device_property', property: 'platform', operator: '!=', value: 'iOS' };
  const guarded = validateScenarioText(doc({ platform: 'cross-platform', steps: [open, { id: 'back', action: 'press_button', description: 'back', value: 'BACK', condition: onAndroid }] }));
  assert.equal(guarded.warnings, []);
  const back = { id: 'back', action: 'press_button', description: 'back', value: 'BACK' };
  const nested = validateScenarioText(doc({ platform: 'cross-platform', steps: [open, { id: 'group', action: 'launch_app', description: 'g', condition: { ...onAndroid, operator: '==', value: 'android' }, sub_steps: [back] }] }));
  assert.equal(nested.warnings, []);
});

test('lone CR line breaks count as lines, for positions and for the --human source line', () => {
  const text = doc({ steps: [{ ...open, action: 'tpa' }] }).replace(/\n/g, '\r');
  const report = validateScenarioText(text);
  const [e] = report.errors;
  assert.is(e.rule, 'unknown-action');
  const crlf = validateScenarioText(text.replace(/\r/g, '\r\n')).errors[0];
  assert.equal([e.line, e.column], [crlf.line, crlf.column]);
  assert.ok(e.line > 1);
  assert.not.match(renderHuman(report, text), /\r/);
  assert.equal(new LineIndex('a\r\rb\r\nc').lineText(3), 'b');
});

test('Android resource references are locators; a home-relative path is not', () => {
  const targetRule = (target: string) => validateScenarioText(doc({ steps: [open, { id: 'tap_it', action: 'tap', description: 't', target }] })).errors.map((e) => e.rule);
  for (const locator of ['@id/login', '@+id/login', 'R.id.login', '@android:id/title']) assert.equal(targetRule(locator), ['target-is-locator'], locator);
  for (const words of ['~/Documents folder', 'the R.id label', 'the Login button']) assert.equal(targetRule(words), [], words);
  assert.equal(targetRule('~login'), ['target-is-locator']);
});

test.run();
