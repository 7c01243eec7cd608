import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { goIosError, parseGoIosApps } from '../../src/engine/drivers/ios/go-ios.js';
import { makeRig, PHONE_UDID } from './rig.js';
import { writeIpa } from '../harness/ipa-builder.js';

/** What go-ios prints in states the fakes reach only by hand: older releases, crashes, a phone leaving mid-command. */

test('ios apps of go-ios before 1.0.178 (AppInfo a struct: every field, "" when the app has none) names apps by bundle name', () => {
  // installationproxy.go at v1.0.150: type AppInfo struct {ApplicationDSID int; ApplicationType string; CFBundleDisplayName string; …},
  // printed with json.Marshal, so absent strings are "" and absent slices and maps null.
  const struct = (id: string, display: string, name: string, short: string, build: string) => ({
    ApplicationDSID: 0,
    ApplicationType: 'User',
    CFBundleDisplayName: display,
    CFBundleExecutable: name,
    CFBundleIdentifier: id,
    CFBundleName: name,
    CFBundleShortVersionString: short,
    CFBundleVersion: build,
    Container: `/private/var/mobile/Containers/Data/Application/${name}`,
    Entitlements: { 'application-identifier': `TEAM1234.${id}` },
    EnvironmentVariables: null,
    MinimumOSVersion: '15.0',
    Path: `/private/var/containers/Bundle/Application/${name}.app`,
    ProfileValidated: true,
    SBAppTags: null,
    SignerIdentity: 'Apple Development: Dev (TEAM1234)',
    UIDeviceFamily: [1, 2],
    UIRequiredDeviceCapabilities: ['arm64'],
    UIFileSharingEnabled: false,
  });
  const printed = JSON.stringify([struct('com.example.notes', '', 'Notes', '', '7'), struct('com.example.maps', 'City Maps', 'Maps', '2.0', '31')]);
  assert.equal(parseGoIosApps(printed), [
    { package: 'com.example.maps', name: 'City Maps', version: '2.0', installed: true },
    { package: 'com.example.notes', name: 'Notes', version: '7', installed: true },
  ]);
});

test('a crashed go-ios (Go panic, exit 2) is quoted by its panic line, not the last line of the goroutine stack', () => {
  const stderr = [
    '{"time":"2026-11-20T10:00:00Z","level":"INFO","msg":"installing","appPath":"/tmp/a.ipa","device":"00008110-001A2B3C4D5E801E"}',
    'panic: runtime error: invalid memory address or nil pointer dereference',
    '[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x1029c4f1c]',
    '',
    'goroutine 1 [running]:',
    'github.com/danielpaulus/go-ios/ios/installationproxy.(*Connection).browseApps(0x14000118000, {0x102c1d0a0, 0x140001a4030})',
    '\t/home/runner/work/go-ios/go-ios/ios/installationproxy/installationproxy.go:79 +0x2c',
    'main.main()',
    '\t/home/runner/work/go-ios/go-ios/main.go:62 +0x1c',
    '',
  ].join('\n');
  assert.is(goIosError({ stdout: '', stderr, code: 2 }), 'go-ios crashed (panic: runtime error: invalid memory address or nil pointer dereference)');
});

test('an iPhone unplugged while an app installs: DEVICE_NOT_FOUND, not "refused to install" (zipconduit fails with EOF)', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLogs = 'slog';
    const ipa = writeIpa(rig.dir, { bundleId: 'com.example.notes', platform: 'iPhoneOS' }, 'notes.ipa');
    // The cable goes while zipconduit streams the package: SendFile's read of the next progress plist ends in io.EOF,
    // and main.go installApp logs exitIfError("failed writing", err); by then usbmuxd lists the phone no more.
    rig.device.installApp = async () => {
      rig.tools.unplug(PHONE_UDID);
      throw new Error('EOF');
    };
    const r = await rig.call('mobile_install_app', { path: ipa });
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
    assert.match(r.message, /no longer connected/);
    assert.ok(rig.tools.calls.includes('ios list'), 'usbmuxd was asked whether the phone is still there');
  } finally {
    await rig.close();
  }
});

test('a failed install on a phone still attached keeps go-ios\'s reason', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    const bad = writeIpa(rig.dir, { bundleId: 'com.example.broken', platform: 'iPhoneOS' }, 'broken.ipa');
    // The driver refuses a file that is no .ipa before the tool runs: the tool fails on a real one here.
    rig.device.installApp = async () => {
      throw new Error('not a zip archive');
    };
    const r = await rig.call('mobile_install_app', { path: bad });
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(r.message, /refused to install .*failed writing: /);
  } finally {
    await rig.close();
  }
});

test("an iPhone unplugged before WebDriverAgent is first reached: not in usbmuxd's list, answered as DEVICE_NOT_FOUND", async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLogs = 'slog';
    assert.ok((await rig.call('mobile_list_apps')).apps.length > 0, 'the device is open; WebDriverAgent not yet reached');
    rig.tools.unplug(PHONE_UDID);
    const r = await rig.call('mobile_list_elements_on_screen');
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
    assert.match(r.message, /no longer connected/);
    assert.is(rig.tools.usbmuxd.connects.length, 0, 'no connection was tried to a phone usbmuxd does not list');
  } finally {
    await rig.close();
  }
});

test.run();
