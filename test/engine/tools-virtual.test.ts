import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import { Engine } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { writeApk } from '../harness/apk-builder.js';
import { writeIpa } from '../harness/ipa-builder.js';

/** Every engine tool through the Engine on the virtual phones: what an agent sees. */
type R = Record<string, any>;
const A = 'virtual-android-1';
const I = 'virtual-ios-1';
const DEMO = 'com.mobilebridge.demo';

const t = suite<{ engine: Engine; dir: string }>('tools on the virtual device');

t.before.each((ctx) => {
  ctx.engine = new Engine({ drivers: [new VirtualDriver()] });
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-tools-'));
});
t.after.each(async (ctx) => {
  await ctx.engine.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const call = (e: Engine, tool: string, params: R = {}) => e.call(tool, params) as Promise<R>;
const ok = async (e: Engine, tool: string, params: R = {}) => {
  const r = await call(e, tool, params);
  assert.is.not(r.status, 'error', `${tool} failed: ${r.message}`);
  return r;
};
const fails = async (e: Engine, tool: string, params: R, code: string, message?: RegExp) => {
  const r = await call(e, tool, params);
  assert.is(r.status, 'error', `${tool} should fail with ${code}`);
  assert.is(r.code, code, r.message);
  if (message) assert.match(r.message, message);
  assert.equal(Object.keys(r).sort(), ['code', 'message', 'status']);
  return r;
};
const elements = async (e: Engine, device = A): Promise<UiElement[]> => (await ok(e, 'mobile_list_elements_on_screen', { device })).elements;
const byId = async (e: Engine, id: string, device = A) => {
  const el = (await elements(e, device)).find((x) => x.id === id);
  assert.ok(el, `element ${id} on screen`);
  return el!;
};
const tapEl = async (e: Engine, id: string, device = A) => {
  const el = await byId(e, id, device);
  await ok(e, 'mobile_click_on_screen_at_coordinates', { device, ...el.center });
};

t('mobile_list_available_devices lists both virtual phones in the seed shape', async ({ engine }) => {
  const r = await ok(engine, 'mobile_list_available_devices');
  const ids = r.devices.map((d: R) => `${d.id}:${d.os}`);
  assert.equal(ids, [`${A}:Android`, `${I}:iOS`]);
  for (const d of r.devices) for (const k of ['id', 'os', 'model', 'version']) assert.type(d[k], 'string');
});

t('seed §4.2 rule 4: list → tap the centre → type into the focused field → its text changed', async ({ engine }) => {
  await ok(engine, 'mobile_launch_app', { device: A, packageName: DEMO });
  const email = await byId(engine, 'email');
  assert.is(email.text, '');
  assert.is(email.type, 'edittext');
  await ok(engine, 'mobile_click_on_screen_at_coordinates', { device: A, x: email.center.x, y: email.center.y });
  assert.is((await byId(engine, 'email')).focused, true);
  await ok(engine, 'mobile_type_keys', { device: A, text: 'demo@example.com' });
  assert.is((await byId(engine, 'email')).text, 'demo@example.com');
  assert.ok((await elements(engine)).some((e) => e.type === 'keyboard'), 'soft keyboard shown while typing');
});

t('the whole sign-in flow through tools only', async ({ engine }) => {
  await ok(engine, 'mobile_launch_app', { device: A, packageName: DEMO });
  await tapEl(engine, 'email');
  await ok(engine, 'mobile_type_keys', { device: A, text: 'demo@example.com' });
  assert.is((await byId(engine, 'sign_in')).enabled, false, 'Sign in disabled until both fields are filled');
  await tapEl(engine, 'password');
  await ok(engine, 'mobile_type_keys', { device: A, text: 'secret123', submit: true });
  const after = await elements(engine);
  assert.ok(after.some((e) => e.id === 'loading_spinner' || e.id === 'items'), 'signed in: loading or the list');
});

t('typing counts characters as a person does and refuses control characters before typing anything', async ({ engine }) => {
  await ok(engine, 'mobile_launch_app', { device: A, packageName: DEMO });
  await tapEl(engine, 'email');
  const typed = (await ok(engine, 'mobile_type_keys', { device: A, text: 'hé 👋🏽' })) as { message: string };
  assert.match(typed.message, /^typed 4 characters on /);
  assert.match(((await ok(engine, 'mobile_type_keys', { device: A, text: '!' })) as { message: string }).message, /^typed 1 character on /);
  await fails(engine, 'mobile_type_keys', { device: A, text: 'a\u0000b' }, 'INVALID_PARAMETER', /control character U\+0000 at index 1/);
  await fails(engine, 'mobile_type_keys', { device: A, text: 'one\r\ntwo' }, 'INVALID_PARAMETER', /U\+000D at index 3.*"\\n" for ENTER/);
  assert.is((await byId(engine, 'email')).text, 'hé 👋🏽!', 'nothing of the refused texts was typed');
});

t('typing with no focused field says so, and what was typed before the focus went', async ({ engine }) => {
  await ok(engine, 'mobile_launch_app', { device: A, packageName: DEMO });
  await fails(engine, 'mobile_type_keys', { device: A, text: 'x' }, 'INVALID_PARAMETER', /^no text field is focused/);
  await tapEl(engine, 'email');
  // ENTER in the e-mail field moves on to the password; ENTER there signs in and leaves no field.
  // Counted, not quoted: "secret" went into the password field, and errors reach every viewer's activity feed.
  const r = await fails(engine, 'mobile_type_keys', { device: A, text: 'a@b.c\nsecret\nafter' }, 'INVALID_PARAMETER', /^typed the first 13 characters \(newlines as ENTER, tabs as TAB\), then no text field is focused on virtual-android-1 for the other 5 characters/);
  assert.not.match(JSON.stringify(r), /secret|after/);
});

t('ENTER with no focused field: refused on iOS, which has no keyboard to press it on, as the iOS driver does; delivered on Android', async ({ engine }) => {
  for (const device of [A, I]) await ok(engine, 'mobile_launch_app', { device, packageName: DEMO });
  await fails(engine, 'mobile_press_button', { device: I, button: 'ENTER' }, 'INVALID_PARAMETER', /^no text field is focused on virtual-ios-1/);
  await fails(engine, 'mobile_type_keys', { device: I, text: '', submit: true }, 'INVALID_PARAMETER', /^no text field is focused on virtual-ios-1/);
  await ok(engine, 'mobile_press_button', { device: A, button: 'ENTER' });
  await tapEl(engine, 'email', I);
  const r = await ok(engine, 'mobile_type_keys', { device: I, text: '', submit: true });
  assert.is(r.message, `pressed ENTER on ${I}`, 'says only what was done');
  assert.is((await byId(engine, 'password', I)).focused, true, 'ENTER moved on to the next field');
});

t('a tab in typed text moves to the next field, as a phone keyboard\'s TAB does', async ({ engine }) => {
  await ok(engine, 'mobile_launch_app', { device: A, packageName: DEMO });
  await tapEl(engine, 'email');
  await ok(engine, 'mobile_type_keys', { device: A, text: 'demo@example.com\tsecret123' });
  assert.is((await byId(engine, 'email')).text, 'demo@example.com');
  assert.is((await byId(engine, 'password')).focused, true);
  assert.is((await byId(engine, 'password')).text, '•'.repeat('secret123'.length));
});

t('screenshot decodes and its dimensions equal mobile_get_screen_size', async ({ engine }) => {
  for (const device of [A, I]) {
    const size = await ok(engine, 'mobile_get_screen_size', { device });
    const shot = await ok(engine, 'mobile_take_screenshot', { device });
    assert.is(shot.format, 'png');
    const meta = await sharp(Buffer.from(shot.image, 'base64')).metadata();
    assert.equal({ width: meta.width, height: meta.height }, { width: size.width, height: size.height });
    assert.equal(shot.dimensions, { width: size.width, height: size.height });
  }
});

t('save screenshot writes a PNG under allowed folders and refuses others', async ({ engine, dir }) => {
  const file = join(dir, 'shot.png');
  const r = await ok(engine, 'mobile_save_screenshot', { device: A, saveTo: file });
  assert.equal(r, { status: 'success', path: file });
  assert.is((await sharp(file).metadata()).format, 'png');
  await fails(engine, 'mobile_save_screenshot', { device: A, saveTo: '/mobilebridge-nope/x.png' }, 'PERMISSION_DENIED', /--allow-path/);
  await fails(engine, 'mobile_save_screenshot', { device: A, saveTo: join(dir, 'missing-dir', 'deeper', 'x.png') }, 'INVALID_PARAMETER', /cannot write/);
});

t('save screenshot picks the format from the extension and refuses a folder or another format', async ({ engine, dir }) => {
  const size = await ok(engine, 'mobile_get_screen_size', { device: A });
  for (const name of ['shot.jpg', 'SHOT.JPEG']) {
    await ok(engine, 'mobile_save_screenshot', { device: A, saveTo: join(dir, name) });
    const meta = await sharp(join(dir, name)).metadata();
    assert.equal([meta.format, meta.width, meta.height], ['jpeg', size.width, size.height], name);
  }
  await ok(engine, 'mobile_save_screenshot', { device: A, saveTo: join(dir, 'no-extension') });
  assert.is((await sharp(join(dir, 'no-extension')).metadata()).format, 'png');
  await fails(engine, 'mobile_save_screenshot', { device: A, saveTo: join(dir, 'shot.webp') }, 'INVALID_PARAMETER', /\.png.*\.jpg.*not \.webp/);
  await fails(engine, 'mobile_save_screenshot', { device: A, saveTo: join(dir, 'shots') + '/' }, 'INVALID_PARAMETER', /names a folder/);
  assert.not.ok(existsSync(join(dir, 'shot.webp')) || existsSync(join(dir, 'shots')), 'a refused save writes nothing');
});

t('orientation round trip swaps the screen size', async ({ engine }) => {
  assert.equal(await ok(engine, 'mobile_get_orientation', { device: A }), { orientation: 'portrait' });
  await ok(engine, 'mobile_set_orientation', { device: A, orientation: 'landscape' });
  assert.equal(await ok(engine, 'mobile_get_orientation', { device: A }), { orientation: 'landscape' });
  assert.equal(await ok(engine, 'mobile_get_screen_size', { device: A }), { width: 2400, height: 1080 });
  // The coordinate check uses the new size at once (no stale cache).
  await ok(engine, 'mobile_click_on_screen_at_coordinates', { device: A, x: 2000, y: 500 });
  await ok(engine, 'mobile_set_orientation', { device: A, orientation: 'portrait' });
  assert.equal(await ok(engine, 'mobile_get_screen_size', { device: A }), { width: 1080, height: 2400 });
});

t('install → list → launch → foreground → terminate → uninstall round trip (Android .apk)', async ({ engine, dir }) => {
  const apk = writeApk(dir, { package: 'com.example.notes', versionName: '2.0', label: 'Notes' });
  await fails(engine, 'mobile_launch_app', { device: A, packageName: 'com.example.notes' }, 'APP_NOT_INSTALLED', /com\.example\.notes/);
  const installed = await ok(engine, 'mobile_install_app', { device: A, path: apk });
  assert.match(installed.message, /installed com\.example\.notes/);
  const apps = (await ok(engine, 'mobile_list_apps', { device: A })).apps as R[];
  assert.equal(apps.find((a) => a.package === 'com.example.notes'), { package: 'com.example.notes', name: 'Notes', version: '2.0', installed: true });
  await ok(engine, 'mobile_launch_app', { device: A, packageName: 'com.example.notes' });
  assert.is((await ok(engine, 'mobile_get_foreground_app', { device: A })).package, 'com.example.notes');
  assert.is((await ok(engine, 'mobile_terminate_app', { device: A, packageName: 'com.example.notes' })).message, `terminated com.example.notes on ${A}`);
  assert.is.not((await ok(engine, 'mobile_get_foreground_app', { device: A })).package, 'com.example.notes');
  assert.is((await ok(engine, 'mobile_terminate_app', { device: A, packageName: 'com.example.notes' })).message, `com.example.notes was not running on ${A}; nothing to terminate`);
  await ok(engine, 'mobile_uninstall_app', { device: A, bundle_id: 'com.example.notes' });
  await fails(engine, 'mobile_uninstall_app', { device: A, bundle_id: 'com.example.notes' }, 'APP_NOT_INSTALLED');
  await fails(engine, 'mobile_terminate_app', { device: A, packageName: 'com.example.notes' }, 'APP_NOT_INSTALLED');
  await fails(engine, 'mobile_clear_app_data', { device: A, packageName: 'com.example.notes' }, 'APP_NOT_INSTALLED');
});

t('install on iOS takes an .ipa and refuses an .apk; bad files are INVALID_PARAMETER', async ({ engine, dir }) => {
  const ipa = writeIpa(dir, { bundleId: 'com.example.Weather', name: 'Weather', version: '3.1' });
  await ok(engine, 'mobile_install_app', { device: I, path: ipa });
  await ok(engine, 'mobile_launch_app', { device: I, packageName: 'com.example.Weather' });
  const apk = writeApk(dir, { package: 'com.example.notes' });
  await fails(engine, 'mobile_install_app', { device: I, path: apk }, 'INVALID_PARAMETER');
  await fails(engine, 'mobile_install_app', { device: A, path: ipa }, 'INVALID_PARAMETER');
  await fails(engine, 'mobile_install_app', { device: A, path: join(dir, 'absent.apk') }, 'INVALID_PARAMETER');
  await fails(engine, 'mobile_install_app', { device: A, path: '/mobilebridge-nope/x.apk' }, 'PERMISSION_DENIED');
});

t('system apps cannot be uninstalled; iOS has no clear-data or Wi-Fi switch', async ({ engine }) => {
  await fails(engine, 'mobile_uninstall_app', { device: A, bundle_id: 'com.android.settings' }, 'PERMISSION_DENIED');
  await fails(engine, 'mobile_clear_app_data', { device: I, packageName: DEMO }, 'UNSUPPORTED');
  await fails(engine, 'mobile_set_wifi', { device: I, enabled: false }, 'UNSUPPORTED');
  await ok(engine, 'mobile_set_wifi', { device: A, enabled: false });
  await ok(engine, 'mobile_clear_app_data', { device: A, packageName: DEMO });
});

t('buttons: HOME to the launcher, BACK refused on iOS, volume keys accepted', async ({ engine }) => {
  await ok(engine, 'mobile_launch_app', { device: A, packageName: DEMO });
  await ok(engine, 'mobile_press_button', { device: A, button: 'HOME' });
  assert.is.not((await ok(engine, 'mobile_get_foreground_app', { device: A })).package, DEMO);
  await fails(engine, 'mobile_press_button', { device: I, button: 'BACK' }, 'INVALID_PARAMETER', /iOS/);
  await ok(engine, 'mobile_press_button', { device: I, button: 'VOLUME_UP' });
  await ok(engine, 'mobile_press_button', { device: A, button: 'VOLUME_DOWN' });
});

t('open_url: web page in the browser, deep link in the demo app, unknown scheme refused', async ({ engine }) => {
  await ok(engine, 'mobile_open_url', { device: A, url: 'https://example.com/docs' });
  assert.is((await ok(engine, 'mobile_get_foreground_app', { device: A })).package, 'com.android.chrome');
  assert.ok((await elements(engine)).some((e) => e.text.includes('example.com')), 'address bar shows the URL');
  await ok(engine, 'mobile_open_url', { device: A, url: 'mbdemo://screen/inbox' });
  assert.ok((await elements(engine)).some((e) => e.id === 'empty_title'));
  await fails(engine, 'mobile_open_url', { device: A, url: 'nosuchscheme://x' }, 'INVALID_PARAMETER');
  // Like a real app, the demo app answers a link to an item it does not have with a "not found" screen, and the result says so.
  const missing = await ok(engine, 'mobile_open_url', { device: A, url: 'mbdemo://item/999' });
  assert.is(missing.message, `opened mbdemo://item/999 on ${A}; the demo app has no item 999 (items 1–60), so it shows "Item not found"`);
  assert.ok((await elements(engine)).some((e) => e.id === 'not_found_title'));
  assert.not.ok((await elements(engine)).some((e) => e.text === 'Item 999'));
  assert.is((await ok(engine, 'mobile_open_url', { device: A, url: 'mbdemo://item/60' })).message, `opened mbdemo://item/60 on ${A}`);
});

t('swipe scrolls the list and scroll_to_element finds an item below the fold', async ({ engine }) => {
  await ok(engine, 'mobile_open_url', { device: A, url: 'mbdemo://screen/home' });
  const before = (await elements(engine)).filter((e) => e.id.startsWith('item_')).map((e) => e.id);
  assert.ok(!before.includes('item_40'), 'item_40 starts off screen and is not listed');
  await ok(engine, 'mobile_swipe_on_screen', { device: A, direction: 'up' });
  const after = (await elements(engine)).filter((e) => e.id.startsWith('item_')).map((e) => e.id);
  assert.is.not(after[0], before[0], 'the list moved');
  await ok(engine, 'mobile_scroll_to_element', { device: A, element: 'item_40' });
  const target = await byId(engine, 'item_40');
  const size = await ok(engine, 'mobile_get_screen_size', { device: A });
  assert.ok(target.y >= 0 && target.y + target.height <= size.height, 'fully on screen');
  await fails(engine, 'mobile_scroll_to_element', { device: A, element: 'item_999' }, 'ELEMENT_NOT_FOUND', /item_999/);
});

t('scroll_to_element with an id from before a scroll finds the element that was listed, not the row that holds the id now', async ({ engine }) => {
  await ok(engine, 'mobile_open_url', { device: A, url: 'mbdemo://screen/home' });
  const listed = await elements(engine);
  // A text without a resource id of its own: its id is its place in the hierarchy.
  const item = listed.find((e) => e.text === 'Item 10' && !e.id.startsWith('item_'))!;
  assert.ok(item, JSON.stringify(listed.map((e) => [e.id, e.text])));
  // Far enough that Item 10 leaves the screen while its old id names a row further down.
  await ok(engine, 'mobile_swipe_on_screen', { device: A, direction: 'up', distance: 1400 });
  await ok(engine, 'mobile_swipe_on_screen', { device: A, direction: 'up', distance: 1400 });
  // (Not listed again here: the caller under test still holds the first listing.)
  const r = await ok(engine, 'mobile_scroll_to_element', { device: A, element: item.id });
  assert.match(String(r.message), '"Item 10" when it was listed');
  const now = await elements(engine);
  const shown = now.find((e) => e.text === 'Item 10');
  assert.ok(shown, 'Item 10 is on screen');
  const atOldId = now.find((e) => e.id === item.id);
  if (atOldId?.text !== 'Item 10') assert.match(String(r.message), `listed as "${shown!.id}" now`);
});

t('long press opens a context menu, double tap likes', async ({ engine }) => {
  await ok(engine, 'mobile_open_url', { device: A, url: 'mbdemo://screen/home' });
  const item = await byId(engine, 'item_2');
  await ok(engine, 'mobile_long_press_on_screen_at_coordinates', { device: A, ...item.center, duration: 800 });
  assert.ok((await elements(engine)).some((e) => e.id === 'menu_open'));
  await ok(engine, 'mobile_press_button', { device: A, button: 'BACK' });
  await ok(engine, 'mobile_open_url', { device: A, url: 'mbdemo://screen/detail?item=3' });
  const before = (await byId(engine, 'like_state')).text;
  const image = await byId(engine, 'detail_image');
  await ok(engine, 'mobile_double_tap_on_screen', { device: A, ...image.center });
  assert.is.not((await byId(engine, 'like_state')).text, before);
});

t('a press shorter than the long-press time is a tap, as on devices (Android 12+ 400 ms, iOS 500 ms), and the result says so', async ({ engine }) => {
  for (const [device, short, enough] of [[A, 399, 400], [I, 499, 500]] as const) {
    await ok(engine, 'mobile_open_url', { device, url: 'mbdemo://screen/home' });
    const item = await byId(engine, 'item_2', device);
    const tapped = await ok(engine, 'mobile_long_press_on_screen_at_coordinates', { device, ...item.center, duration: short });
    assert.match(String(tapped.message), new RegExp(`^pressed .* for ${short} ms .*shorter than a long press.*took it as a tap`), device);
    const screen = await elements(engine, device);
    assert.not.ok(screen.some((e) => e.id === 'menu_open'), `${device}: no context menu`);
    assert.ok(screen.some((e) => e.id === 'detail_image'), `${device}: the tap opened the item`);
    await ok(engine, 'mobile_open_url', { device, url: 'mbdemo://screen/home' });
    const held = await ok(engine, 'mobile_long_press_on_screen_at_coordinates', { device, ...item.center, duration: enough });
    assert.match(String(held.message), /^long-pressed/);
    assert.ok((await elements(engine, device)).some((e) => e.id === 'menu_open'), `${device}: context menu`);
  }
});

t('a swipe nearly as wide as the screen no longer starts in the edge strip where it is the system back gesture', async ({ engine }) => {
  for (const device of [A, I]) {
    await ok(engine, 'mobile_open_url', { device, url: 'mbdemo://screen/detail?item=3' });
    const { width } = await ok(engine, 'mobile_get_screen_size', { device });
    const r = await ok(engine, 'mobile_swipe_on_screen', { device, direction: 'right', distance: Math.round(width * 0.93) });
    assert.match(String(r.message), /shortened from/);
    assert.ok((await elements(engine, device)).some((e) => e.id === 'detail_image'), `${device}: still on the detail screen`);
  }
});

t('scroll_to_element brings in a row its list cuts to a sliver, and checks it with a new listing', async ({ engine }) => {
  // The virtual Pixel's home list ends in 27 px of its twelfth row (the virtual iPhone's in a whole row).
  for (const device of [A]) {
    await ok(engine, 'mobile_open_url', { device, url: 'mbdemo://screen/home' });
    const rows = (await elements(engine, device)).filter((e) => /^item_\d+$/.test(e.id));
    const last = rows.at(-1)!;
    const full = Math.max(...rows.map((r) => r.height));
    assert.ok(last.height < full, `${device}: the last row shows ${last.height} of ${full} px`);
    const r = await ok(engine, 'mobile_scroll_to_element', { device, element: last.id });
    assert.match(String(r.message), /^scrolled to element/);
    const now = (await elements(engine, device)).find((e) => e.id === last.id);
    assert.ok(now, `${device}: still listed`);
    assert.is(now!.height, full, `${device}: all of it shows now`);
  }
});

t('out-of-screen coordinates are refused for every pointer tool', async ({ engine }) => {
  await fails(engine, 'mobile_click_on_screen_at_coordinates', { device: A, x: 1080, y: 10 }, 'INVALID_PARAMETER', /1080×2400/);
  await fails(engine, 'mobile_double_tap_on_screen', { device: A, x: 10, y: 2400 }, 'INVALID_PARAMETER');
  await fails(engine, 'mobile_long_press_on_screen_at_coordinates', { device: I, x: 5000, y: 10 }, 'INVALID_PARAMETER', /1179×2556/);
});

t('unknown device is DEVICE_NOT_FOUND on every device tool', async ({ engine }) => {
  await fails(engine, 'mobile_get_screen_size', { device: 'pixel-9' }, 'DEVICE_NOT_FOUND', /virtual-android-1, virtual-ios-1/);
  await fails(engine, 'mobile_take_screenshot', { device: 'pixel-9' }, 'DEVICE_NOT_FOUND');
});

t('concurrent calls on one device are serialized: each type lands whole, in order', async ({ engine }) => {
  await ok(engine, 'mobile_launch_app', { device: A, packageName: DEMO });
  await tapEl(engine, 'email');
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
  const results = await Promise.all(words.map((text) => call(engine, 'mobile_type_keys', { device: A, text })));
  assert.ok(results.every((r) => r.status === 'success'));
  assert.is((await byId(engine, 'email')).text, words.join(''));
});

t('a slow device gives TIMEOUT and the next call still works', async () => {
  const slow = new Engine({ drivers: [new VirtualDriver({ latencyMs: 300 })], timeoutMs: 50 });
  try {
    const r = (await slow.call('mobile_get_screen_size', { device: A })) as R;
    assert.is(r.code, 'TIMEOUT');
    assert.match(r.message, /virtual-android-1/);
  } finally {
    await slow.close();
  }
});

t.run();
