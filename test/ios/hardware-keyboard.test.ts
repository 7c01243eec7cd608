import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { find, makeRig } from './rig.js';

/**
 * A simulator with "Connect Hardware Keyboard" on shows no on-screen keyboard; WDA's /wda/keys types through
 * key events and needs only a field with keyboard focus (GET /element/active).
 */

test('typing, ENTER and Backspace reach a focused field while the simulator uses the Mac keyboard', async () => {
  const rig = await makeRig();
  try {
    rig.wda.faults.hardwareKeyboard = true;
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    const refused = await rig.call('mobile_type_keys', { text: 'x' });
    assert.is(refused.code, 'INVALID_PARAMETER', 'with no focused field typing is still refused');
    assert.not.ok(rig.wda.requests.includes('POST /session/:id/wda/keys'), 'nothing was sent to be typed');

    const { elements } = await rig.call('mobile_list_elements_on_screen');
    await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
    assert.is((await rig.call('mobile_list_elements_on_screen')).elements.some((e: { type: string }) => e.type === 'keyboard'), false, 'no on-screen keyboard is listed');
    const typed = await rig.call('mobile_type_keys', { text: 'me@example.comx' });
    assert.is(typed.status, 'success', JSON.stringify(typed));
    const backspace = await rig.engine.pressKey((await rig.engine.listDevices())[0].id, 'BACKSPACE');
    assert.is(backspace.status, 'success', JSON.stringify(backspace));
    assert.is(rig.device.fieldValue('email'), 'me@example.com');
    assert.is((await rig.call('mobile_press_button', { button: 'ENTER' })).status, 'success');
    assert.is(rig.device.focusedField, 'password', 'ENTER moved on as the Next key does');
  } finally {
    await rig.close();
  }
});

test.run();
