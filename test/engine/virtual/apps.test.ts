import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import { writeApk } from '../../harness/apk-builder.js';
import { writeAppBundle, writeIpa } from '../../harness/ipa-builder.js';
import { byId, ctx, DEMO, rejects, setup, signIn } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mb-virtual-apps-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('android: install .apk → listed with version → launch shows its screen → terminate → uninstall', async () => {
  const { android } = setup();
  const apk = writeApk(dir, { package: 'com.example.notes', versionName: '2.3.1', label: 'Notes' });
  assert.deepEqual(await android.installApp(apk, ctx), { package: 'com.example.notes' });
  const listed = (await android.listApps(ctx)).find((a) => a.package === 'com.example.notes');
  assert.deepEqual(listed, { package: 'com.example.notes', name: 'Notes', version: '2.3.1', installed: true });
  await android.launchApp('com.example.notes', ctx);
  assert.deepEqual(await android.foregroundApp(ctx), { package: 'com.example.notes', name: 'Notes' });
  assert.equal((await byId(android, 'welcome')).text, 'Welcome to Notes');
  await android.terminateApp('com.example.notes', ctx);
  assert.equal(android.foregroundPackage, android.profile.launcher);
  await android.uninstallApp('com.example.notes', ctx);
  assert.equal((await android.listApps(ctx)).some((a) => a.package === 'com.example.notes'), false);
  await rejects(android.launchApp('com.example.notes', ctx), 'APP_NOT_INSTALLED', 'com.example.notes');
});

test('ios: install .ipa and .app bundles read CFBundleIdentifier', async () => {
  const { ios } = setup();
  const ipa = writeIpa(dir, { bundleId: 'com.example.Weather', name: 'Weather', version: '5.1' });
  assert.deepEqual(await ios.installApp(ipa, ctx), { package: 'com.example.Weather' });
  const app = writeAppBundle(join(dir, 'bundles'), { bundleId: 'com.example.Maps', name: 'Maps', version: '1.2' });
  assert.deepEqual(await ios.installApp(app, ctx), { package: 'com.example.Maps' });
  const apps = await ios.listApps(ctx);
  assert.ok(apps.some((a) => a.package === 'com.example.Weather' && a.version === '5.1' && a.name === 'Weather'));
  await ios.launchApp('com.example.Maps', ctx);
  assert.equal(ios.foregroundPackage, 'com.example.Maps');
  await ios.uninstallApp('com.example.Maps', ctx);
  await rejects(ios.terminateApp('com.example.Maps', ctx), 'APP_NOT_INSTALLED');
});

test('install errors: wrong extension per platform, missing file, not an archive, binary plist', async () => {
  const { android, ios } = setup();
  const ipa = writeIpa(dir, { bundleId: 'com.example.x' });
  const apk = writeApk(dir, { package: 'com.example.y' });
  await rejects(android.installApp(ipa, ctx), 'INVALID_PARAMETER', '.apk');
  await rejects(ios.installApp(apk, ctx), 'INVALID_PARAMETER', '.ipa');
  await rejects(android.installApp(join(dir, 'missing.apk'), ctx), 'INVALID_PARAMETER', 'missing.apk');
  const junk = join(dir, 'junk.apk');
  writeFileSync(junk, 'not a zip');
  await rejects(android.installApp(junk, ctx), 'INVALID_PARAMETER', 'APK');
  const junkIpa = join(dir, 'junk.ipa');
  writeFileSync(junkIpa, 'not a zip');
  await rejects(ios.installApp(junkIpa, ctx), 'INVALID_PARAMETER', '.ipa');
  const binary = writeIpa(dir, { bundleId: 'com.example.bin', binaryPlist: true }, 'binary.ipa');
  await rejects(ios.installApp(binary, ctx), 'INVALID_PARAMETER', 'binary property list');
  const notBundle = join(dir, 'empty.app');
  mkdirSync(notBundle);
  await rejects(ios.installApp(notBundle, ctx), 'INVALID_PARAMETER', 'Info.plist');
});

test('system apps cannot be uninstalled; unknown packages are APP_NOT_INSTALLED everywhere', async () => {
  const { android, ios } = setup();
  await rejects(android.uninstallApp('com.android.settings', ctx), 'PERMISSION_DENIED', 'com.android.settings');
  await rejects(ios.uninstallApp('com.apple.mobilesafari', ctx), 'PERMISSION_DENIED', 'virtual-ios-1');
  for (const call of [
    android.launchApp('com.nope', ctx), android.terminateApp('com.nope', ctx), android.uninstallApp('com.nope', ctx),
    android.clearAppData('com.nope', ctx), ios.launchApp('com.nope', ctx),
  ]) {
    await rejects(call, 'APP_NOT_INSTALLED', 'com.nope');
  }
});

test('android: clear app data signs the demo out; iOS clear data and Wi-Fi are UNSUPPORTED', async () => {
  const { android, ios, clock } = setup();
  await signIn(android, clock);
  await android.clearAppData(DEMO, ctx);
  assert.equal(android.foregroundPackage, android.profile.launcher);
  await android.launchApp(DEMO, ctx);
  assert.equal(android.currentScreen, 'signin');
  await android.setWifi(false, ctx);
  assert.equal(android.wifi, false);
  await rejects(ios.clearAppData(DEMO, ctx), 'UNSUPPORTED', 'iOS');
  await rejects(ios.setWifi(false, ctx), 'UNSUPPORTED', 'virtual-ios-1');
});

test('browser and settings are installed; launcher is not in the app list', async () => {
  const { android, ios } = setup();
  const androidApps = (await android.listApps(ctx)).map((a) => a.package);
  assert.deepEqual(androidApps, ['com.android.chrome', 'com.android.settings', DEMO]);
  const iosApps = (await ios.listApps(ctx)).map((a) => a.package);
  assert.deepEqual(iosApps, ['com.apple.mobilesafari', 'com.apple.Preferences', DEMO]);
  await android.launchApp('com.android.settings', ctx);
  await android.tap((await byId(android, 'wifi_switch')).center.x, (await byId(android, 'wifi_switch')).center.y, ctx);
  assert.equal(android.wifi, false);
});

test('taps outside the screen are INVALID_PARAMETER naming the device', async () => {
  const { android } = setup();
  await rejects(android.tap(5000, 10, ctx), 'INVALID_PARAMETER', 'virtual-android-1');
  await rejects(android.swipe(-1, 10, 100, 100, 300, ctx), 'INVALID_PARAMETER');
});

test('with the demo app uninstalled, an mbdemo:// link is one no app handles: INVALID_PARAMETER as on the real drivers', async () => {
  const { android, ios } = setup();
  for (const device of [android, ios]) {
    await device.uninstallApp(DEMO, ctx);
    // Before: APP_NOT_INSTALLED, where Android's `am start` and iOS answer that no app takes the scheme.
    await rejects(device.openUrl('mbdemo://screen/home', ctx), 'INVALID_PARAMETER', /no app on virtual-(android|ios)-1 handles "mbdemo:" URLs/);
    assert.equal(device.foregroundPackage, device.profile.launcher, 'nothing opened');
  }
});

test.run();
