import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { makeRig, PHONE_UDID } from './rig.js';

/** App lifecycle of real iPhones through the fake go-ios, which answers as cmd_device_apps_kill.go does. */

const SAFARI = 'com.apple.mobilesafari';

for (const logs of ['slog', 'logrus'] as const) {
  test(`system apps on an iPhone (go-ios ${logs} logs): stopping a stopped Safari says it was not running, never "not installed"`, async () => {
    const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
    try {
      rig.tools.config.goIosLogs = logs;
      const stopped = await rig.call('mobile_terminate_app', { packageName: SAFARI });
      assert.equal(stopped, { status: 'success', message: `${SAFARI} was not running on ${PHONE_UDID}; nothing to terminate` });
      assert.is((await rig.call('mobile_launch_app', { packageName: SAFARI })).status, 'success');
      assert.is(rig.device.foregroundPackage, SAFARI);
      assert.match((await rig.call('mobile_terminate_app', { packageName: SAFARI })).message, /^terminated com\.apple\.mobilesafari/);
      const absent = await rig.call('mobile_terminate_app', { packageName: 'com.example.absent' });
      assert.is(absent.code, 'APP_NOT_INSTALLED', JSON.stringify(absent));
    } finally {
      await rig.close();
    }
  });
}

test('a launch or kill that fails for another reason (no developer image) is reported as such, also for system apps', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.tools.config.goIosLogs = 'slog';
    rig.tools.config.phones[0].noDeveloperImage = true;
    for (const tool of ['mobile_launch_app', 'mobile_terminate_app']) {
      const r = await rig.call(tool, { packageName: SAFARI });
      assert.is(r.code, 'INTERNAL', `${tool}: ${JSON.stringify(r)}`);
      assert.match(r.message, /Developer Image/, tool);
    }
    const launch = await rig.call('mobile_launch_app', { packageName: SAFARI });
    assert.match(launch.message, new RegExp(`ios image auto --udid=${PHONE_UDID}`));
  } finally {
    await rig.close();
  }
});

test('launching on a locked iPhone: PERMISSION_DENIED "unlock it" (WDA /wda/locked), not the disk image hint', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false } });
  try {
    rig.wda.locked = true;
    const r = await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
    assert.match(r.message, /is locked.*unlock it/);
    assert.not.match(r.message, /disk image/);
    assert.ok(rig.wda.requests.includes('GET /wda/locked'));
    rig.wda.locked = false;
    assert.is((await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' })).status, 'success');
  } finally {
    await rig.close();
  }
});

test('iOS 17 with a go-ios older than its tunnel (no `ios tunnel ls`): launch is UNSUPPORTED "update go-ios", not "start the tunnel" it lacks', async () => {
  const rig = await makeRig({ phone: { version: '17.4.1', tunnel: false } });
  try {
    rig.tools.config.goIosLacks = ['tunnel', 'devmode'];
    const r = await rig.call('mobile_launch_app', { packageName: SAFARI });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /installed go-ios is too old .*does not know `ios tunnel ls`.*go-ios 1\.0\.122.*update go-ios/);
    assert.ok((await rig.call('mobile_list_apps')).apps.length > 0, 'lockdown services still work');
  } finally {
    await rig.close();
  }
});

for (const version of ['16.7.8', '17.4.1']) {
  test(`an unplugged iPhone (iOS ${version}): app tools answer DEVICE_NOT_FOUND, not a quoted go-ios failure`, async () => {
    const rig = await makeRig({ phone: { version, tunnel: false } });
    try {
      rig.tools.config.goIosLogs = 'slog';
      assert.ok((await rig.call('mobile_list_apps')).apps.length > 0);
      rig.tools.unplug(PHONE_UDID);
      for (const [tool, params] of [['mobile_list_apps', {}], ['mobile_launch_app', { packageName: SAFARI }], ['mobile_terminate_app', { packageName: SAFARI }], ['mobile_uninstall_app', { bundle_id: 'com.mobilebridge.demo' }]] as const) {
        const r = await rig.call(tool, params);
        assert.is(r.code, 'DEVICE_NOT_FOUND', `${tool}: ${JSON.stringify(r)}`);
        assert.match(r.message, new RegExp(`iPhone ${PHONE_UDID} is no longer connected`), tool);
      }
    } finally {
      await rig.close();
    }
  });
}

test.run();
