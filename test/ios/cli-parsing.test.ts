import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { goIosError, parseDeviceDetails, parseGoIosApps, parseTunnels } from '../../src/engine/drivers/ios/go-ios.js';
import { parseOpenStepPlist } from '../../src/engine/drivers/ios/openstep-plist.js';
import { parseBootedSimulators, parseSimctlListApps, runtimeVersion } from '../../src/engine/drivers/ios/simctl.js';

const fixture = (name: string) => readFileSync(new URL(`../../../test/fixtures/ios/${name}`, import.meta.url), 'utf8');

test('simctl list devices --json: booted, available iOS simulators only', () => {
  assert.equal(parseBootedSimulators(fixture('simctl-list-devices.json')), [
    { kind: 'simulator', id: '5A1C2F0E-8D3B-4C61-9E2A-7B4D1F6C3A90', os: 'iOS', model: 'iPhone 15', version: '17.5', state: 'ready' },
  ]);
});

test('runtime identifiers give the iOS version; other platforms give none', () => {
  assert.is(runtimeVersion('com.apple.CoreSimulator.SimRuntime.iOS-17-5'), '17.5');
  assert.is(runtimeVersion('com.apple.CoreSimulator.SimRuntime.iOS-16-4-1'), '16.4.1');
  assert.is(runtimeVersion('com.apple.CoreSimulator.SimRuntime.watchOS-10-5'), undefined);
});

test('simctl list output of another shape is a clear INTERNAL error', () => {
  assert.throws(() => parseBootedSimulators('{"devices": {"com.apple.CoreSimulator.SimRuntime.iOS-17-5": [{"udid": 1}]}}'), /xcrun simctl list devices --json printed JSON of an unexpected shape/);
  assert.throws(() => parseBootedSimulators('No devices'), /not JSON/);
});

test('one simctl entry of an odd shape is skipped, not a reason to list no simulator at all', () => {
  const list = JSON.parse(fixture('simctl-list-devices.json')) as { devices: Record<string, unknown[]> };
  list.devices['com.apple.CoreSimulator.SimRuntime.iOS-16-4'] = [{ udid: 'ODD', availabilityError: 'runtime profile not found' }, 42];
  assert.equal(parseBootedSimulators(JSON.stringify(list)).map((d) => d.model), ['iPhone 15']);
  // A booted entry without a name is still a simulator.
  list.devices['com.apple.CoreSimulator.SimRuntime.iOS-16-4'] = [{ udid: '11111111-2222-3333-4444-555555555555', state: 'Booted' }];
  assert.equal(parseBootedSimulators(JSON.stringify(list)).map((d) => [d.model, d.version]), [['iPhone 15', '17.5'], ['iOS Simulator', '16.4']]);
});

test('simctl listapps (old-style plist): hidden apps dropped, names and versions read', () => {
  assert.equal(parseSimctlListApps(fixture('simctl-listapps.txt')), [
    { package: 'com.apple.mobilesafari', name: 'Safari', version: '17.5', installed: true },
    { package: 'com.apple.Preferences', name: 'Settings', version: '1', installed: true },
    { package: 'com.mobilebridge.demo', name: 'MobileBridge Demo', version: '1.4.2', installed: true },
  ]);
});

test('old-style plist: escapes, comments, arrays and data', () => {
  assert.equal(parseOpenStepPlist('{ a = "x\\"y\\n"; /* c */ b = (1, two, "3"); c = <0a 0b>; // end\n}'), {
    a: 'x"y\n',
    b: ['1', 'two', '3'],
    c: '0a0b',
  });
  assert.throws(() => parseOpenStepPlist('{ a = 1 }'), /expected ; after the value of "a"/);
});

test('ios list --details: udid, model, version', () => {
  assert.equal(parseDeviceDetails(fixture('goios-list-details.json')), [
    { kind: 'device', id: '00008110-001A2B3C4D5E801E', os: 'iOS', model: 'iPhone14,5', version: '17.4.1', state: 'ready' },
    { kind: 'device', id: '00008030-000C19AE0E91802E', os: 'iOS', model: 'iPhone12,8', version: '16.7.8', state: 'ready' },
  ]);
  assert.equal(parseDeviceDetails('{"deviceList":[]}'), []);
});

test('ios apps: bundle id, display name (or bundle name), short version', () => {
  assert.equal(parseGoIosApps(fixture('goios-apps.json')), [
    { package: 'com.facebook.WebDriverAgentRunner.xctrunner', name: 'WebDriverAgentRunner-Runner', version: '1.0', installed: true },
    { package: 'com.mobilebridge.demo', name: 'MobileBridge Demo', version: '1.4.2', installed: true },
  ]);
});

test('ios tunnel ls: udids with a tunnel; empty output means none', () => {
  assert.equal(parseTunnels(fixture('goios-tunnel-ls.json')), ['00008110-001A2B3C4D5E801E']);
  assert.equal(parseTunnels(''), []);
});

test('go-ios failures quote the fatal log line', () => {
  const stderr = '{"level":"info","msg":"connecting","time":"2026-11-20T10:00:00Z"}\n{"err":"device not found: 1234","level":"fatal","msg":"error getting devicelist","time":"2026-11-20T10:00:00Z"}\n';
  assert.is(goIosError({ stdout: '', stderr, code: 1 }), 'error getting devicelist: device not found: 1234');
  assert.is(goIosError({ stdout: '', stderr: 'plain failure\n', code: 1 }), 'plain failure');
});

test.run();
