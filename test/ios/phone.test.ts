import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { writeIpa } from '../harness/ipa-builder.js';
import { find, makeRig, PHONE_UDID } from './rig.js';

test('a real iPhone (iOS 17 with a tunnel): go-ios for apps, WebDriverAgent through usbmuxd', async () => {
  const rig = await makeRig({ phone: { version: '17.4.1', tunnel: true } });
  try {
    assert.equal(await rig.engine.call('mobile_list_available_devices', {}), {
      devices: [{ id: PHONE_UDID, os: 'iOS', model: 'iPhone14,5', version: '17.4.1', state: 'ready', source: 'ios' }],
    });
    const { apps } = await rig.call('mobile_list_apps');
    assert.equal(apps.map((a: { package: string }) => a.package), ['com.mobilebridge.demo'], 'ios apps lists user apps');
    assert.is((await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' })).status, 'success');
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
    await rig.call('mobile_type_keys', { text: 'me@example.com' });
    assert.is(rig.device.fieldValue('email'), 'me@example.com');
    assert.is((await rig.call('mobile_press_button', { button: 'VOLUME_UP' })).status, 'success', 'a real iPhone has volume buttons');
    // Real devices open URLs through WebDriverAgent's /url.
    assert.is((await rig.call('mobile_open_url', { url: 'mbdemo://screen/settings' })).status, 'success');
    assert.is(rig.device.currentScreen, 'settings');
    assert.ok(rig.wda.requests.includes('POST /session/:id/url'));
    assert.match((await rig.call('mobile_terminate_app', { packageName: 'com.mobilebridge.demo' })).message, /^terminated com\.mobilebridge\.demo/);
    assert.match((await rig.call('mobile_terminate_app', { packageName: 'com.mobilebridge.demo' })).message, 'was not running', 'go-ios kill finds no process the second time');
    assert.is((await rig.call('mobile_launch_app', { packageName: 'com.example.missing' })).code, 'APP_NOT_INSTALLED');
    assert.ok(rig.tools.usbmuxd.connects.includes(`${PHONE_UDID}:8100 → 0`), rig.tools.usbmuxd.connects.join('\n'));
    assert.not.ok(rig.tools.calls.some((c) => c.startsWith('ios forward')), 'no go-ios forward: it would listen on every interface');
    assert.ok(rig.tools.calls.includes(`ios launch com.mobilebridge.demo --udid=${PHONE_UDID}`));
    assert.ok(rig.tools.calls.includes(`ios kill com.mobilebridge.demo --udid=${PHONE_UDID}`));
  } finally {
    await rig.close();
  }
});

test('iOS 16 needs no tunnel; WebDriverAgent not running and no runner installed: says so, and how to start one', async () => {
  const rig = await makeRig({ phone: { version: '16.7.8', tunnel: false }, wdaDown: true, driver: { forwardWaitMs: 600 } });
  try {
    assert.ok((await rig.call('mobile_list_apps')).apps.length > 0);
    const r = await rig.call('mobile_take_screenshot');
    assert.is(r.code, 'UNSUPPORTED');
    assert.match(r.message, /WebDriverAgent is not running on iPhone iPhone14,5/);
    assert.match(r.message, /WebDriverAgentRunner is not installed on it/);
    assert.match(r.message, `ios runwda --bundleid=<its bundle id> --testrunnerbundleid=<its bundle id> --xctestconfig=WebDriverAgentRunner.xctest --udid=${PHONE_UDID}`);
  } finally {
    await rig.close();
  }
});

// go-ios cmd_device_testing.go runWDACommand: without flags `ios runwda` runs com.facebook.WebDriverAgentRunner.xctrunner,
// which a runner signed for one's own team is not (Xcode needs a bundle id the team can register).
for (const [runner, command] of [
  ['com.facebook.WebDriverAgentRunner.xctrunner', `ios runwda --udid=${PHONE_UDID}\``],
  ['com.acme.WebDriverAgentRunner.xctrunner', `ios runwda --bundleid=com.acme.WebDriverAgentRunner.xctrunner --testrunnerbundleid=com.acme.WebDriverAgentRunner.xctrunner --xctestconfig=WebDriverAgentRunner.xctest --udid=${PHONE_UDID}\``],
] as const) {
  test(`WebDriverAgent not running, runner installed as ${runner}: the exact \`ios runwda\` for it (iOS 17: with the tunnel)`, async () => {
    const rig = await makeRig({ phone: { version: '17.4.1', tunnel: true }, wdaDown: true, driver: { forwardWaitMs: 600 } });
    try {
      const ipa = writeIpa(rig.dir, { bundleId: runner, name: 'WebDriverAgentRunner-Runner', version: '1.0' });
      assert.is((await rig.call('mobile_install_app', { path: ipa })).status, 'success');
      const r = await rig.call('mobile_take_screenshot');
      assert.is(r.code, 'UNSUPPORTED');
      assert.match(r.message, `WebDriverAgentRunner is installed as ${runner}: start it with \``);
      assert.match(r.message, command);
      assert.match(r.message, 'while `sudo ios tunnel start` runs');
    } finally {
      await rig.close();
    }
  });
}

test.run();
