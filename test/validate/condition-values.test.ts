import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScenarioValue } from '../../src/validate/index.js';

/**
 * A 2.2 scenario whose second step carries `condition`, with a variable `total` of the given type
 * captured before it and a parameter MIN_API.
 */
function withCondition(condition: Record<string, unknown>, variableType = 'string'): Record<string, unknown> {
  return {
    $schema_version: '2.2',
    scenario_id: 'conditions',
    name: 'Conditions',
    description: 'Condition values',
    platform: 'android',
    app_package: 'com.example.shop',
    metadata: { app_version: '1.0', environment: 'staging' },
    parameters: { MIN_API: { default: '30' } },
    variables: { total: { type: variableType, description: 'cart total' } },
    steps: [
      { id: 'capture', action: 'capture_value', description: 'read the total', target: 'the Total label', capture_to: 'total' },
      { id: 'open', action: 'tap', description: 'open the cart', target: 'the Cart tab', condition },
    ],
    assertions: [{ id: 'shown', after_step: 'open', type: 'element_exists', description: 'cart', element_description: 'the Cart title' }],
  };
}

const rules = (condition: Record<string, unknown>, variableType?: string): string[] =>
  validateScenarioValue(withCondition(condition, variableType)).errors.map((e) => `${e.rule} ${e.path}`);

const property = (name: string, value: unknown, operator = '==') => ({ type: 'device_property', property: name, operator, value });
const variable = (value: unknown, operator = '==') => ({ type: 'variable_value', variable_name: 'total', operator, value });

// SPEC §3 gives condition values no fixed type and the runner compares loosely, so these are valid.
test('values the runner compares as meant are accepted', () => {
  const accepted: [Record<string, unknown>, string?][] = [
    [property('api_level', '33', '>=')],
    [property('api_level', 33, '>=')],
    [property('screen_width', '1080', '>')],
    [property('api_level', '${MIN_API}', '>=')],
    [property('platform', 'Android')],
    [property('orientation', 'LANDSCAPE')],
    [property('dark_mode', 'true')],
    [property('network', 'WiFi')],
    [variable(12), 'string'],
    [variable('5', '>'), 'string'],
    [variable('12', '>='), 'integer'],
    [variable(2.5, '<'), 'number'],
    [variable('true'), 'boolean'],
    [variable('${MIN_API}', '>'), 'integer'],
  ];
  for (const [condition, type] of accepted) assert.equal(rules(condition, type), [], JSON.stringify([condition, type]));
});

test('values that can never compare as meant are condition-value errors', () => {
  const value = '/steps/1/condition/value';
  const operator = '/steps/1/condition/operator';
  const rejected: [Record<string, unknown>, string | undefined, string][] = [
    [property('api_level', 'latest', '>='), undefined, value],
    [property('screen_height', true), undefined, value],
    [property('platform', 'windows'), undefined, value],
    [property('dark_mode', 'dim'), undefined, value],
    [property('orientation', 'portrait', '>'), undefined, operator],
    [variable('a dozen', '>'), 'integer', value],
    [variable('maybe'), 'boolean', value],
    [variable('abc', '>'), 'string', operator],
    [variable(true, '<'), 'boolean', operator],
  ];
  for (const [condition, type, path] of rejected) assert.equal(rules(condition, type), [`condition-value ${path}`], JSON.stringify([condition, type]));
});

test('a condition or assertion that is not an object names the types to give, not an empty "use one of:"', () => {
  for (const given of ['always', 5, null]) {
    const doc = withCondition({}) as { steps: Record<string, unknown>[]; assertions: unknown[] };
    doc.steps[1].condition = given;
    const [e] = validateScenarioValue(doc).errors;
    assert.is(`${e.rule} ${e.path}`, 'unknown-condition-type /steps/1/condition');
    assert.is(e.message, `condition ${given === 'always' ? '"always"' : given === 5 ? 'number 5' : 'null'} is not an object; give an object whose "type" is one of: device_property, previous_step_skipped, variable_value, element_visible`);
    assert.not.match(e.message, /one of: *$/);
  }
  const doc = withCondition(property('api_level', 30, '>=')) as { assertions: unknown[] };
  doc.assertions = ['element_exists'];
  const [e] = validateScenarioValue(doc).errors;
  assert.is(`${e.rule} ${e.path}`, 'unknown-assertion-type /assertions/0');
  assert.match(e.message, /^assertions\[0\] "element_exists" is not an object; give an object whose "type" is one of: element_exists, element_not_exists, element_visible, /);
  assert.match(String(e.suggestion), /^give an object whose "type" is one of: element_exists, /);
  // An object with a misspelt type is an object: it keeps its did-you-mean (the viewer's quick fix applies it).
  doc.assertions = [{ id: 'a', type: 'element_visble', description: 'd', element_description: 'the Sign in button' }];
  const [typo] = validateScenarioValue(doc).errors;
  assert.is(`${typo.rule} ${typo.path}`, 'unknown-assertion-type /assertions/0/type');
  assert.not.match(typo.message, /not an object/);
  assert.match(String(typo.suggestion), /element_visible/);
});

test.run();
