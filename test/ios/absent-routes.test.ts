import { test } from 'uvu';
import * as assert from 'uvu/assert';

import { FEW_ROUTES } from './few-routes.js';
import { find, makeRig, SIM_UDID, type Rig, type RigOptions } from './rig.js';

async function withFewRoutes(body: (rig: Rig) => Promise<void>, options: RigOptions = {}, routes: readonly string[] = FEW_ROUTES): Promise<void> {
  const rig = await makeRig(options);
  rig.wda.faults.onlyRoutes = routes;
  try {
    await body(rig);
  } finally {
    await rig.close();
  }
}

const count = (rig: Rig, request: string) => rig.wda.requests.filter((r) => r === request).length;

test('a route WebDriverAgent lacks is UNSUPPORTED naming it and saying to update WDA, not a bare INTERNAL "unknown command"', () =>
  withFewRoutes(async (rig) => {
    const r = await rig.call('mobile_press_button', { button: 'HOME' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(r.message, /lacks POST \/wda\/pressButton .*update WebDriverAgent/);
  }, {}, FEW_ROUTES.filter((route) => route !== 'POST /wda/pressButton')));

test('without GET /wda/locked input and listings still go through, and the route is not asked again', () =>
  withFewRoutes(async (rig) => {
    // A listing checks the lock each time (a read does not keep the phone awake).
    for (let i = 0; i < 2; i++) assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements));
    assert.is(count(rig, 'GET /wda/locked'), 1, JSON.stringify(rig.wda.requests));
    const tap = await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 });
    assert.is(tap.status, 'success', JSON.stringify(tap));
  }));

test('without POST /elements and GET /element/active typing finds the keyboard and the focused field in /source', () =>
  withFewRoutes(async (rig) => {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    const refused = await rig.call('mobile_type_keys', { text: 'x' });
    assert.is(refused.code, 'INVALID_PARAMETER', JSON.stringify(refused));
    assert.match(refused.message, /no text field is focused/);
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
    const typed = await rig.call('mobile_type_keys', { text: 'me@example.com' });
    assert.is(typed.status, 'success', JSON.stringify(typed));
    assert.is(rig.device.fieldValue('email'), 'me@example.com');
    assert.is((await rig.call('mobile_press_button', { button: 'ENTER' })).status, 'success');
    assert.is(rig.device.focusedField, 'password', 'ENTER reached the field');
    assert.is(count(rig, 'POST /session/:id/elements'), 1, 'the missing lookup is not asked again');
    // Clearing needs the focused element's id, which only those routes give.
    const cleared = await rig.call('mobile_type_keys', { text: 'x', clear_first: true });
    assert.is(cleared.code, 'UNSUPPORTED', JSON.stringify(cleared));
    assert.match(cleared.message, /lacks GET \/element\/active .*update WebDriverAgent/);
  }));

test('without those routes a field focused with the Mac keyboard (no on-screen keyboard) is found by its isFocused', () =>
  withFewRoutes(async (rig) => {
    rig.wda.faults.hardwareKeyboard = true;
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
    assert.is((await rig.call('mobile_type_keys', { text: 'pad' })).status, 'success');
    assert.is(rig.device.fieldValue('email'), 'pad');
  }));

test('without /wda/activeAppInfo and /wda/apps/state a launch is confirmed, and the app in front named, through /source', () =>
  withFewRoutes(async (rig) => {
    const launched = await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    assert.equal(launched, { status: 'success', message: `launched com.mobilebridge.demo on ${SIM_UDID}` });
    assert.equal(await rig.call('mobile_get_foreground_app'), { package: 'com.mobilebridge.demo' });
    assert.is(count(rig, 'GET /wda/activeAppInfo'), 1, 'the missing route is not asked again');
    await rig.call('mobile_press_button', { button: 'HOME' });
    const home = await rig.call('mobile_get_foreground_app');
    assert.is(home.code, 'UNSUPPORTED', JSON.stringify(home));
    assert.match(home.message, /lacks GET \/wda\/activeAppInfo, and its \/source shows the app in front only by name, "Home Screen", which does not tell its bundle id/);
  }));

test('without those routes an app that dies as it starts is not reported launched', () =>
  withFewRoutes(async (rig) => {
    const r = await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(r.message, /did not come up .*reports "Home Screen" in front/);
  }, { crashOnLaunch: ['com.mobilebridge.demo'] }));

test('a WebDriverAgent serving /source only as XML: listings, typing and the app in front read the XML tree', () =>
  withFewRoutes(async (rig) => {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    rig.wda.faults.sourceFormats = ['json', 'xml'];
    const json = (await rig.call('mobile_list_elements_on_screen')).elements;
    rig.wda.faults.sourceFormats = ['xml'];
    const xml = (await rig.call('mobile_list_elements_on_screen')).elements;
    const shape = (es: any[]) => es.map((e) => [e.text, e.type, e.accessibility_label, e.center, e.clickable ?? false]);
    assert.equal(shape(xml), shape(json));
    await rig.call('mobile_click_on_screen_at_coordinates', find(xml, 'Email').center);
    assert.is((await rig.call('mobile_type_keys', { text: 'me' })).status, 'success');
    assert.is(rig.device.fieldValue('email'), 'me');
    assert.equal(await rig.call('mobile_get_foreground_app'), { package: 'com.mobilebridge.demo' });
    await rig.call('mobile_press_button', { button: 'HOME' });
    // Builds since September 2025 name the application's bundleId in the XML tree.
    assert.equal(await rig.call('mobile_get_foreground_app'), { package: 'com.apple.springboard' });
  }));

test('a WebDriverAgent without /window/size: the size is /wda/screen\'s, turned as GET /orientation says', () =>
  withFewRoutes(async (rig) => {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    const { width, height } = rig.device.size;
    assert.equal(await rig.call('mobile_get_screen_size'), { width, height });
    assert.is((await rig.call('mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
    assert.equal(await rig.call('mobile_get_screen_size'), { width: height, height: width });
    const tap = await rig.call('mobile_click_on_screen_at_coordinates', { x: height - 10, y: 10 });
    assert.is(tap.status, 'success', JSON.stringify(tap));
  }, {}, FEW_ROUTES.filter((route) => route !== 'GET /window/size')));

test('a /status without os: an iPhone below iOS 16.4 still says an opened URL is unconfirmed (its listed version)', () =>
  withFewRoutes(async (rig) => {
    rig.wda.faults.bareStatus = true;
    const r = await rig.call('mobile_open_url', { url: 'mbdemo://screen/settings' });
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.match(r.message, /not confirmed: 00008110-001A2B3C4D5E801E runs iOS 16\.2, below 16\.4/);
  }, { phone: { version: '16.2', tunnel: false }, wda: { osVersion: '16.2', sdkVersion: '16.2' } }));

test('without /appium/settings: video streams at WDA\'s MJPEG defaults, and listings stop asking for the settings', () =>
  withFewRoutes(async (rig) => {
    const device = await rig.engine.withDevice(SIM_UDID, 'test', async (d) => d);
    const stream = await device.openVideo!({ maxSize: 0, maxFps: 24 });
    try {
      for await (const packet of stream.packets()) {
        assert.equal([...packet.data.subarray(0, 2)], [0xff, 0xd8], 'a JPEG picture came');
        break;
      }
    } finally {
      await stream.close();
    }
    assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements));
    const asked = count(rig, 'GET /session/:id/appium/settings');
    for (let i = 0; i < 2; i++) assert.ok(Array.isArray((await rig.call('mobile_list_elements_on_screen')).elements));
    assert.is(count(rig, 'GET /session/:id/appium/settings'), asked, 'not asked again');
  }));

test('a locked phone whose WebDriverAgent has /wda/locked but not /wda/unlock: refused saying so, not "it pressed Home twice"', () =>
  withFewRoutes(async (rig) => {
    rig.wda.locked = true;
    const r = await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 });
    assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
    assert.match(r.message, /is locked, and its WebDriverAgent lacks POST \/wda\/unlock, so nothing tried to unlock it and the tap would only reach the lock screen: unlock it by hand/);
    assert.is(rig.wda.inputOnLockScreen, 0, 'nothing was sent');
  }, {}, [...FEW_ROUTES, 'GET /wda/locked']));

test('a WebDriverAgent without /wda/screen: the scale is the screenshot\'s pixels per point, so taps land where asked', () =>
  withFewRoutes(async (rig) => {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    const { width, height } = rig.device.size;
    assert.equal(await rig.call('mobile_get_screen_size'), { width, height });
    const { elements } = await rig.call('mobile_list_elements_on_screen');
    const email = find(elements, 'Email');
    await rig.call('mobile_click_on_screen_at_coordinates', email.center);
    assert.is(rig.device.focusedField, 'email', 'the tap reached the Email field');
  }, {}, FEW_ROUTES.filter((route) => route !== 'GET /wda/screen')));

test('once WebDriverAgent is updated as advised (restarted with every route), the routes found missing are used again', () =>
  withFewRoutes(async (rig) => {
    const before = await rig.call('mobile_get_foreground_app');
    assert.match(before.message, /lacks GET \/wda\/activeAppInfo/);
    rig.wda.locked = true;
    assert.match((await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 })).message, /lacks POST \/wda\/unlock/);
    rig.wda.faults.onlyRoutes = undefined;
    await rig.wda.restart();
    const tap = await rig.call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 });
    assert.is(tap.status, 'success', JSON.stringify(tap));
    assert.is(rig.wda.locked, false, 'WDA unlocked the phone');
    assert.equal(await rig.call('mobile_get_foreground_app'), { package: 'com.apple.springboard' });
  }, {}, [...FEW_ROUTES, 'GET /wda/locked']));

test('a WebDriverAgent answering /source with XML whatever format is asked: listings read it as XML', () =>
  withFewRoutes(async (rig) => {
    await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
    rig.wda.faults.sourceAlwaysXml = true;
    for (let i = 0; i < 2; i++) {
      const { elements } = await rig.call('mobile_list_elements_on_screen');
      assert.ok(find(elements, 'Email'), JSON.stringify(elements).slice(0, 200));
    }
  }));

test.run();
