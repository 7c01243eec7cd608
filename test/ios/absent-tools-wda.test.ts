import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { FEW_ROUTES } from './few-routes.js';
import { makeRig, PHONE_UDID, SIM_UDID } from './rig.js';

/*
 * simctl and go-ios that lack the command for a job WebDriverAgent can do too: the fakes answer a lacked command as
 * the real tools answer one they do not know (fake-tools.ts goIosLacks, simctlLacks), and WDA does the job instead.
 */

const DEMO = 'com.mobilebridge.demo';
const SAFARI = 'com.apple.mobilesafari';
const count = (calls: string[], prefix: string) => calls.filter((c) => c.startsWith(prefix)).length;
const wdaAsked = (requests: string[], route: string) => requests.filter((r) => r.endsWith(route)).length;

test('simctl without `launch` and `terminate`: WebDriverAgent launches and stops apps (checked, absent apps APP_NOT_INSTALLED), and simctl is not asked again', async () => {
  const rig = await makeRig();
  try {
    rig.tools.config.simctlLacks = ['launch', 'terminate'];
    for (let i = 0; i < 2; i++) {
      assert.equal(await rig.call('mobile_launch_app', { packageName: DEMO }), { status: 'success', message: `launched ${DEMO} on ${SIM_UDID}` });
      assert.is(rig.device.foregroundPackage, DEMO);
      assert.match((await rig.call('mobile_terminate_app', { packageName: DEMO })).message, new RegExp(`^terminated ${DEMO.replace(/\./g, '\\.')}`));
    }
    assert.equal(await rig.call('mobile_terminate_app', { packageName: DEMO }), { status: 'success', message: `${DEMO} was not running on ${SIM_UDID}; nothing to terminate` });
    for (const tool of ['mobile_launch_app', 'mobile_terminate_app']) {
      const absent = await rig.call(tool, { packageName: 'com.example.absent' });
      assert.is(absent.code, 'APP_NOT_INSTALLED', `${tool}: ${JSON.stringify(absent)}`);
    }
    assert.is(count(rig.tools.calls, 'xcrun simctl launch'), 1, 'asked once, then remembered');
    assert.is(count(rig.tools.calls, 'xcrun simctl terminate'), 1, 'asked once, then remembered');
    assert.is(wdaAsked(rig.wda.requests, '/wda/apps/launch'), 3, rig.wda.requests.join('\n'));
    // The launch check stays: an app that dies at start is no launch.
    rig.wda.faults.crashOnLaunch = [DEMO];
    const crashed = await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.is(crashed.code, 'INTERNAL', JSON.stringify(crashed));
    assert.match(crashed.message, /did not come up on .*WebDriverAgent's POST \/wda\/apps\/launch started it/);
  } finally {
    await rig.close();
  }
});

test('simctl without `launch` and a WebDriverAgent without apps/launch: UNSUPPORTED naming both', async () => {
  const rig = await makeRig();
  try {
    rig.tools.config.simctlLacks = ['launch'];
    rig.wda.faults.onlyRoutes = FEW_ROUTES.filter((r) => r !== 'POST /wda/apps/launch');
    const r = await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /does not know `simctl launch`.*WebDriverAgent .*lacks POST \/wda\/apps\/launch/);
  } finally {
    await rig.close();
  }
});

test('go-ios without `launch` and `kill`: WebDriverAgent launches and stops apps, also on iOS 17 without a tunnel, and go-ios is not asked again', async () => {
  for (const version of ['16.7.8', '17.4.1']) {
    const rig = await makeRig({ phone: { version, tunnel: false } });
    try {
      rig.tools.config.goIosLacks = ['launch', 'kill'];
      for (let i = 0; i < 2; i++) {
        for (const id of [SAFARI, DEMO]) {
          assert.equal(await rig.call('mobile_launch_app', { packageName: id }), { status: 'success', message: `launched ${id} on ${PHONE_UDID}` }, version);
          assert.match((await rig.call('mobile_terminate_app', { packageName: id })).message, /^terminated /, version);
        }
      }
      for (const tool of ['mobile_launch_app', 'mobile_terminate_app']) {
        const absent = await rig.call(tool, { packageName: 'com.example.absent' });
        assert.is(absent.code, 'APP_NOT_INSTALLED', `${version} ${tool}: ${JSON.stringify(absent)}`);
      }
      assert.is(count(rig.tools.calls, 'ios launch'), 1, `${version}: asked once, then remembered`);
      assert.is(count(rig.tools.calls, 'ios kill'), 1, `${version}: asked once, then remembered`);
      assert.ok(count(rig.tools.calls, 'ios tunnel ls') <= 1, `${version}: no tunnel asked for once go-ios is known to lack launch`);
    } finally {
      await rig.close();
    }
  }
});

test('go-ios without `apps`: uninstall asks WebDriverAgent whether the app is installed (apps/state 0: APP_NOT_INSTALLED), and refuses when WDA cannot say, for `ios uninstall` does not tell', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLacks = ['apps'];
    const absent = await rig.call('mobile_uninstall_app', { bundle_id: 'com.example.absent' });
    assert.is(absent.code, 'APP_NOT_INSTALLED', JSON.stringify(absent));
    assert.is(count(rig.tools.calls, 'ios uninstall'), 0, 'nothing uninstalled for an absent app');
    assert.equal(await rig.call('mobile_uninstall_app', { bundle_id: DEMO }), { status: 'success', message: `uninstalled ${DEMO} from ${PHONE_UDID}` });
    assert.not.ok(rig.device.installedApps.some((a) => a.package === DEMO));
    assert.is(count(rig.tools.calls, 'ios apps'), 1, 'asked once, then remembered (`apps --system` not asked either)');
    // A system app is installed, so go-ios is asked, and the phone's refusal quoted.
    assert.is((await rig.call('mobile_uninstall_app', { bundle_id: SAFARI })).status, 'error');
    assert.ok(rig.device.installedApps.some((a) => a.package === SAFARI));
    rig.wda.faults.onlyRoutes = FEW_ROUTES;
    const untold = await rig.call('mobile_uninstall_app', { bundle_id: 'com.apple.Preferences' });
    assert.is(untold.code, 'UNSUPPORTED', JSON.stringify(untold));
    assert.match(untold.message, /whether com\.apple\.Preferences is installed on iPhone .* cannot be told: the installed go-ios does not know `ios apps`, WebDriverAgent could not say .*nothing was uninstalled/);
    assert.is(count(rig.tools.calls, 'ios uninstall'), 2);
  } finally {
    await rig.close();
  }
});

test('a tool without its stop command and a WebDriverAgent without apps/state: an app that is not installed is APP_NOT_INSTALLED from the tool\'s listing, not "was not running"', async () => {
  for (const phone of [undefined, { version: '16.7.8', tunnel: false }]) {
    const rig = await makeRig(phone ? { phone } : {});
    const where = phone ? PHONE_UDID : SIM_UDID;
    try {
      if (phone) rig.tools.config.goIosLacks = ['kill'];
      else rig.tools.config.simctlLacks = ['terminate'];
      rig.wda.faults.onlyRoutes = FEW_ROUTES;
      const absent = await rig.call('mobile_terminate_app', { packageName: 'com.example.absent' });
      assert.is(absent.code, 'APP_NOT_INSTALLED', `${where}: ${JSON.stringify(absent)}`);
      for (const id of [SAFARI, DEMO]) {
        await rig.call('mobile_terminate_app', { packageName: id });
        assert.equal(await rig.call('mobile_terminate_app', { packageName: id }), { status: 'success', message: `${id} was not running on ${where}; nothing to terminate` });
      }
    } finally {
      await rig.close();
    }
  }
});

test.run();
