import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AndroidDevice } from '../../src/engine/drivers/android/android-device.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { UIA2_PACKAGES } from '../harness/adbd/uia2-service.js';
import { writeApk } from '../harness/apk-builder.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

const clear = suite<{ rig?: AndroidRig }>('clear_first (schema 2.2) through the real adb server');

clear.before(async (ctx) => {
  ctx.rig = await startRig();
});
clear.after(async (ctx) => {
  await ctx.rig?.stop();
});

const UNCONFIRMED = 'Android does not confirm that a text field took it: with none focused the keys went to the screen in front (tap the field first; mobile_list_elements_on_screen shows its text)';

const tapField = async (rig: AndroidRig, id: string) => {
  const { elements } = (await rig.call('mobile_list_elements_on_screen')) as { elements: UiElement[] };
  const field = elements.find((e) => e.id === id);
  if (!field) throw new Error(`no ${id}`);
  await rig.call('mobile_click_on_screen_at_coordinates', field.center);
  return field;
};

clear('clear_first empties the focused field with one DEL and one FORWARD_DEL per character (any cursor position), checks it, then types', async ({ rig }) => {
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  await tapField(rig!, 'email');
  await rig!.call('mobile_type_keys', { text: 'old@example.org' });
  assert.is(rig!.phone.phone.fieldValue('email'), 'old@example.org');
  rig!.phone.stats.reset();
  const r = await rig!.call('mobile_type_keys', { text: 'new@example.com', clear_first: true });
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.is(rig!.phone.phone.fieldValue('email'), 'new@example.com');
  // Key codes by number: KEYCODE_MOVE_END 123, KEYCODE_DEL 67, KEYCODE_FORWARD_DEL 112.
  const sent = rig!.phone.stats.opened.find((c) => c.includes('input keyevent 123 67'));
  assert.ok(sent, rig!.phone.stats.opened.join('\n'));
  assert.is(sent!.split(' 67').length - 1, 'old@example.org'.length);
  assert.is(sent!.split(' 112').length - 1, 'old@example.org'.length);
  assert.is(r.message, `emptied the field and typed 15 characters on ${rig!.phone.serial}; ${UNCONFIRMED}`);
  assert.is(rig!.phone.stats.opened.filter((c) => c.includes('uiautomator dump')).length, 2, 'listed before and after the deletes');
});

clear('a field of 1,500 characters is emptied too: the deletes go as several commands, each within what adb carries', async ({ rig }) => {
  const long = 'x'.repeat(1500);
  await rig!.call('mobile_type_keys', { text: long });
  assert.is(rig!.phone.phone.fieldValue('email'), `new@example.com${long}`);
  rig!.phone.stats.reset();
  const r = await rig!.call('mobile_type_keys', { text: 'short@example.com', clear_first: true });
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.is(rig!.phone.phone.fieldValue('email'), 'short@example.com');
  const deletes = rig!.phone.stats.opened.filter((c) => /input keyevent (123 )?(67|112) /.test(c));
  assert.ok(deletes.length >= 3, deletes.map((c) => c.length).join(', '));
  // Each is `exec:<command>` plus the driver's end mark (18 bytes) within MAX_SERVICE_BYTES (4095).
  for (const c of deletes) assert.ok(Buffer.byteLength(c) + 18 <= 4095, `${c.length} bytes`);
  const keys = deletes.join(' ').split(' ');
  assert.is(keys.filter((k) => k === '67').length, 1515);
  assert.is(keys.filter((k) => k === '112').length, 1515);
});

clear('an empty field whose hint the platform dumper lists as its text: the answer says the listing cannot confirm it', async ({ rig }) => {
  await rig!.call('mobile_type_keys', { text: '', clear_first: true });
  assert.is(rig!.phone.phone.fieldValue('email'), '');
  const r = await rig!.call('mobile_type_keys', { text: '', clear_first: true });
  assert.is(r.status, 'success');
  assert.match(String(r.message), /^deleted the field's text \(Android did not confirm the field is empty: it still lists "Email", which an empty field shows when that is its hint/);
});

clear('a typing failure after the field was emptied says the old text is gone', async ({ rig }) => {
  await rig!.call('mobile_type_keys', { text: 'old@example.org' });
  const android = rig!.phone.scrcpy.android;
  rig!.phone.scrcpy.android = { api: 23, release: '6.0.1' };
  try {
    const r = await rig!.call('mobile_type_keys', { text: '日本', clear_first: true });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(String(r.message), /^emptied the field first, then typing failed: cannot type non-ASCII text/);
    assert.is(rig!.phone.phone.fieldValue('email'), '');
  } finally {
    rig!.phone.scrcpy.android = android;
  }
});

/** An engine whose phone runs the UiAutomator2 server, whose dumps carry the hint attribute. */
async function withUiServer(rig: AndroidRig, work: (call: (tool: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>) => Promise<void>) {
  const tmp = mkdtempSync(join(tmpdir(), 'mb-clear-'));
  const engine = rig.engineWith({
    uiServerApks: {
      server: writeApk(tmp, { package: UIA2_PACKAGES[0], label: 'Appium Settings' }, 'appium-uiautomator2-server-v7.0.0.apk'),
      test: writeApk(tmp, { package: UIA2_PACKAGES[1] }, 'appium-uiautomator2-server-debug-androidTest.apk'),
    },
  });
  try {
    const call = async (tool: string, params: Record<string, unknown> = {}) => (await engine.call(tool, { device: rig.phone.serial, ...params })) as Record<string, unknown>;
    await call('mobile_list_elements_on_screen');
    assert.ok(await engine.withDevice(rig.phone.serial, 'warm', async (h) => (await (h as AndroidDevice).uiServer?.ready()) ?? false), 'the UiAutomator2 server runs');
    await work(call);
  } finally {
    await engine.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

clear('with the UiAutomator2 server a field whose text equals its hint is listed empty, and is still emptied', async ({ rig }) => {
  await withUiServer(rig!, async (call) => {
    await call('mobile_type_keys', { text: 'Email' });
    assert.is(rig!.phone.phone.fieldValue('email'), 'Email');
    const listed = ((await call('mobile_list_elements_on_screen')).elements as UiElement[]).find((e) => e.id === 'email');
    assert.equal([listed?.text, listed?.hint], ['', 'Email']);
    const r = await call('mobile_type_keys', { text: 'new', clear_first: true });
    assert.is(r.status, 'success', JSON.stringify(r));
    assert.is(rig!.phone.phone.fieldValue('email'), 'new');
  });
});

clear('a field that drops deletions is not reported emptied: INTERNAL naming what it still holds, and nothing typed', async ({ rig }) => {
  await withUiServer(rig!, async (call) => {
    rig!.phone.shell.quirks.deletesRefused = true;
    try {
      const r = await call('mobile_type_keys', { text: 'typed@example.com', clear_first: true });
      assert.is(r.code, 'INTERNAL', JSON.stringify(r));
      assert.match(String(r.message), /still holds "new" after 3 deletes \(it held "new"\): it refuses edits or filters deletions; nothing was typed/, String(r.message));
      assert.is(rig!.phone.phone.fieldValue('email'), 'new');
    } finally {
      rig!.phone.shell.quirks.deletesRefused = false;
    }
  });
});

clear('a password field is emptied too (its listing shows one bullet per character)', async ({ rig }) => {
  const field = await tapField(rig!, 'password');
  assert.ok(field.password, 'password fields are marked');
  await rig!.call('mobile_type_keys', { text: 'wrong-one' });
  await rig!.call('mobile_type_keys', { text: 'abc', clear_first: true });
  assert.is(rig!.phone.phone.fieldValue('password'), 'abc');
  // Only clearing: empty text is allowed with clear_first.
  await rig!.call('mobile_type_keys', { text: '', clear_first: true });
  assert.is(rig!.phone.phone.fieldValue('password'), '');
});

clear('nothing focused: INVALID_PARAMETER that says to tap a field first, and nothing is deleted', async ({ rig }) => {
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/home' });
  const r = await rig!.call('mobile_type_keys', { text: 'x', clear_first: true });
  assert.is(r.code, 'INVALID_PARAMETER');
  assert.match(String(r.message), /no text field is focused/);
});

if (hasAdb()) clear.run();
