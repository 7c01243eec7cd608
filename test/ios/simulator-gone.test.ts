import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { makeRig } from './rig.js';

/*
 * A simulator shut down (or deleted) after it was opened: simctl answers "Unable to lookup in current state: Shutdown"
 * (CoreSimulator SimError 405) or "Invalid device: <udid>". That is a device that went away, not an internal failure.
 */

const DEMO = 'com.mobilebridge.demo';

test('a simulator shut down under an open device: DEVICE_NOT_FOUND "boot it again", for launch and for listing apps', async () => {
  const rig = await makeRig();
  try {
    assert.is((await rig.call('mobile_launch_app', { packageName: DEMO })).status, 'success');
    rig.tools.config.simulators[0].state = 'Shutdown';
    const launch = await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.is(launch.code, 'DEVICE_NOT_FOUND', JSON.stringify(launch));
    assert.match(launch.message, /is no longer running .*Unable to lookup in current state: Shutdown.*boot it again/);
    const apps = await rig.call('mobile_list_apps');
    assert.is(apps.code, 'DEVICE_NOT_FOUND', JSON.stringify(apps));
    rig.tools.config.simulators[0].state = 'Booted';
    assert.ok(Array.isArray((await rig.call('mobile_list_apps')).apps), 'booted again, it works again');
  } finally {
    await rig.close();
  }
});

test('a simulator deleted under an open device: DEVICE_NOT_FOUND, quoting simctl', async () => {
  const rig = await makeRig();
  try {
    assert.is((await rig.call('mobile_launch_app', { packageName: DEMO })).status, 'success');
    const [sim] = rig.tools.config.simulators.splice(0, 1);
    const r = await rig.call('mobile_terminate_app', { packageName: DEMO });
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
    assert.match(r.message, new RegExp(`Invalid device: ${sim.udid}`));
  } finally {
    await rig.close();
  }
});

test('a simulator shut down with its WebDriverAgent: screenshots, taps and listings are DEVICE_NOT_FOUND "boot it again", not "start WebDriverAgent"', async () => {
  const rig = await makeRig();
  try {
    assert.is((await rig.call('mobile_launch_app', { packageName: DEMO })).status, 'success');
    rig.tools.config.simulators[0].state = 'Shutdown';
    await rig.wda.stop();
    for (const [tool, params] of [
      ['mobile_take_screenshot', {}],
      ['mobile_click_on_screen_at_coordinates', { x: 10, y: 10 }],
      ['mobile_list_elements_on_screen', {}],
    ] as const) {
      const r = await rig.call(tool, params);
      assert.is(r.code, 'DEVICE_NOT_FOUND', `${tool}: ${JSON.stringify(r)}`);
      assert.match(r.message, /simulator .* is no longer running \(simctl no longer lists it as booted.*\): boot it again/);
    }
    // Booted again but WebDriverAgent still down: that is WDA's to fix, and said so.
    rig.tools.config.simulators[0].state = 'Booted';
    const shot = await rig.call('mobile_take_screenshot');
    assert.is(shot.code, 'UNSUPPORTED', JSON.stringify(shot));
    assert.match(shot.message, /WebDriverAgent is not running/);
  } finally {
    await rig.close();
  }
});

test.run();
