/**
 * The run keeps one set of variables for a scenario and all its flows, so a parameter named like a
 * variable of another file could never be read: parameter-shadows-variable across files, and the
 * runner refuses the same.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { planRun } from '../../src/engine/runner/flows.js';
import { loadScenario, validateScenarioText } from '../../src/validate/index.js';

const names = suite<{ dir: string }>('names that clash across a scenario and its flows');
names.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-flow-names-'));
  mkdirSync(join(ctx.dir, 'flows'));
});
names.after.each(({ dir }) => rmSync(dir, { recursive: true, force: true }));

const doc = (id: string, steps: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ $schema_version: '2.2', scenario_id: id, name: id, description: id, platform: 'android', app_package: 'com.mobilebridge.demo', metadata: { app_version: '1', environment: 't' }, steps, assertions: [], ...extra }, null, 2);
const emailVariable = { variables: { EMAIL: { type: 'string', description: 'shown email' } } };
const capture = doc('capture', [{ id: 'c', action: 'capture_value', description: 'x', target: 'the shown email', capture_to: 'EMAIL' }], emailVariable);
const typeEmail = doc('sign_in', [{ id: 't', action: 'type', description: 'email', target: 'the Email field', value: '${EMAIL}' }], { parameters: { EMAIL: {} } });
const openWith = { id: 'open', action: 'open_url', description: 'open link with the email', value: 'https://example.com/?e=${EMAIL}' };

function errorsOf(dir: string, text: string) {
  const file = join(dir, 'top.json');
  writeFileSync(file, text);
  return validateScenarioText(text, file, { baseDir: dir }).errors.map((e) => [e.rule, e.path, e.message]);
}

function planError(dir: string, text: string): string {
  const { scenario } = loadScenario(text, join(dir, 'top.json'));
  if (!scenario) throw new Error('valid without its folder');
  try {
    planRun(scenario, dir, { given: { EMAIL: 'qa@example.com' } });
  } catch (err) {
    return (err as Error).message;
  }
  return '';
}

names('a scenario parameter named like a variable of its flow: an error on the flow step, and the run refuses it before the first step', ({ dir }) => {
  writeFileSync(join(dir, 'flows', 'capture.json'), capture);
  const text = doc('top', [openWith, { id: 'f', flow: 'flows/capture.json' }], { parameters: { EMAIL: { default: 'qa@example.com' } } });
  assert.equal(errorsOf(dir, text), [
    ['parameter-shadows-variable', '/steps/1/flow', '"EMAIL" is a parameter of this scenario and a variable of flow "flows/capture.json": the run keeps one set of variables for the scenario and its flows, and ${EMAIL} would read that variable (empty until captured), never the parameter; rename one'],
  ]);
  assert.is(planError(dir, text), '"EMAIL" is a parameter of the scenario and a variable of flows/capture.json: variables are shared by the scenario and its flows, so ${EMAIL} would read the variable, never the parameter; rename one (mobilebridge validate says the same, rule parameter-shadows-variable)');
});

names('a scenario variable named like a parameter of its flow, and a flow parameter named like a variable of a sibling flow', ({ dir }) => {
  writeFileSync(join(dir, 'flows', 'sign_in.json'), typeEmail);
  writeFileSync(join(dir, 'flows', 'capture.json'), capture);
  const own = doc('top', [{ id: 'c', action: 'capture_value', description: 'x', target: 'the shown email', capture_to: 'EMAIL' }, { id: 's', flow: 'flows/sign_in.json', parameters: { EMAIL: 'a@b.c' } }], emailVariable);
  assert.equal(errorsOf(dir, own).map(([rule, path]) => [rule, path]), [['parameter-shadows-variable', '/steps/1/flow']]);
  assert.match(String(errorsOf(dir, own)[0][2]), /^"EMAIL" is a parameter of flow "flows\/sign_in\.json" and a variable of this scenario: .* inside the flow \$\{EMAIL\} would read the variable/);
  assert.match(planError(dir, own), /^"EMAIL" is a parameter of flows\/sign_in\.json and a variable of the scenario/);
  const siblings = doc('top', [{ id: 'f', flow: 'flows/capture.json' }, { id: 's', flow: 'flows/sign_in.json', parameters: { EMAIL: 'a@b.c' } }]);
  assert.equal(errorsOf(dir, siblings).map(([rule, path, message]) => [rule, path, String(message).split(':')[0]]), [['parameter-shadows-variable', '/steps/1/flow', '"EMAIL" is a parameter of flow "flows/sign_in.json" and a variable of flows/capture.json']]);
  assert.match(planError(dir, siblings), /^"EMAIL" is a parameter of flows\/sign_in\.json and a variable of flows\/capture\.json/);
});

names('a clash inside a flow of a flow is found from the top, told once however often the flow is used', ({ dir }) => {
  writeFileSync(join(dir, 'flows', 'capture.json'), capture);
  writeFileSync(join(dir, 'flows', 'wrap.json'), doc('wrap', [{ id: 'in', flow: 'capture.json' }]));
  const text = doc('top', [openWith, { id: 'w1', flow: 'flows/wrap.json' }, { id: 'w2', flow: 'flows/wrap.json' }], { parameters: { EMAIL: {} } });
  const errors = errorsOf(dir, text);
  assert.equal(errors.map(([rule, path]) => [rule, path]), [['parameter-shadows-variable', '/steps/1/flow']]);
  assert.match(String(errors[0][2]), /^"EMAIL" is a parameter of this scenario and a variable of flows\/capture\.json \(through flow "flows\/wrap\.json"\)/);
});

names('flows sharing a variable, and a flow parameter passed a scenario parameter of the same name, stay valid and plan', ({ dir }) => {
  writeFileSync(join(dir, 'flows', 'capture.json'), capture);
  writeFileSync(join(dir, 'flows', 'sign_in.json'), typeEmail);
  const shared = doc('top', [{ id: 'a', flow: 'flows/capture.json' }, { id: 'b', flow: 'flows/capture.json' }]);
  assert.equal(errorsOf(dir, shared), []);
  assert.is(planError(dir, shared), '');
  const passed = doc('top', [openWith, { id: 's', flow: 'flows/sign_in.json', parameters: { EMAIL: '${EMAIL}' } }], { parameters: { EMAIL: {} } });
  assert.equal(errorsOf(dir, passed), []);
  assert.is(planError(dir, passed), '');
});

names.run();
