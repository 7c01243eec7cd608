import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { readFileSync } from 'node:fs';

import { simulatorNotReady } from '../../src/engine/drivers/ios/simctl.js';
import { makeRig, SIM_UDID } from './rig.js';

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

test('a simulator that is still booting, shut down or shutting down when first used: DEVICE_NOT_FOUND saying so and what to do, not a bare "not found"', async () => {
  const rig = await makeRig();
  try {
    const sim = rig.tools.config.simulators[0];
    sim.state = 'Booting';
    const booting = await rig.call('mobile_list_elements_on_screen');
    assert.is(booting.code, 'DEVICE_NOT_FOUND', JSON.stringify(booting));
    assert.match(booting.message, new RegExp(`simulator iPhone 15 \\(${SIM_UDID}\\) is still booting: repeat the call once it is booted \\(\`xcrun simctl bootstatus ${SIM_UDID}\` waits`));
    sim.state = 'Shutdown';
    const down = await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.is(down.code, 'DEVICE_NOT_FOUND', JSON.stringify(down));
    assert.match(down.message, new RegExp(`is shut down: boot it \\(\`xcrun simctl boot ${SIM_UDID}\``));
    sim.state = 'Shutting Down';
    assert.match((await rig.call('mobile_take_screenshot')).message, /is shutting down: once it is shut down, boot it again/);
    sim.state = 'Booted';
    assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements), 'booted, it is used');
  } finally {
    await rig.close();
  }
});

test('simctl entries that cannot be driven say why: a missing runtime quotes availabilityError, another platform is named', () => {
  const json = readFileSync(new URL('../../../test/fixtures/ios/simctl-list-devices.json', import.meta.url), 'utf8');
  assert.is(simulatorNotReady(json, '5A1C2F0E-8D3B-4C61-9E2A-7B4D1F6C3A90'), undefined, 'booted');
  assert.is(simulatorNotReady(json, '00000000-0000-0000-0000-000000000000'), undefined, 'not listed');
  assert.match(String(simulatorNotReady(json, '0B7E55D2-1A44-4B0A-8F0C-2E9D6A1B7C33')), /^simulator iPhone 15 Pro Max \(0B7E55D2-1A44-4B0A-8F0C-2E9D6A1B7C33\) is shut down/);
  assert.match(String(simulatorNotReady(json, '9C3D7E21-55AB-4E0F-A1D2-6F8B0C4E2D17')), /is unavailable \(simctl: runtime profile not found using "System" match policy\): install its iOS runtime/);
  assert.match(String(simulatorNotReady(json, 'E4F0A9B3-2C71-4D8E-B5A6-1D3C9E7F0B42')), /is a watchOS simulator; only iOS simulators/);
});

test.run();
