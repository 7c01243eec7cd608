import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { runVerb, verbContext } from '../../src/engine/verbs/index.js';
import { find, makeRig } from './rig.js';

/**
 * Input on a locked iPhone: XCTest synthesizes it on the lock screen and WDA answers success, so
 * the driver asks /wda/locked first, unlocks what Home can unlock, and refuses what a passcode keeps.
 */

const DEMO = 'com.mobilebridge.demo';

for (const phone of [false, true]) {
  const kind = phone ? 'iPhone' : 'simulator';
  test(`${kind} locked with a passcode: a tap and typing are PERMISSION_DENIED, and nothing reaches the lock screen`, async () => {
    const rig = await makeRig(phone ? { phone: { version: '16.7.8', tunnel: false } } : {});
    try {
      await rig.call('mobile_launch_app', { packageName: DEMO });
      const email = find((await rig.call('mobile_list_elements_on_screen')).elements, 'Email').center;
      rig.wda.locked = true;
      rig.wda.passcode = true;
      const tap = await rig.call('mobile_click_on_screen_at_coordinates', email);
      assert.is(tap.code, 'PERMISSION_DENIED', JSON.stringify(tap));
      assert.match(tap.message, /is locked and WebDriverAgent could not unlock it .*passcode.*unlock it by hand/);
      assert.match(tap.message, /Timed out while waiting until the screen gets unlocked/);
      const typed = await rig.call('mobile_type_keys', { text: 'secret' });
      assert.is(typed.code, 'PERMISSION_DENIED', JSON.stringify(typed));
      assert.is(rig.wda.inputOnLockScreen, 0, 'no touch or key was sent to the lock screen');
      assert.ok(rig.wda.requests.includes('POST /wda/unlock'));

      rig.wda.passcode = false;
      rig.wda.locked = false;
      assert.is((await rig.call('mobile_click_on_screen_at_coordinates', email)).status, 'success');
      assert.is((await rig.call('mobile_type_keys', { text: 'abcd' })).status, 'success');
      assert.is(rig.device.fieldValue('email'), 'abcd');
    } finally {
      await rig.close();
    }
  });
}

test('locked without a passcode: WDA unlocks it (Home twice) and the tap reaches the app', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    const email = find((await rig.call('mobile_list_elements_on_screen')).elements, 'Email').center;
    rig.wda.locked = true;
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', email)).status, 'success');
    assert.is(rig.wda.locked, false);
    assert.is(rig.wda.inputOnLockScreen, 0);
    assert.is((await rig.call('mobile_type_keys', { text: 'ab' })).status, 'success');
    assert.is(rig.device.fieldValue('email'), 'ab');
  } finally {
    await rig.close();
  }
});

test("iPhone locked with a passcode: listing is PERMISSION_DENIED, not the lock screen's elements as the app's, and Home is pressed once, not per listing", async () => {
  const rig = await makeRig({ phone: { version: '17.5', tunnel: true } });
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    rig.wda.locked = true;
    rig.wda.passcode = true;
    const listed = await rig.call('mobile_list_elements_on_screen');
    assert.is(listed.code, 'PERMISSION_DENIED', JSON.stringify(listed));
    assert.match(listed.message, /is locked .*passcode.*only the lock screen's elements could be listed.*unlock it by hand/);
    const ctx = await verbContext({ engine: rig.engine, device: (await rig.engine.listDevices())[0].id });
    const tap = await runVerb(ctx, { action: 'tap', target: 'Email' });
    assert.is(tap.status, 'failed');
    assert.is(tap.error?.code, 'PERMISSION_DENIED', JSON.stringify(tap));
    assert.is(rig.wda.requests.filter((r) => r === 'POST /wda/unlock').length, 1, 'a passcode lock is not tried with Home again');
    assert.is(rig.wda.inputOnLockScreen, 0);

    // Unlocked by hand: the app's screen is listed again.
    rig.wda.locked = false;
    assert.ok(find((await rig.call('mobile_list_elements_on_screen')).elements, 'Email'));
  } finally {
    await rig.close();
  }
});

test('an unlocked phone is asked once per burst of input, not once per tap', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    const before = rig.wda.requests.filter((r) => r === 'GET /wda/locked').length;
    for (let i = 0; i < 5; i++) assert.is((await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 400 })).status, 'success');
    assert.is(rig.wda.requests.filter((r) => r === 'GET /wda/locked').length - before, 1);
  } finally {
    await rig.close();
  }
});

test.run();
