import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateScenarioValue } from '../../src/validate/index.js';

/**
 * app_state fresh_install / logged_out is set up by clearing the app's data, which iOS refuses
 * (UNSUPPORTED): the runner records it as manual action, so no run on iOS passes unattended. The
 * validator says so, as it does for a clear_app_data device action.
 */

function doc(platform: string, pre: Record<string, unknown>, steps: unknown[] = [{ id: 'launch', action: 'launch_app', description: 'Open the app' }]): Record<string, unknown> {
  return {
    $schema_version: '2.2',
    scenario_id: 'start',
    name: 'Start',
    description: 'Starts the app',
    platform,
    mode: 'platform-agnostic',
    app_package: 'com.mobilebridge.demo',
    metadata: { app_version: '1.0', environment: 'development' },
    preconditions: pre,
    steps,
    assertions: [{ id: 'home', after_step: 'launch', type: 'element_exists', description: 'home', element_description: 'Items' }],
  };
}

const warned = (d: Record<string, unknown>, rule: string) => validateScenarioValue(d, 'start.json').warnings.filter((w) => w.rule === rule);

test('ios with app_state fresh_install or logged_out: unattended-replay on app_state, suggesting a reinstall', () => {
  for (const state of ['fresh_install', 'logged_out']) {
    const [w, ...more] = warned(doc('ios', { app_state: state }), 'unattended-replay');
    assert.equal(more, [], state);
    assert.is(w.path, '/preconditions/app_state');
    assert.match(w.message, `app_state "${state}" cannot replay unattended on iOS`);
    assert.match(w.message, 'needs manual action');
    assert.match(w.suggestion!, '{"action": "uninstall_app"}, {"action": "install_app"');
  }
});

test('cross-platform: warned for its runs on iOS; android and logged_in: not', () => {
  const [w] = warned(doc('cross-platform', { app_state: 'fresh_install' }), 'unattended-replay');
  assert.match(w.message, 'when this cross-platform scenario runs on iOS');
  assert.equal(warned(doc('android', { app_state: 'fresh_install' }), 'unattended-replay'), []);
  assert.equal(warned(doc('ios', { app_state: 'logged_in' }), 'unattended-replay'), []);
});

test('ios: a permission answer after fresh_install (or clear_app_data) is still warned, a reinstall silences it', () => {
  const grant = [{ id: 'launch', action: 'launch_app', description: 'Open the app' }, { id: 'allow', action: 'grant_permission', description: 'Allow', permission_name: 'camera' }];
  assert.is(warned(doc('ios', { app_state: 'fresh_install' }, grant), 'permission-prompt-once').length, 1);
  assert.is(warned(doc('ios', { device_actions: [{ action: 'clear_app_data' }] }, grant), 'permission-prompt-once').length, 1);
  assert.equal(warned(doc('ios', { device_actions: [{ action: 'uninstall_app' }, { action: 'install_app', value: 'build/Demo.app' }] }, grant), 'permission-prompt-once'), []);
  assert.equal(warned(doc('cross-platform', { app_state: 'fresh_install' }, grant), 'permission-prompt-once'), []);
});

test('ios device_properties network wifi / connected / disconnected: unattended-replay (Wi-Fi cannot be read or switched there); cellular and android: not', () => {
  const props = (network: string) => ({ device_properties: { network, location_services: 'enabled', orientation: 'landscape' } });
  for (const network of ['wifi', 'connected', 'disconnected']) {
    const [w, ...more] = warned(doc('ios', props(network)), 'unattended-replay');
    assert.equal(more, [], network);
    assert.is(w.path, '/preconditions/device_properties/network');
    assert.match(w.message, `device_properties network "${network}" cannot replay unattended on iOS`);
    assert.match(w.suggestion!, '{"action": "set_orientation", "value": "landscape"}');
  }
  assert.match(warned(doc('cross-platform', props('wifi')), 'unattended-replay')[0].message, 'when this cross-platform scenario runs on iOS');
  assert.equal(warned(doc('ios', props('cellular')), 'unattended-replay'), []);
  assert.equal(warned(doc('android', props('disconnected')), 'unattended-replay'), []);
});

test.run();
