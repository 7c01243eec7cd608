import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { DEMO_CREDENTIALS } from '../../src/engine/drivers/virtual/index.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';
import { find, makeRig, SIM_UDID } from './rig.js';

/**
 * WDA's fb_dismissKeyboardWithKeyNames taps every named key until the keyboard goes, whatever the key does.
 * Dismissing must never submit the form (Go), move on (Next) or type a newline (return).
 */

async function signInTyped(rig: Awaited<ReturnType<typeof makeRig>>): Promise<void> {
  await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  let { elements } = await rig.call('mobile_list_elements_on_screen');
  await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
  await rig.call('mobile_type_keys', { text: DEMO_CREDENTIALS.email });
  ({ elements } = await rig.call('mobile_list_elements_on_screen'));
  await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Password').center);
  await rig.call('mobile_type_keys', { text: DEMO_CREDENTIALS.password });
  assert.ok(rig.device.keyboardVisible);
  assert.is(find((await rig.call('mobile_list_elements_on_screen')).elements, 'Go').type, 'button', 'the return key reads Go');
}

test('the driver never names Go/return/Next to WDA: a keyboard without a Done key is left open and it says so', async () => {
  const rig = await makeRig();
  try {
    await signInTyped(rig);
    const err = await rig.engine.withDevice(SIM_UDID, 'dismissing the keyboard', (h, c) => h.dismissKeyboard!(c)).then(() => undefined, (e: unknown) => e as { code: string; message: string });
    assert.ok(err, 'no success is claimed while the keyboard stays');
    assert.is(err!.code, 'INVALID_PARAMETER');
    assert.match(err!.message, /left open/);
    assert.equal(rig.wda.keysTappedToDismiss, [], 'WDA tapped no key');
    assert.is(rig.device.currentScreen, 'signin', 'the form was not submitted');
    assert.ok(rig.device.keyboardVisible);
  } finally {
    await rig.close();
  }
});

test('dismiss_keyboard on a Go keyboard closes it without signing in', async () => {
  const rig = await makeRig();
  try {
    await signInTyped(rig);
    const ctx = await verbContext({ engine: rig.engine, device: SIM_UDID });
    const outcome = await runVerb(ctx, { action: 'dismiss_keyboard' });
    assert.is(outcome.status, 'passed', JSON.stringify(outcome));
    assert.not.ok(rig.device.keyboardVisible);
    assert.is(rig.device.currentScreen, 'signin', 'not submitted');
    assert.is(rig.device.fieldValue('password'), DEMO_CREDENTIALS.password, 'nothing typed');
    assert.equal(rig.wda.keysTappedToDismiss, []);
  } finally {
    await rig.close();
  }
});

test.run();
