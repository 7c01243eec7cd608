import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mapAdbError } from '../../src/engine/drivers/android/adb-client.js';
import { unusableError, unusableInfo } from '../../src/engine/drivers/android/device-list.js';

/*
 * The states a real adb server lists after the tab in `host:devices` (transport.cpp to_string) and the
 * errors it answers a call with (acquire_one_transport), as strings, for the states a TCP-connected
 * emulated adbd cannot put the server in (USB permissions, connecting).
 */
const ADDRESS = { host: '127.0.0.1', port: 5037 } as never;

test('a USB device adb may not open ("no permissions (…); see [URL]", the whole text after the tab) is listed as unauthorized with udev advice, and its calls are PERMISSION_DENIED', () => {
  for (const type of [
    'no permissions (user in plugdev group; are your udev rules wrong?); see [http://developer.android.com/tools/device.html]',
    'no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html]',
    'no permissions; see [http://developer.android.com/tools/device.html]',
  ]) {
    const info = unusableInfo({ id: '0123456789ABCDEF', type });
    assert.is(info.state, 'unauthorized', type);
    assert.match(info.message ?? '', /udev rule/);
    assert.is(unusableError({ id: '0123456789ABCDEF', type }).code, 'PERMISSION_DENIED');
  }
  const err = mapAdbError(new Error('insufficient permissions for device: user in plugdev group; are your udev rules wrong?\nSee [http://developer.android.com/tools/device.html] for more information'), '0123456789ABCDEF', ADDRESS, 'listing elements');
  assert.is(err.code, 'PERMISSION_DENIED');
  assert.match(err.message, /udev rule/);
});

test('two devices answering to one serial (adb: "more than one device with serial X", "more than one device" before Android 14): said so, not "disconnected"', () => {
  for (const said of ['more than one device with serial 0123456789ABCDEF', 'more than one device']) {
    const err = mapAdbError(new Error(said), '0123456789ABCDEF', ADDRESS, 'listing elements');
    assert.is(err.code, 'UNSUPPORTED', said);
    assert.match(err.message, /two devices .* answer to the serial 0123456789ABCDEF, so adb cannot tell which one listing elements is for; unplug one/);
  }
});

test('authorizing and connecting are waits for the device, not boot modes; a boot mode names itself', () => {
  assert.is(unusableInfo({ id: 'R58M', type: 'authorizing' }).state, 'unauthorized');
  assert.not.match(unusableInfo({ id: 'R58M', type: 'authorizing' }).message ?? '', /boots Android/);
  assert.is(unusableInfo({ id: 'R58M', type: 'connecting' }).state, 'offline');
  assert.not.match(unusableInfo({ id: 'R58M', type: 'connecting' }).message ?? '', /boots Android/);
  assert.is(mapAdbError(new Error('device still authorizing'), 'R58M', ADDRESS, 'x').code, 'PERMISSION_DENIED');
  assert.is(mapAdbError(new Error('device still connecting'), 'R58M', ADDRESS, 'x').code, 'DEVICE_NOT_FOUND');
  const recovery = unusableError({ id: 'R58M', type: 'recovery' });
  assert.is(recovery.code, 'DEVICE_NOT_FOUND');
  assert.match(recovery.message, /recovery mode/);
  // `adb detach` let go of it on purpose: it is attached again, it does not boot into anything.
  assert.match(unusableInfo({ id: 'R58M', type: 'detached' }).message ?? '', 'run "adb -s R58M attach"');
  assert.not.match(unusableInfo({ id: 'R58M', type: 'unknown' }).message ?? '', /boots Android/);
});

test.run();
