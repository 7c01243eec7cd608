import sharp from 'sharp';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { find, makeRig } from './rig.js';

test('the virtual iPad through the iOS driver and the emulated WDA: its home screen turns; sizes, screenshots, listings and taps agree', async () => {
  const rig = await makeRig({ ipad: true });
  try {
    assert.equal(await rig.call('mobile_get_screen_size'), { width: 2064, height: 2752 });
    assert.is((await rig.call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success', 'an iPad\'s SpringBoard turns');
    assert.equal(await rig.call('mobile_get_orientation'), { orientation: 'landscape' });
    assert.equal(await rig.call('mobile_get_screen_size'), { width: 2752, height: 2064 });
    const shot = await rig.call('mobile_take_screenshot');
    const meta = await sharp(Buffer.from(shot.image, 'base64')).metadata();
    assert.equal([meta.width, meta.height], [2752, 2064]);
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    for (const e of elements) assert.ok(e.x + e.width <= 2752 && e.y + e.height <= 2064, `${e.accessibility_label} inside the landscape screen`);
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'MobileBridge Demo').center)).status, 'success');
    assert.is(rig.device.foregroundPackage, 'com.mobilebridge.demo', 'the tap on the listed centre opened the app');
    const signin = (await rig.call('mobile_list_elements_on_screen')).elements;
    await rig.call('mobile_click_on_screen_at_coordinates', find(signin, 'Email').center);
    await rig.call('mobile_type_keys', { text: 'pad' });
    assert.is(rig.device.fieldValue('email'), 'pad');
    assert.is((await rig.call('mobile_set_orientation', { orientation: 'portrait' })).status, 'success');
    assert.equal(await rig.call('mobile_get_screen_size'), { width: 2064, height: 2752 });
  } finally {
    await rig.close();
  }
});

test.run();
