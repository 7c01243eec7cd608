import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.js';
import { TOOLS } from '../../src/engine/tools/index.js';

// Parameters are checked before any device is looked up, so an engine without drivers shows exactly what validation says.
const engine = new Engine({ drivers: [] });
const call = async (tool: string, params: unknown) => (await engine.call(tool, params)) as { status: string; code: string; message: string };
const d = 'virtual-android-1';

test('unknown tool lists the tools that exist', async () => {
  const r = await call('mobile_tap', { device: d });
  assert.is(r.code, 'INVALID_PARAMETER');
  assert.match(r.message, /unknown tool "mobile_tap"; available tools: mobile_list_available_devices/);
});

test('every device tool requires device', async () => {
  for (const t of TOOLS.filter((t) => t.name !== 'mobile_list_available_devices')) {
    const r = await call(t.name, {});
    assert.is(r.code, 'INVALID_PARAMETER', t.name);
    assert.match(r.message, /device/, t.name);
  }
});

test('every tool rejects an unknown extra parameter and names the allowed ones', async () => {
  for (const t of TOOLS) {
    const r = await call(t.name, t.name === 'mobile_list_available_devices' ? { bogus: 1 } : { device: d, bogus: 1 });
    assert.is(r.code, 'INVALID_PARAMETER', t.name);
    assert.match(r.message, /unknown parameter "bogus"; allowed parameters:/, t.name);
  }
});

test('parameters must be an object', async () => {
  const r = await call('mobile_get_screen_size', ['virtual-android-1']);
  assert.is(r.code, 'INVALID_PARAMETER');
  assert.match(r.message, /parameters must be a JSON object such as .*, not an array/);
});

const cases: [tool: string, params: Record<string, unknown>, message: RegExp][] = [
  ['mobile_launch_app', { device: d }, /packageName .*required|packageName must be a string/],
  ['mobile_launch_app', { device: d, packageName: 'com.x; rm -rf /' }, /packageName "com.x; rm -rf \/" is not a valid package name/],
  ['mobile_launch_app', { device: d, packageName: 42 }, /packageName must be a string/],
  ['mobile_uninstall_app', { device: d, packageName: 'com.a.b' }, /unknown parameter "packageName" \(did you mean "bundle_id"\?\); allowed parameters: device, bundle_id/],
  ['mobile_launch_app', { device: d, package: 'com.a.b' }, /unknown parameter "package" \(did you mean "packageName"\?\)/],
  ['mobile_open_url', { device: d, link: 'https://example.com' }, /unknown parameter "link" \(did you mean "url"\?\)/],
  ['mobile_install_app', { device: d, path: '' }, /path must not be empty/],
  ['mobile_click_on_screen_at_coordinates', { device: d, x: '10px', y: 5 }, /x must be a number of device pixels/],
  ['mobile_click_on_screen_at_coordinates', { device: d, x: -1, y: 5 }, /x must be ≥ 0/],
  ['mobile_click_on_screen_at_coordinates', { device: d, x: 5 }, /y .*required|y must be a number/],
  ['mobile_double_tap_on_screen', { device: d, x: 1, y: Number.NaN }, /y must be/],
  ['mobile_long_press_on_screen_at_coordinates', { device: d, x: 1, y: 1, duration: 10001 }, /duration must be at most 10000 ms/],
  ['mobile_long_press_on_screen_at_coordinates', { device: d, x: 1, y: 1, duration: 0 }, /duration must be at least 1 ms/],
  ['mobile_long_press_on_screen_at_coordinates', { device: d, x: 1, y: 1, duration: 1.5 }, /whole number of milliseconds/],
  ['mobile_type_keys', { device: d }, /text is required/],
  ['mobile_type_keys', { device: d, text: 'a', submit: 'yes' }, /submit must be true or false/],
  ['mobile_swipe_on_screen', { device: d, direction: 'sideways' }, /direction must be one of up, down, left, right \(got "sideways"\)/],
  ['mobile_swipe_on_screen', { device: d }, /direction is required: one of up, down, left, right/],
  ['mobile_swipe_on_screen', { device: d, direction: 'up', distance: -5 }, /distance must be at least 1 pixel/],
  ['mobile_press_button', { device: d, button: 'MENU' }, /button must be one of BACK, HOME, VOLUME_UP, VOLUME_DOWN, ENTER \(got "MENU"\)/],
  ['mobile_open_url', { device: d, url: 'example.com' }, /url must be a full URL with a scheme/],
  ['mobile_set_orientation', { device: d, orientation: 'upside-down' }, /orientation must be one of portrait, landscape/],
  ['mobile_save_screenshot', { device: d }, /saveTo is required/],
  ['mobile_scroll_to_element', { device: d, element: '' }, /element must not be empty/],
  ['mobile_set_wifi', { device: d, enabled: 'on' }, /enabled must be true or false/],
  ['mobile_clear_app_data', { device: d, packageName: 'nodots' }, /is not a valid package name/],
];

for (const [tool, params, message] of cases) {
  test(`${tool} ${JSON.stringify(params)} → INVALID_PARAMETER`, async () => {
    const r = await call(tool, params);
    assert.is(r.status, 'error');
    assert.is(r.code, 'INVALID_PARAMETER');
    assert.match(r.message, message);
    assert.ok(r.message.startsWith(`${tool} on ${d}: `), 'message names the tool and the device');
  });
}

test.run();
