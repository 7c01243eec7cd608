import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { EmulatedWda } from '../harness/wda/emulated-wda.js';
import { find, makeRig } from './rig.js';

// WDA works in points; the public API in pixels. The virtual iPhone is 1179×2556 px; reporting scale 2
// makes WDA's points 589.5×1278 (fractional), scale 3 makes them 393×852.
for (const scale of [2, 3]) {
  test(`scale ${scale}: bounds match the phone's own pixels and a tapped centre hits its element`, async () => {
    const rig = await makeRig({ scale });
    try {
      await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
      assert.equal(await rig.call('mobile_get_screen_size'), { width: 1179, height: 2556 });
      const { elements } = await rig.call('mobile_list_elements_on_screen');
      const truth = await rig.device.listElements({ signal: new AbortController().signal });
      for (const id of ['email', 'password', 'sign_in', 'forgot_password']) {
        const seen = elements.find((e: { id: string }) => e.id === id);
        const real = truth.find((e) => e.id === id);
        assert.ok(seen && real, `${id} listed by both`);
        for (const k of ['x', 'y', 'width', 'height'] as const) assert.ok(Math.abs(seen[k] - real![k]) <= 1, `${id} ${k}: ${seen[k]} vs ${real![k]}`);
      }
      const password = find(elements, 'Password');
      await rig.call('mobile_click_on_screen_at_coordinates', password.center);
      assert.ok(rig.device.keyboardVisible, 'the keyboard opened');
      await rig.call('mobile_type_keys', { text: 'pw' });
      assert.is(rig.device.fieldValue('password'), 'pw', 'the tap focused the password field, not its neighbour');
    } finally {
      await rig.close();
    }
  });
}

test('a WebDriverAgent from before 8.4 (2024): /wda/screen only in a session, without screenSize; the size comes from /window/size', async () => {
  const rig = await makeRig();
  const old = new EmulatedWda(rig.device, { before2024: true, name: 'iPhone 15' });
  await rig.wda.stop();
  await old.start(Number(new URL(rig.wda.url).port));
  try {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    assert.equal(await rig.call('mobile_get_screen_size'), { width: 1179, height: 2556 });
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Password').center);
    await rig.call('mobile_type_keys', { text: 'pw' });
    assert.is(rig.device.fieldValue('password'), 'pw', 'the tap hit the listed element');
    assert.is((await rig.call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
    assert.equal(await rig.call('mobile_get_screen_size'), { width: 2556, height: 1179 }, 'the size follows the orientation');
    assert.is(old.requests.filter((q) => q === 'GET /wda/screen').length, 1, 'the session-less route is asked once, then not again');
    const volume = await rig.call('mobile_press_button', { button: 'VOLUME_UP' });
    assert.is(volume.code, 'UNSUPPORTED', `its older wording of a refused button is understood: ${JSON.stringify(volume)}`);
    assert.match(volume.message, /simulators have no volume buttons.*supports only: home/);
  } finally {
    await old.stop();
    await rig.close();
  }
});

test.run();
