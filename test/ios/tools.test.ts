import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

import { DEMO_CREDENTIALS, DEMO_LOADING_MS } from '../../src/engine/drivers/virtual/index.js';
import { writeIpa } from '../harness/ipa-builder.js';
import { find, makeRig, SIM_UDID, type Rig } from './rig.js';

const tools = suite<{ rig: Rig }>('every tool on a simulator through the emulated WebDriverAgent and fake simctl');

tools.before(async (ctx) => {
  ctx.rig = await makeRig();
});
tools.after(async (ctx) => {
  await ctx.rig?.close();
});

tools('devices: the booted simulator is listed with model and version', async ({ rig }) => {
  const result = await rig.engine.call('mobile_list_available_devices', {});
  assert.equal(result, { devices: [{ id: SIM_UDID, os: 'iOS', model: 'iPhone 15', version: '17.5', state: 'ready', source: 'ios' }] });
});

tools('apps: list, launch, foreground', async ({ rig }) => {
  const { apps } = await rig.call('mobile_list_apps');
  assert.ok(apps.some((a: { package: string; name: string }) => a.package === 'com.mobilebridge.demo' && a.name === 'MobileBridge Demo'));
  assert.equal(await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' }), { status: 'success', message: `launched com.mobilebridge.demo on ${SIM_UDID}` });
  assert.equal(await rig.call('mobile_get_foreground_app'), { package: 'com.mobilebridge.demo' });
  assert.ok(rig.tools.calls.includes(`xcrun simctl launch ${SIM_UDID} com.mobilebridge.demo`));
});

tools('screen size and screenshot are in pixels', async ({ rig }) => {
  assert.equal(await rig.call('mobile_get_screen_size'), { width: 1179, height: 2556 });
  const shot = await rig.call('mobile_take_screenshot');
  assert.equal(shot.dimensions, { width: 1179, height: 2556 });
  assert.is(Buffer.from(shot.image, 'base64').subarray(1, 4).toString(), 'PNG');
  const saved = await rig.call('mobile_save_screenshot', { saveTo: join(rig.dir, 'shot.png') });
  assert.is(saved.status, 'success');
  assert.ok(existsSync(join(rig.dir, 'shot.png')));
  // WebDriverAgent hands out a PNG: a .jpg name gets it encoded as JPEG, not the PNG's bytes.
  await rig.call('mobile_save_screenshot', { saveTo: join(rig.dir, 'shot.jpg') });
  assert.equal([...readFileSync(join(rig.dir, 'shot.jpg')).subarray(0, 3)], [0xff, 0xd8, 0xff]);
});

tools('type without a focused field is INVALID_PARAMETER naming the fix', async ({ rig }) => {
  const r = await rig.call('mobile_type_keys', { text: 'x' });
  assert.is(r.code, 'INVALID_PARAMETER');
  assert.match(r.message, /no text field is focused/);
  // ENTER is a key, not typing: the advice says so, as on the virtual iPhone.
  const enter = await rig.call('mobile_press_button', { button: 'ENTER' });
  assert.is(enter.code, 'INVALID_PARAMETER');
  assert.match(enter.message, /no text field is focused .*tap a text field first, then press ENTER$/);
});

tools('sign in by tapping element centres and typing', async ({ rig }) => {
  let { elements } = await rig.call('mobile_list_elements_on_screen');
  const email = find(elements, 'Email');
  assert.is(email.type, 'edittext');
  assert.equal(await rig.call('mobile_click_on_screen_at_coordinates', email.center), { status: 'success', message: `tapped (${email.center.x}, ${email.center.y}) on ${SIM_UDID}` });
  await rig.call('mobile_type_keys', { text: DEMO_CREDENTIALS.email });
  assert.is(rig.device.fieldValue('email'), DEMO_CREDENTIALS.email);
  ({ elements } = await rig.call('mobile_list_elements_on_screen'));
  await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Password').center);
  await rig.call('mobile_type_keys', { text: DEMO_CREDENTIALS.password, submit: true });
  ({ elements } = await rig.call('mobile_list_elements_on_screen'));
  if (rig.device.currentScreen === 'signin') await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Sign in').center);
  rig.clock.advance(DEMO_LOADING_MS + 10);
  assert.is(rig.device.currentScreen, 'home');
});

tools('swipe, scroll to an element, long press and double tap reach the phone', async ({ rig }) => {
  const before = (await rig.call('mobile_list_elements_on_screen')).elements.map((e: { id: string }) => e.id);
  assert.ok(before.includes('item_1'));
  assert.equal((await rig.call('mobile_swipe_on_screen', { direction: 'up' })).status, 'success');
  const after = (await rig.call('mobile_list_elements_on_screen')).elements.map((e: { id: string }) => e.id);
  assert.not.equal(after, before);
  assert.is((await rig.call('mobile_scroll_to_element', { element: 'item_40' })).status, 'success');
  const { elements } = await rig.call('mobile_list_elements_on_screen');
  const item = elements.find((e: { id: string }) => e.id === 'item_40');
  assert.ok(item, 'item_40 is on screen');
  await rig.call('mobile_long_press_on_screen_at_coordinates', { ...item.center, duration: 800 });
  assert.is(rig.device.dialog, 'itemMenu');
  const open = find((await rig.call('mobile_list_elements_on_screen')).elements, 'Open');
  await rig.call('mobile_click_on_screen_at_coordinates', open.center);
  assert.is(rig.device.currentScreen, 'detail');
  const photo = find((await rig.call('mobile_list_elements_on_screen')).elements, 'Photo of Item 40');
  await rig.call('mobile_double_tap_on_screen', photo.center);
  assert.ok(find((await rig.call('mobile_list_elements_on_screen')).elements, '♥ Liked'));
});

tools('buttons: HOME through pressButton; volume UNSUPPORTED on a simulator (WDA offers no volume buttons there); BACK refused', async ({ rig }) => {
  for (const button of ['VOLUME_UP', 'VOLUME_DOWN']) {
    const r = await rig.call('mobile_press_button', { button });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /simulators have no volume buttons/);
    assert.match(r.message, /supports only: home\. Nothing was pressed/);
  }
  const back = await rig.call('mobile_press_button', { button: 'BACK' });
  assert.is(back.code, 'INVALID_PARAMETER');
  assert.is((await rig.call('mobile_press_button', { button: 'HOME' })).status, 'success');
  assert.is(rig.device.foregroundPackage, 'com.apple.springboard');
});

tools('open a deep link through simctl openurl', async ({ rig }) => {
  assert.is((await rig.call('mobile_open_url', { url: 'mbdemo://screen/settings' })).status, 'success');
  assert.is(rig.device.currentScreen, 'settings');
  assert.ok(rig.tools.calls.includes(`xcrun simctl openurl ${SIM_UDID} mbdemo://screen/settings`));
});

tools('orientation round trip swaps the pixel size', async ({ rig }) => {
  // Inside an app: an iPhone's home screen stays portrait.
  await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  assert.equal(await rig.call('mobile_get_orientation'), { orientation: 'portrait' });
  assert.is((await rig.call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
  assert.equal(await rig.call('mobile_get_orientation'), { orientation: 'landscape' });
  assert.equal(await rig.call('mobile_get_screen_size'), { width: 2556, height: 1179 });
  await rig.call('mobile_set_orientation', { orientation: 'portrait' });
});

tools('Wi-Fi and clear data are UNSUPPORTED with what to do instead', async ({ rig }) => {
  const wifi = await rig.call('mobile_set_wifi', { enabled: false });
  assert.is(wifi.code, 'UNSUPPORTED');
  assert.match(wifi.message, /Settings/);
  const clear = await rig.call('mobile_clear_app_data', { packageName: 'com.mobilebridge.demo' });
  assert.is(clear.code, 'UNSUPPORTED');
  assert.match(clear.message, /uninstall/);
});

tools('install, terminate and uninstall through simctl', async ({ rig }) => {
  const ipa = writeIpa(rig.dir, { bundleId: 'com.example.notes', name: 'Notes', version: '2.1' });
  assert.equal(await rig.call('mobile_install_app', { path: ipa }), { status: 'success', message: `installed com.example.notes from ${ipa} on ${SIM_UDID}` });
  // Installing again adds no new app: the bundle id then comes from the .ipa's Info.plist.
  assert.is((await rig.call('mobile_install_app', { path: ipa })).message, `installed com.example.notes from ${ipa} on ${SIM_UDID}`);
  await rig.call('mobile_launch_app', { packageName: 'com.example.notes' });
  assert.equal(await rig.call('mobile_terminate_app', { packageName: 'com.example.notes' }), { status: 'success', message: `terminated com.example.notes on ${SIM_UDID}` });
  assert.equal(await rig.call('mobile_terminate_app', { packageName: 'com.example.notes' }), { status: 'success', message: `com.example.notes was not running on ${SIM_UDID}; nothing to terminate` }, 'terminating a stopped app succeeds, and says so');
  assert.is((await rig.call('mobile_uninstall_app', { bundle_id: 'com.example.notes' })).status, 'success');
  for (const [tool, params] of [
    ['mobile_uninstall_app', { bundle_id: 'com.example.notes' }],
    ['mobile_launch_app', { packageName: 'com.example.notes' }],
    ['mobile_terminate_app', { packageName: 'com.example.notes' }],
  ] as const) {
    const r = await rig.call(tool, params);
    assert.is(r.code, 'APP_NOT_INSTALLED', tool);
    assert.match(r.message, /com\.example\.notes is not installed/);
  }
});

tools('one WebDriverAgent session served every call above', async ({ rig }) => {
  assert.is(rig.wda.sessionsCreated, 1);
  assert.ok(rig.wda.requests.filter((r) => r === 'POST /session').length === 1);
});

tools('pinch: two touch pointers in one W3C actions request, in points; the photo zooms', async ({ rig }) => {
  await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  await rig.call('mobile_open_url', { url: 'mbdemo://item/3' });
  const photo = find((await rig.call('mobile_list_elements_on_screen')).elements, 'Photo of Item 3');
  const before = rig.wda.requests.length;
  const r = await rig.call('mobile_pinch_on_screen', { ...photo.center, scale: 2 });
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.ok(rig.wda.requests.slice(before).includes('POST /session/:id/actions'), rig.wda.requests.slice(before).join(', '));
  assert.is(find((await rig.call('mobile_list_elements_on_screen')).elements, 'Zoom 200 %').text, 'Zoom 200 %');
});

tools.run();
