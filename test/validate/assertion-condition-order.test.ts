import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScenarioText } from '../../src/validate/index.js';

const tap = (id: string, extra: Record<string, unknown> = {}) => ({ id, action: 'tap', description: id, target: `the ${id} button`, ...extra });

/** Errors of a 2.2 scenario whose one assertion runs after `after` with previous_step_skipped on `ref`. */
function errors(after: string, ref: string) {
  const text = JSON.stringify(
    {
      $schema_version: '2.2', scenario_id: 'order', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '1', environment: 't' },
      steps: [tap('first'), tap('parent', { sub_steps: [tap('child_a'), tap('child_b')] }), tap('last', { condition: { type: 'device_property', property: 'platform', value: 'ios' } })],
      assertions: [{ id: 'check', after_step: after, type: 'alert_present', description: 'd', condition: { type: 'previous_step_skipped', step_id: ref } }],
    },
    null,
    2,
  );
  return validateScenarioText(text).errors.map((e) => [e.rule, e.path, e.message]);
}

test('an assertion condition on a step that runs after the assertion is checked is condition-step-not-earlier: it would always count as skipped', () => {
  const found = errors('first', 'last');
  assert.equal(found.map(([rule, path]) => [rule, path]), [['condition-step-not-earlier', '/assertions/0/condition/step_id']]);
  assert.match(String(found[0][2]), /step_id "last" comes after step first, so it has not run when this assertion is checked/);
  // The step enclosing after_step has not finished when a nested step's assertions run.
  assert.match(String(errors('child_b', 'parent')[0]?.[2]), /encloses step child_b/);
});

test('the after_step itself, an earlier step, or a step nested under after_step has run: no error', () => {
  for (const [after, ref] of [['last', 'last'], ['last', 'first'], ['parent', 'child_b'], ['child_b', 'child_a'], ['last', 'child_a']]) {
    assert.equal(errors(after, ref), [], `${after} / ${ref}`);
  }
});

test.run();
