/**
 * A flow's steps run on the platform of the scenario that uses it (its own `platform` is not
 * applied): the validator judges them there too, and reports what fails on the flow step.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { planRun } from '../../src/engine/runner/flows.js';
import { loadScenario, validateScenarioText } from '../../src/validate/index.js';

const platforms = suite<{ dir: string }>('flow steps on the platform of the scenario using the flow');
platforms.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-flow-platform-'));
  mkdirSync(join(ctx.dir, 'flows'));
});
platforms.after.each(({ dir }) => rmSync(dir, { recursive: true, force: true }));

const doc = (id: string, platform: string, steps: unknown[]) =>
  JSON.stringify({ $schema_version: '2.2', scenario_id: id, name: id, description: id, platform, app_package: 'com.mobilebridge.demo', metadata: { app_version: '1', environment: 't' }, steps, assertions: [] }, null, 2);
const back = { id: 'b', action: 'press_button', value: 'BACK', description: 'back' };
const wipe = { id: 'c', action: 'clear_app_data', description: 'wipe' };
const launch = { id: 'launch', action: 'launch_app', description: 'open' };

function validate(dir: string, name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const report = validateScenarioText(text, file, { baseDir: dir });
  const rows = (list: typeof report.errors) => list.filter((i) => i.rule !== 'no-assertions').map((i) => [i.rule, i.path, i.message]);
  return { errors: rows(report.errors), warnings: rows(report.warnings) };
}

platforms('an ios scenario using an android flow with press_button BACK and clear_app_data: an error and a warning on the flow step, naming the step', ({ dir }) => {
  writeFileSync(join(dir, 'flows', 'back.json'), doc('back', 'android', [back, wipe]));
  const { errors, warnings } = validate(dir, 'top.json', doc('top', 'ios', [launch, { id: 'back', flow: 'flows/back.json' }]));
  assert.equal(errors, [
    ['press-button-back-ios', '/steps/1/flow', 'step back.b (step "b" of flow "flows/back.json") runs on this scenario\'s platform, ios (a flow\'s own "platform" is not applied): iOS has no BACK button; tap the screen\'s back control instead, or use press_back with "mode": "platform-agnostic"'],
  ]);
  assert.equal(warnings, [
    ['unattended-replay', '/steps/1/flow', 'step back.c (step "c" of flow "flows/back.json") runs on this scenario\'s platform, ios (a flow\'s own "platform" is not applied): clear_app_data cannot replay unattended on iOS (no platform primitive); the runner marks it needs_manual'],
  ]);
});

platforms('a cross-platform scenario warns for BACK in an android flow, unless a platform condition keeps the flow step to Android', ({ dir }) => {
  writeFileSync(join(dir, 'flows', 'back.json'), doc('back', 'android', [back]));
  const open = validate(dir, 'top.json', doc('top', 'cross-platform', [launch, { id: 'back', flow: 'flows/back.json' }]));
  assert.equal(open.errors, []);
  assert.equal(open.warnings.map(([rule, path]) => [rule, path]), [['unattended-replay', '/steps/1/flow']]);
  assert.match(String(open.warnings[0][2]), /^step back\.b .*: press_button BACK fails when this cross-platform scenario runs on iOS/);
  const onAndroid = { type: 'device_property', property: 'platform', operator: '==', value: 'android' };
  const kept = validate(dir, 'kept.json', doc('kept', 'cross-platform', [launch, { id: 'back', flow: 'flows/back.json', condition: onAndroid }]));
  assert.equal([kept.errors, kept.warnings], [[], []]);
});

platforms('nested flows carry the top scenario\'s platform down; each problem is told once however often the flow is used', ({ dir }) => {
  writeFileSync(join(dir, 'flows', 'b.json'), doc('b', 'android', [back]));
  writeFileSync(join(dir, 'flows', 'a.json'), doc('a', 'android', [{ id: 'x', flow: 'b.json' }, { id: 'y', flow: 'b.json' }]));
  const { errors } = validate(dir, 'top.json', doc('top', 'ios', [launch, { id: 'go', flow: 'flows/a.json' }]));
  assert.equal(errors.map(([rule, path]) => [rule, path]), [['press-button-back-ios', '/steps/1/flow']]);
  assert.match(String(errors[0][2]), /^step go\.x\.b \(step "b" of flows\/b\.json \(through flow "flows\/a\.json"\)\) runs on this scenario's platform, ios/);
});

platforms('the platform that counts is the top one: an ios flow in an android scenario may use an android flow with BACK, at validation and at run time', ({ dir }) => {
  writeFileSync(join(dir, 'flows', 'b.json'), doc('b', 'android', [back]));
  writeFileSync(join(dir, 'flows', 'a.json'), doc('a', 'ios', [{ id: 'x', flow: 'b.json' }]));
  const text = doc('top', 'android', [launch, { id: 'go', flow: 'flows/a.json' }]);
  assert.equal(validate(dir, 'top.json', text).errors, []);
  const { scenario } = loadScenario(text, join(dir, 'top.json'), { baseDir: dir });
  if (!scenario) throw new Error('top.json should be valid');
  assert.equal(planRun(scenario, dir).flows.get('go.x')?.steps.map((s) => s.id), ['go.x.b']);
  // On its own, a.json is an ios scenario whose flow presses BACK: that is reported where it is used.
  const alone = validate(join(dir, 'flows'), 'a.json', doc('a', 'ios', [{ id: 'x', flow: 'b.json' }]));
  assert.equal(alone.errors.map(([rule, path]) => [rule, path]), [['press-button-back-ios', '/steps/0/flow']]);
});

platforms('a flow invalid on its own platform is flow-invalid only; a package value is checked on the platform the step runs on', ({ dir }) => {
  writeFileSync(join(dir, 'flows', 'ios_back.json'), doc('ios_back', 'ios', [back]));
  writeFileSync(join(dir, 'flows', 'pkg.json'), doc('pkg', 'android', [{ id: 'other', action: 'launch_app', value: 'com.example.my_app', description: 'the other app' }]));
  const { errors } = validate(dir, 'top.json', doc('top', 'ios', [launch, { id: 'a', flow: 'flows/ios_back.json' }, { id: 'p', flow: 'flows/pkg.json' }]));
  assert.equal(errors.map(([rule, path]) => [rule, path]), [['flow-invalid', '/steps/1/flow'], ['app-package-invalid', '/steps/2/flow']]);
  assert.match(String(errors[1][2]), /^step p\.other \(step "other" of flow "flows\/pkg\.json"\) runs on this scenario's platform, ios .*: launch_app value "com\.example\.my_app" is not a package name or bundle id/);
});

platforms('the same platform as the flow: its warnings now show on the flow step, and a scenario without flows is unchanged', ({ dir }) => {
  writeFileSync(join(dir, 'flows', 'wipe.json'), doc('wipe', 'ios', [wipe]));
  const { warnings } = validate(dir, 'top.json', doc('top', 'ios', [launch, { id: 'w', flow: 'flows/wipe.json' }]));
  assert.equal(warnings.map(([rule, path]) => [rule, path]), [['unattended-replay', '/steps/1/flow']]);
  const plain = validate(dir, 'plain.json', doc('plain', 'ios', [launch, back, wipe]));
  assert.equal(plain.errors.map(([rule, path]) => [rule, path]), [['press-button-back-ios', '/steps/1/value']]);
  assert.equal(plain.warnings, [['unattended-replay', '/steps/2/action', 'step "c" (clear_app_data) cannot replay unattended on iOS (no platform primitive); the runner marks it needs_manual']]);
});

platforms.run();
