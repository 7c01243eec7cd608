import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { EmulatedWda } from '../harness/wda/emulated-wda.js';
import { makeRig } from './rig.js';

/** WDA before its W3C protocol (2019) answered every error with HTTP 200 and a non-zero numeric `status`. */

test('an old WDA\'s HTTP 200 {"status": 13} errors are errors, and {"status": 6} re-creates the session', async () => {
  const rig = await makeRig();
  const old = new EmulatedWda(rig.device, { legacy: true, name: 'iPhone 15' });
  await rig.wda.stop();
  await old.start(Number(new URL(rig.wda.url).port));
  try {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    const volume = await rig.call('mobile_press_button', { button: 'VOLUME_UP' });
    assert.is(volume.code, 'UNSUPPORTED', `a refused button is not reported as pressed: ${JSON.stringify(volume)}`);
    assert.match(volume.message, /simulators have no volume buttons/);
    const typed = await rig.call('mobile_type_keys', { text: 'x' });
    assert.is(typed.code, 'INVALID_PARAMETER', JSON.stringify(typed));
    assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements));
    await old.restart();
    const after = await rig.call('mobile_list_elements_on_screen');
    assert.ok(Array.isArray(after.elements), `"Session does not exist" (status 6) opens a new session: ${JSON.stringify(after).slice(0, 200)}`);
    assert.is(old.sessionsCreated, 2);
  } finally {
    await old.stop();
    await rig.close();
  }
});

test('an old WDA lacking the session-less /wda/screen (status 1, "Unhandled endpoint"): the screen size comes from the session routes', async () => {
  const rig = await makeRig();
  const old = new EmulatedWda(rig.device, { legacy: true, name: 'iPhone 15' });
  await rig.wda.stop();
  await old.start(Number(new URL(rig.wda.url).port));
  try {
    const r = await rig.call('mobile_get_screen_size');
    assert.equal([r.width, r.height], [rig.device.size.width, rig.device.size.height], JSON.stringify(r));
    assert.ok(old.requests.includes('GET /wda/screen') && old.requests.includes('GET /session/:id/window/size'), JSON.stringify(old.requests));
  } finally {
    await old.stop();
    await rig.close();
  }
});

test.run();
