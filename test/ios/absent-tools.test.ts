import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { GoIos } from '../../src/engine/drivers/ios/go-ios.js';
import { writeIpa } from '../harness/ipa-builder.js';
import { FEW_ROUTES } from './few-routes.js';
import { makeRig, PHONE_UDID, SIM_UDID } from './rig.js';

/*
 * go-ios and simctl that lack commands (older builds, or emulations of a few commands): the fakes answer a lacked
 * command as the real tools answer one they do not know (fake-tools.ts goIosLacks, simctlLacks).
 */

const SAFARI = 'com.apple.mobilesafari';
const count = (calls: string[], prefix: string) => calls.filter((c) => c.startsWith(prefix)).length;

test('go-ios without `apps --system`: an app `ios apps` lacks is told by WebDriverAgent (apps/state), else said to be untold, never quoting the usage text', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLacks = ['apps --system'];
    const safari = await rig.call('mobile_uninstall_app', { bundle_id: SAFARI });
    assert.is(safari.code, 'PERMISSION_DENIED', JSON.stringify(safari));
    assert.match(safari.message, /is a system app/);
    for (const tool of ['mobile_uninstall_app', 'mobile_launch_app']) {
      const r = await rig.call(tool, tool === 'mobile_launch_app' ? { packageName: 'com.example.absent' } : { bundle_id: 'com.example.absent' });
      assert.is(r.code, 'APP_NOT_INSTALLED', `${tool}: ${JSON.stringify(r)}`);
    }
    // A WebDriverAgent without apps/state cannot tell either.
    rig.wda.faults.onlyRoutes = FEW_ROUTES;
    for (const id of [SAFARI, 'com.example.absent']) {
      const r = await rig.call('mobile_uninstall_app', { bundle_id: id });
      assert.is(r.code, 'APP_NOT_INSTALLED', JSON.stringify(r));
      assert.match(r.message, /not among the apps `ios apps` lists .*nothing was uninstalled.*does not know `ios apps --system`/);
    }
    const absent = await rig.call('mobile_launch_app', { packageName: 'com.example.absent' });
    assert.is(absent.code, 'INTERNAL', JSON.stringify(absent));
    assert.match(absent.message, /Failed starting process.*not among the apps `ios apps` lists, so it may not be installed/);
    assert.not.match(absent.message, /ios uninstall <bundleID>|disk image/);
    assert.is(count(rig.tools.calls, 'ios apps --system'), 1, 'asked once, then remembered');
    rig.wda.faults.onlyRoutes = undefined;
    assert.is((await rig.call('mobile_launch_app', { packageName: SAFARI })).status, 'success');
    assert.is((await rig.call('mobile_uninstall_app', { bundle_id: 'com.mobilebridge.demo' })).status, 'success');
  } finally {
    await rig.close();
  }
});

test('a go-ios command the installed go-ios does not know is UNSUPPORTED naming it, not INTERNAL quoting a usage line', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLacks = ['uninstall'];
    const r = await rig.call('mobile_uninstall_app', { bundle_id: 'com.mobilebridge.demo' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /: the installed go-ios does not know `ios uninstall` \(it answered with its usage text\), so nothing was done: update go-ios/);
    assert.is(count(rig.tools.calls, 'ios list'), 1, 'only the listing that opened the phone: no check whether it was unplugged');
    assert.ok(rig.device.installedApps.some((a) => a.package === 'com.mobilebridge.demo'));
  } finally {
    await rig.close();
  }
});

test('iOS 17 with a go-ios that starts tunnels but cannot list them (`tunnel ls` unknown): launches run, and without a tunnel say to start one, not to update go-ios', async () => {
  const rig = await makeRig({ phone: { version: '17.4.1', tunnel: true } });
  try {
    rig.tools.config.goIosLacks = ['tunnel ls'];
    assert.is((await rig.call('mobile_launch_app', { packageName: SAFARI })).status, 'success');
    assert.match((await rig.call('mobile_terminate_app', { packageName: SAFARI })).message, /^terminated com\.apple\.mobilesafari/);
    assert.is((await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' })).status, 'success');
    assert.is(count(rig.tools.calls, 'ios tunnel ls'), 1, 'asked once, then remembered');
    rig.tools.config.phones[0].tunnel = false;
    for (const tool of ['mobile_launch_app', 'mobile_terminate_app']) {
      const r = await rig.call(tool, { packageName: tool === 'mobile_launch_app' ? SAFARI : 'com.mobilebridge.demo' });
      assert.is(r.code, 'UNSUPPORTED', `${tool}: ${JSON.stringify(r)}`);
      assert.match(r.message, /runs iOS 17 or later, whose apps go-ios (launches|stops) only through a tunnel, and go-ios refused \(processcontrol failed: .*does not know `ios tunnel ls`, so whether a tunnel runs could not be checked: start one with `sudo ios tunnel start`/, tool);
      assert.not.match(r.message, /update go-ios|too old/, tool);
    }
  } finally {
    await rig.close();
  }
});

test('go-ios without `list --details`: iPhones are listed through `ios list` and `ios info`, and --details is not asked again', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLacks = ['list --details'];
    const listed = await rig.engine.call('mobile_list_available_devices', {});
    assert.equal(listed, { devices: [{ id: PHONE_UDID, os: 'iOS', model: 'iPhone14,5', version: '16.7.8', state: 'ready', source: 'ios' }] });
    const goIos = new GoIos();
    const before = rig.tools.calls.length;
    for (let i = 0; i < 2; i++) assert.equal((await goIos.devices()).map((d) => [d.id, d.model, d.version, d.state]), [[PHONE_UDID, 'iPhone14,5', '16.7.8', 'ready']]);
    assert.equal(rig.tools.calls.slice(before).map((c) => c.replace(/ --udid=.*/, '')), ['ios list --details', 'ios list', 'ios info', 'ios list', 'ios info']);
  } finally {
    await rig.close();
  }
});

test('simctl without `listapps`: list_apps is UNSUPPORTED naming it; install, launch, stop and uninstall still work, judged by what simctl does have', async () => {
  const rig = await makeRig();
  try {
    rig.tools.config.simctlLacks = ['listapps'];
    for (let i = 0; i < 2; i++) {
      const r = await rig.call('mobile_list_apps');
      assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
      assert.match(r.message, /the installed simctl does not know `simctl listapps` \(it answered "Unrecognized subcommand"\), so nothing was done: update Xcode/);
    }
    assert.is(count(rig.tools.calls, 'xcrun simctl listapps'), 1, 'asked once, then remembered');
    const ipa = writeIpa(rig.dir, { bundleId: 'com.example.notes', platform: 'iPhoneSimulator' }, 'notes.ipa');
    assert.equal(await rig.call('mobile_install_app', { path: ipa }), { status: 'success', message: `installed com.example.notes from ${ipa} on ${SIM_UDID}` });
    assert.is((await rig.call('mobile_launch_app', { packageName: 'com.example.notes' })).status, 'success');
    assert.match((await rig.call('mobile_terminate_app', { packageName: 'com.example.notes' })).message, /^terminated com\.example\.notes/);
    // WebDriverAgent's apps/state tells an app that is not installed (0) where listapps would.
    for (const tool of ['mobile_launch_app', 'mobile_terminate_app']) {
      const absent = await rig.call(tool, { packageName: 'com.example.absent' });
      assert.is(absent.code, 'APP_NOT_INSTALLED', `${tool}: ${JSON.stringify(absent)}`);
    }
    assert.equal(await rig.call('mobile_terminate_app', { packageName: 'com.example.notes' }), { status: 'success', message: `com.example.notes was not running on ${SIM_UDID}; nothing to terminate` });
    const gone = await rig.call('mobile_uninstall_app', { bundle_id: 'com.example.absent' });
    assert.is(gone.code, 'APP_NOT_INSTALLED', JSON.stringify(gone));
    assert.is((await rig.call('mobile_uninstall_app', { bundle_id: 'com.example.notes' })).status, 'success');
    assert.not.ok(rig.device.installedApps.some((a) => a.package === 'com.example.notes'));
  } finally {
    await rig.close();
  }
});

test('simctl without `listapps` and `get_app_container`: uninstall asks WebDriverAgent (apps/state 0: not installed), and refuses when WDA cannot say either, for simctl uninstall would say success for any id', async () => {
  const rig = await makeRig();
  try {
    rig.tools.config.simctlLacks = ['listapps', 'get_app_container'];
    const absent = await rig.call('mobile_uninstall_app', { bundle_id: 'com.example.absent' });
    assert.is(absent.code, 'APP_NOT_INSTALLED', JSON.stringify(absent));
    assert.is((await rig.call('mobile_uninstall_app', { bundle_id: 'com.mobilebridge.demo' })).status, 'success');
    assert.not.ok(rig.device.installedApps.some((a) => a.package === 'com.mobilebridge.demo'));
    assert.is(count(rig.tools.calls, 'xcrun simctl uninstall'), 1, 'only for the installed app');
    rig.wda.faults.onlyRoutes = FEW_ROUTES;
    const r = await rig.call('mobile_uninstall_app', { bundle_id: 'com.apple.Preferences' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /whether com\.apple\.Preferences is installed on simulator .* cannot be told: the installed simctl knows neither `simctl listapps` nor `simctl get_app_container`, WebDriverAgent could not say .*nothing was uninstalled/);
    assert.is(count(rig.tools.calls, 'xcrun simctl uninstall'), 1);
  } finally {
    await rig.close();
  }
});

test('go-ios without `list --details` and `info`: the iPhone is listed usable with model and version unknown, never as untrusted with "tap Trust"', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLacks = ['list --details', 'info'];
    const message = 'its model and iOS version are unknown: the installed go-ios knows neither `ios list --details` nor `ios info`';
    const listed = await rig.engine.call('mobile_list_available_devices', {});
    assert.equal(listed, { devices: [{ id: PHONE_UDID, os: 'iOS', model: 'iPhone', version: '', state: 'ready', message, source: 'ios' }] });
    assert.ok((await rig.call('mobile_list_apps')).apps.length > 0);
    assert.is((await rig.call('mobile_launch_app', { packageName: SAFARI })).status, 'success');
    const goIos = new GoIos();
    await goIos.devices();
    const before = rig.tools.calls.length;
    assert.equal((await goIos.devices()).map((d) => [d.model, d.state]), [['iPhone', 'ready']]);
    assert.equal(rig.tools.calls.slice(before), ['ios list'], 'neither asked again');
  } finally {
    await rig.close();
  }
});

test('simctl without `openurl`: open_url goes through WebDriverAgent\'s /url, as on iPhones, and simctl is not asked again', async () => {
  const rig = await makeRig();
  try {
    rig.tools.config.simctlLacks = ['openurl'];
    for (const url of ['https://example.com', 'https://example.org']) {
      assert.equal(await rig.call('mobile_open_url', { url }), { status: 'success', message: `opened ${url} on ${SIM_UDID}` });
    }
    assert.is(count(rig.tools.calls, 'xcrun simctl openurl'), 1);
    assert.is(rig.wda.requests.filter((r) => /^POST \/session\/[^/]+\/url$|^POST \/url$/.test(r)).length, 2, rig.wda.requests.join('\n'));
  } finally {
    await rig.close();
  }
});

test('go-ios without `launch` and `kill`, and a WebDriverAgent that cannot stand in: both are UNSUPPORTED naming the command, not INTERNAL quoting a line of the usage text, and not run again', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLacks = ['launch', 'kill'];
    rig.wda.faults.onlyRoutes = FEW_ROUTES.filter((r) => !r.startsWith('POST /wda/apps/'));
    for (let i = 0; i < 2; i++) {
      for (const [tool, verb] of [['mobile_launch_app', 'launch'], ['mobile_terminate_app', 'kill']]) {
        const r = await rig.call(tool, { packageName: SAFARI });
        assert.is(r.code, 'UNSUPPORTED', `${tool}: ${JSON.stringify(r)}`);
        assert.match(r.message, new RegExp(`the installed go-ios does not know \`ios ${verb}\` \\(it answered with its usage text\\), so nothing was done: update go-ios`), tool);
      }
    }
    assert.is(count(rig.tools.calls, 'ios launch'), 1);
    assert.is(count(rig.tools.calls, 'ios kill'), 1);
  } finally {
    await rig.close();
  }
});

test('go-ios without `apps`: list_apps names it, install takes the bundle id from the file, and a failed launch quotes go-ios instead of the missing listing', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLacks = ['apps'];
    const listed = await rig.call('mobile_list_apps');
    assert.is(listed.code, 'UNSUPPORTED', JSON.stringify(listed));
    assert.match(listed.message, /does not know `ios apps`/);
    const ipa = writeIpa(rig.dir, { bundleId: 'com.example.notes', platform: 'iPhoneOS' }, 'notes.ipa');
    assert.equal(await rig.call('mobile_install_app', { path: ipa }), { status: 'success', message: `installed com.example.notes from ${ipa} on ${PHONE_UDID}` });
    const absent = await rig.call('mobile_launch_app', { packageName: 'com.example.absent' });
    assert.is(absent.code, 'APP_NOT_INSTALLED', JSON.stringify(absent));
    rig.wda.faults.onlyRoutes = FEW_ROUTES;
    const untold = await rig.call('mobile_launch_app', { packageName: 'com.example.absent' });
    assert.is(untold.code, 'INTERNAL', JSON.stringify(untold));
    assert.match(untold.message, /could not launch com\.example\.absent on iPhone .*Failed starting process.*the installed go-ios does not know `ios apps`, so whether it is installed cannot be told/);
    assert.is(count(rig.tools.calls, 'ios apps'), 1, 'asked once, then remembered');
  } finally {
    await rig.close();
  }
});

test('go-ios without `info` whose `list --details` failed for another reason (an untrusted phone): the listing says which of the two is missing', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLacks = ['info'];
    rig.tools.config.phones[0].untrusted = true;
    const [phone] = await new GoIos().devices();
    assert.is(phone.message, 'its model and iOS version are unknown: the installed go-ios does not know `ios info`, and `ios list --details` failed');
  } finally {
    await rig.close();
  }
});

test.run();
