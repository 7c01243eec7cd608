import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { makeRig } from './rig.js';

const DEMO = 'com.mobilebridge.demo';

test('rotating an app that supports only portrait is UNSUPPORTED naming the app in front; nothing changes', async () => {
  const rig = await makeRig();
  try {
    rig.wda.faults.portraitOnly = [DEMO];
    await rig.call('mobile_launch_app', { packageName: DEMO });
    const r = await rig.call('mobile_set_orientation', { orientation: 'landscape' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /com\.mobilebridge\.demo, the app in front, does not support landscape/);
    assert.equal(await rig.call('mobile_get_orientation'), { orientation: 'portrait' });
    assert.is((await rig.call('mobile_set_orientation', { orientation: 'portrait' })).status, 'success');
  } finally {
    await rig.close();
  }
});

test('rotating the virtual iPhone\'s home screen is UNSUPPORTED naming SpringBoard, as WDA cannot turn a real one', async () => {
  const rig = await makeRig();
  try {
    assert.is(rig.device.foregroundPackage, 'com.apple.springboard');
    const r = await rig.call('mobile_set_orientation', { orientation: 'landscape' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /com\.apple\.springboard, the app in front, does not support landscape.*Bring an app that supports landscape to the front/);
    assert.equal(await rig.call('mobile_get_orientation'), { orientation: 'portrait' });
    assert.equal(await rig.call('mobile_get_screen_size'), { width: 1179, height: 2556 });
  } finally {
    await rig.close();
  }
});

test('rotating a locked iPhone is PERMISSION_DENIED "unlock it", not blamed on an app (its lock screen keeps portrait)', async () => {
  const rig = await makeRig({ phone: { version: '17.5', tunnel: true } });
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    rig.wda.locked = true;
    rig.wda.passcode = true;
    const r = await rig.call('mobile_set_orientation', { orientation: 'landscape' });
    assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
    assert.match(r.message, /is locked, and its lock screen does not turn.*unlock it, then set the orientation again/);
    assert.is(rig.device.orientation, 'portrait');
    rig.wda.locked = false;
    assert.is((await rig.call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
  } finally {
    await rig.close();
  }
});

test('an unknown interface orientation (WDA answers null) is read from the screen\'s shape, not called portrait', async () => {
  const rig = await makeRig();
  try {
    await rig.call('mobile_launch_app', { packageName: DEMO });
    assert.is((await rig.call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
    rig.wda.faults.unknownOrientation = true;
    assert.equal(await rig.call('mobile_get_orientation'), { orientation: 'landscape' });
    rig.wda.faults.unknownOrientation = false;
    await rig.call('mobile_set_orientation', { orientation: 'portrait' });
    rig.wda.faults.unknownOrientation = true;
    assert.equal(await rig.call('mobile_get_orientation'), { orientation: 'portrait' });
  } finally {
    await rig.close();
  }
});

test.run();
