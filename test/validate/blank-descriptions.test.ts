import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScenarioText } from '../../src/validate/index.js';

const doc = (steps: unknown[], assertions: unknown[] = []) =>
  JSON.stringify({ $schema_version: '2.1', scenario_id: 'blank', name: 'n', description: 'd', platform: 'android', app_package: 'com.example.app', metadata: { app_version: '1', environment: 'test' }, steps, assertions }, null, 2);
const open = { id: 'open', action: 'open_url', description: 'open', value: 'https://example.com' };
const errors = (text: string) => validateScenarioText(text).errors.map((e) => [e.rule, e.path]);

test('a target of blanks only is empty-string, as "" is (the runner trims it and stops with "no target given")', () => {
  assert.equal(errors(doc([open, { id: 'tap_blank', action: 'tap', description: 'tap', target: '   ' }])), [['empty-string', '/steps/1/target']]);
  assert.equal(errors(doc([open, { id: 'tap_tab', action: 'tap', description: 'tap', target: '\t\u00a0' }])), [['empty-string', '/steps/1/target']]);
});

test('an element_description of blanks only is empty-string, in an assertion and in an element_visible condition', () => {
  const assertion = { id: 'seen', after_step: 'open', type: 'element_exists', description: 'seen', element_description: ' ' };
  assert.equal(errors(doc([open], [assertion])), [['empty-string', '/assertions/0/element_description']]);
  const conditional = { ...open, id: 'again', condition: { type: 'element_visible', element_description: '  ' } };
  assert.equal(errors(doc([open, conditional], [{ ...assertion, element_description: 'the title' }])), [['empty-string', '/steps/1/condition/element_description']]);
});

test('a description with blanks around words is fine', () => {
  assert.equal(errors(doc([open, { id: 'tap_ok', action: 'tap', description: 'tap', target: '  the OK button ' }])), []);
});

test.run();
