import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { platformsFromPlist } from '../../src/engine/drivers/ios/installed-bundle.js';
import { Simctl } from '../../src/engine/drivers/ios/simctl.js';
import { writeIpa } from '../harness/ipa-builder.js';
import { makeRig, PHONE_UDID, SIM_UDID } from './rig.js';

/*
 * Xcode writes the platform a bundle was built for into its Info.plist (CFBundleSupportedPlatforms, DTPlatformName).
 * A device build on a simulator, or a simulator build on an iPhone, is refused before the tool runs, naming both.
 */

test('simulator: an iPhoneOS build is INVALID_PARAMETER naming iPhoneOS and iPhoneSimulator; simctl install never runs', async () => {
  const rig = await makeRig();
  try {
    const ipa = writeIpa(rig.dir, { bundleId: 'com.example.device', platform: 'iPhoneOS' });
    const r = await rig.call('mobile_install_app', { path: ipa });
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(r.message, /is built for iPhoneOS \(its Info\.plist's CFBundleSupportedPlatforms\), but simulator .* runs iPhoneSimulator builds: build it for the iOS Simulator/);
    assert.not.ok(rig.tools.calls.some((c) => c.startsWith('xcrun simctl install')));
    const ok = writeIpa(rig.dir, { bundleId: 'com.example.sim', platform: 'iPhoneSimulator' });
    assert.is((await rig.call('mobile_install_app', { path: ok })).status, 'success');
  } finally {
    await rig.close();
  }
});

test('iPhone: an iPhoneSimulator build is INVALID_PARAMETER naming both; ios install never runs', async () => {
  const rig = await makeRig({ phone: { version: '16.7', tunnel: false } });
  try {
    const ipa = writeIpa(rig.dir, { bundleId: 'com.example.sim', platform: 'iPhoneSimulator' });
    const r = await rig.call('mobile_install_app', { path: ipa });
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(r.message, new RegExp(`is built for iPhoneSimulator .*, but iPhone ${PHONE_UDID} runs iPhoneOS builds`));
    assert.not.ok(rig.tools.calls.some((c) => c.startsWith('ios install')));
    const ok = writeIpa(rig.dir, { bundleId: 'com.example.device', platform: 'iPhoneOS' });
    assert.is((await rig.call('mobile_install_app', { path: ok })).status, 'success');
  } finally {
    await rig.close();
  }
});

test('the fake simctl refuses a device build too (the driver\'s check bypassed)', async () => {
  const rig = await makeRig();
  try {
    const ipa = writeIpa(rig.dir, { bundleId: 'com.example.device', platform: 'iPhoneOS' });
    const err = await new Simctl('xcrun').install(SIM_UDID, ipa).then(() => undefined, (e: unknown) => e as Error & { code?: string });
    assert.is(err?.code, 'INVALID_PARAMETER');
    assert.match(err?.message ?? '', /built for iPhoneOS/);
  } finally {
    await rig.close();
  }
});

test('platformsFromPlist: DTPlatformName alone (the SDK name) is read too; a plist with neither says nothing', () => {
  const plist = (body: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n${body}\n</dict>\n</plist>\n`);
  assert.equal(platformsFromPlist(plist('<key>DTPlatformName</key>\n<string>iphoneos</string>')), { platforms: ['iPhoneOS'], key: 'DTPlatformName' });
  assert.equal(platformsFromPlist(plist('<key>CFBundleSupportedPlatforms</key>\n<array>\n<string>iPhoneSimulator</string>\n</array>')), { platforms: ['iPhoneSimulator'], key: 'CFBundleSupportedPlatforms' });
  assert.is(platformsFromPlist(plist('<key>CFBundleIdentifier</key>\n<string>x</string>')), undefined);
});

test.run();
