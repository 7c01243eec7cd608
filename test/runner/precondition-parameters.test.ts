import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScenarioValue, type Scenario } from '../../src/validate/index.js';
import { rig, run, scenario } from './harness.js';

const DEVICE = 'virtual-android-1';

const withPreconditions = (base: Scenario, device_actions: NonNullable<Scenario['preconditions']>['device_actions']): Scenario => ({
  ...base,
  $schema_version: '2.2',
  parameters: { BUILD: { description: 'the CI build' }, PKG: { default: base.app_package } },
  preconditions: { device_actions },
});

test('parameters are filled into preconditions: the install path and the package are the values given, not "${NAME}"', async () => {
  const r = rig();
  try {
    const base = scenario(r, 'clear_data_cross');
    const install = withPreconditions(base, [{ action: 'install_app', value: 'builds/${BUILD}.apk' }, { action: 'clear_app_data', target_package: '${PKG}' }]);
    const missing = await run(r, 'clear_data_cross', DEVICE, { scenario: install, parameters: { given: { BUILD: 'nightly-42' } } });
    assert.is(missing.document.status, 'error');
    assert.match(missing.document.summary, /^error before the first step: INVALID_PARAMETER: precondition "install builds\/nightly-42\.apk": no file at \S+nightly-42\.apk /);
    const clear = withPreconditions(base, [{ action: 'clear_app_data', target_package: '${PKG}' }]);
    const cleared = await run(r, 'clear_data_cross', DEVICE, { scenario: clear, parameters: { given: { BUILD: 'unused' } } });
    assert.not.match(cleared.document.summary, 'before the first step', cleared.document.summary);
    assert.not.match(JSON.stringify(cleared.document), '${PKG}');
  } finally {
    await r.close();
  }
});

test('the validator counts a parameter used in preconditions as used, and refuses a captured variable there', () => {
  const doc = {
    $schema_version: '2.2', scenario_id: 'pre', name: 'pre', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
    metadata: { app_version: '1', environment: 't' },
    parameters: { APK: { default: 'builds/app.apk' }, PKG: { default: 'com.mobilebridge.demo' } },
    preconditions: { device_actions: [{ action: 'install_app', value: '${APK}' }, { action: 'clear_app_data', target_package: '${PKG}' }] },
    steps: [{ id: 'launch', action: 'launch_app', description: 'l' }],
    assertions: [{ id: 'up', after_step: 'launch', type: 'element_exists', description: 'x', element_description: 'Item 1' }],
  };
  const report = validateScenarioValue(doc);
  assert.ok(report.valid, JSON.stringify(report.errors));
  assert.equal(report.warnings.map((w) => w.rule), []);
  const typo = validateScenarioValue({ ...doc, preconditions: { device_actions: [{ action: 'install_app', value: '${APKK}' }] } });
  assert.equal(typo.errors.map((e) => [e.rule, e.path]), [['variable-undeclared', '/preconditions/device_actions/0/value']]);
});

test.run();
