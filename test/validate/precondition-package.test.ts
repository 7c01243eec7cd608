import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScenarioText } from '../../src/validate/index.js';

const doc = (deviceActions: unknown[], platform = 'android') =>
  JSON.stringify({
    $schema_version: '2.1', scenario_id: 'pre', name: 'n', description: 'd', platform, app_package: 'com.example.app',
    metadata: { app_version: '1', environment: 'test' },
    preconditions: { device_actions: deviceActions },
    steps: [{ id: 'open', action: 'launch_app', description: 'open' }],
    assertions: [{ id: 'seen', after_step: 'open', type: 'element_exists', description: 'seen', element_description: 'the title' }],
  });
const issues = (deviceActions: unknown[], platform?: string) => {
  const r = validateScenarioText(doc(deviceActions, platform));
  return [...r.errors, ...r.warnings].map((e) => `${e.rule} ${e.path}`);
};

test('target_package of clear_app_data / uninstall_app is checked as a package name: the runner acts on it', () => {
  assert.equal(issues([{ action: 'uninstall_app', target_package: 'not a package!' }]), ['app-package-invalid /preconditions/device_actions/0/target_package']);
  assert.equal(issues([{ action: 'clear_app_data', target_package: '' }]), ['app-package-invalid /preconditions/device_actions/0/target_package']);
  assert.equal(issues([{ action: 'uninstall_app', target_package: 'com.example.other' }, { action: 'clear_app_data' }]), []);
  // A bundle id with a hyphen is fine on iOS, not on Android.
  assert.equal(issues([{ action: 'uninstall_app', target_package: 'com.example.my-app' }], 'ios'), []);
  assert.equal(issues([{ action: 'uninstall_app', target_package: 'com.example.my-app' }]), ['app-package-invalid /preconditions/device_actions/0/target_package']);
});

test('target_package and value where the action ignores them are field-unused warnings', () => {
  assert.equal(issues([{ action: 'enable_wifi', target_package: 'com.x.y', value: 'on' }]), ['field-unused /preconditions/device_actions/0/target_package', 'field-unused /preconditions/device_actions/0/value']);
  assert.equal(issues([{ action: 'uninstall_app', value: 'com.x.y' }]), ['field-unused /preconditions/device_actions/0/value']);
  assert.equal(issues([{ action: 'install_app', value: 'builds/app.apk', target_package: 'com.x.y' }]), ['field-unused /preconditions/device_actions/0/target_package']);
  const report = validateScenarioText(doc([{ action: 'enable_wifi', value: 'on' }]));
  assert.is(report.valid, true);
});

test.run();
