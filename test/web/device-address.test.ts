import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { DeviceInfo } from '../../src/engine/types.js';
import { addressShowing, firstDevice } from '../../web/src/device-address.js';

const android: DeviceInfo = { id: 'virtual-android-1', os: 'Android', model: 'Pixel', version: '14' };
const ios: DeviceInfo = { id: 'virtual-ios-1', os: 'iOS', model: 'iPhone', version: '17.5' };
const offline: DeviceInfo = { id: 'usb-9', os: 'Android', model: 'Pixel 7', version: '14', state: 'offline' };

test('the address names the device shown and keeps the token and other parameters', () => {
  const shown = new URL(addressShowing('http://127.0.0.1:4800/?token=s%26cret&video=0', 'virtual-ios-1'));
  assert.is(shown.searchParams.get('device'), 'virtual-ios-1');
  assert.is(shown.searchParams.get('token'), 's&cret');
  assert.is(shown.searchParams.get('video'), '0');
  assert.is(new URL(addressShowing(shown.toString(), 'virtual-android-1')).searchParams.get('device'), 'virtual-android-1', 'a later choice replaces it');
  assert.is(new URL(addressShowing(shown.toString(), undefined)).searchParams.has('device'), false, 'no device shown, none named');
});

test('the first device: the one the address names, else the first ready one', () => {
  assert.equal(firstDevice([offline, android, ios], 'virtual-ios-1'), { device: ios });
  assert.equal(firstDevice([offline, android, ios], null), { device: android });
  assert.equal(firstDevice([offline], null), {});
});

test('a device the address names but the bridge does not list is said, with what is shown instead', () => {
  const first = firstDevice([android, ios], 'virtual-ios-2');
  assert.is(first.device, android);
  assert.match(first.missing ?? '', 'device virtual-ios-2, which the bridge does not list');
  assert.match(first.missing ?? '', 'showing virtual-android-1 instead');
  const none = firstDevice([offline], 'virtual-ios-2');
  assert.is(none.device, undefined);
  assert.match(none.missing ?? '', 'Choose one from the device list');
});

test.run();
