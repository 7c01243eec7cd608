import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ANDROID_PROFILE, DEMO_PACKAGE, type DeviceProfile } from '../../src/engine/drivers/virtual/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { hasAdb, startRig } from './setup.js';

/**
 * A 4K panel (2160×3840, as large tablets and TV boxes report): a raw screencap is 33 MB, four times a
 * phone's, and every coordinate is past the ranges a phone gives. Nothing may assume a phone's screen.
 */
const PANEL: DeviceProfile = { ...ANDROID_PROFILE, info: { ...ANDROID_PROFILE.info, model: 'Virtual 4K Panel' }, width: 2160, height: 3840, density: 5.25 };

const huge = suite('a 4K Android panel through the real adb server');

const within = (w: number, h: number, max: number) => {
  const s = Math.min(1, max / Math.max(w, h));
  return { width: Math.round(w * s), height: Math.round(h * s) };
};

huge('size, full-size and fitted screenshots, element taps and typing, the screen bounds, landscape', async () => {
  const rig = await startRig({}, PANEL);
  try {
    const serial = rig.phone.serial;
    assert.equal(await rig.call('mobile_get_screen_size'), { width: 2160, height: 3840 });
    assert.is((await rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE })).status, 'success');

    const shot = (await rig.call('mobile_take_screenshot')) as { image: string; dimensions: { width: number; height: number } };
    const meta = await sharp(Buffer.from(shot.image, 'base64')).metadata();
    assert.equal([meta.width, meta.height, shot.dimensions], [2160, 3840, { width: 2160, height: 3840 }]);
    // What an agent's screenshot asks for: the screen shrunk on the way, never the 33 MB frame handed on.
    const fitted = await rig.engine.captureFitted(serial, (w, h) => within(w, h, 1000));
    assert.ok('shrunk' in fitted && fitted.shrunk, 'raw pixels shrunk while read');
    assert.equal([fitted.width, fitted.height, fitted.shrunk!.width, fitted.shrunk!.height], [2160, 3840, 563, 1000]);

    const elements = (await rig.call('mobile_list_elements_on_screen')).elements as UiElement[];
    const email = elements.find((e) => e.id === 'email')!;
    assert.ok(email.center.y > 1000 && email.x + email.width <= 2160, JSON.stringify(email));
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', { x: email.center.x, y: email.center.y })).status, 'success');
    assert.is((await rig.call('mobile_type_keys', { text: 'pat@example.com', submit: false })).status, 'success');
    const typed = ((await rig.call('mobile_list_elements_on_screen')).elements as UiElement[]).find((e) => e.id === 'email')!;
    assert.is(typed.text, 'pat@example.com');

    const outside = await rig.call('mobile_click_on_screen_at_coordinates', { x: 2160, y: 100 });
    assert.is(outside.code, 'INVALID_PARAMETER');
    assert.match(String(outside.message), /2160×3840 pixels; x 0\.\.2159/);

    assert.is((await rig.call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
    assert.equal(await rig.call('mobile_get_screen_size'), { width: 3840, height: 2160 });
    const turned = (await rig.call('mobile_take_screenshot')) as { dimensions: { width: number; height: number } };
    assert.equal(turned.dimensions, { width: 3840, height: 2160 });
    assert.is((await rig.call('mobile_click_on_screen_at_coordinates', { x: 3000, y: 1500 })).status, 'success');
  } finally {
    await rig.stop();
  }
});

if (hasAdb()) huge.run();
