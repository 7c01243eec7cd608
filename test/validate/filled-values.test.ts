import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScenarioText } from '../../src/validate/index.js';

const doc = (steps: unknown[]) =>
  JSON.stringify({
    $schema_version: '2.2', scenario_id: 'filled', name: 'n', description: 'd', platform: 'android', app_package: 'com.example.app',
    metadata: { app_version: '1', environment: 'test' },
    parameters: { DIR: { default: 'up' }, BTN: { default: 'HOME' } },
    steps: [{ id: 'open', action: 'launch_app', description: 'open' }, ...steps],
    assertions: [],
  });
const issues = (steps: unknown[]) => {
  const r = validateScenarioText(doc(steps));
  return [...r.errors, ...r.warnings].map((e) => `${e.rule} ${e.path}`).filter((i) => i !== 'no-assertions /assertions');
};

test('swipe and press_button take a ${NAME} value: the runner fills it in before the verb', () => {
  assert.equal(issues([{ id: 'scroll', action: 'swipe', description: 's', value: '${DIR}' }, { id: 'press', action: 'press_button', description: 'p', value: '${BTN}' }]), []);
});

test('an undeclared reference is still reported, and a literal $${ still is no direction', () => {
  assert.equal(issues([{ id: 'scroll', action: 'swipe', description: 's', value: '${WHERE}' }]), ['variable-undeclared /steps/1/value', 'parameter-unused /parameters/DIR', 'parameter-unused /parameters/BTN']);
  assert.ok(issues([{ id: 'scroll', action: 'swipe', description: 's', value: '$${DIR}' }]).includes('swipe-direction /steps/1/value'));
  assert.ok(issues([{ id: 'press', action: 'press_button', description: 'p', value: 'HOEM' }]).includes('press-button-value /steps/1/value'));
});

test.run();
