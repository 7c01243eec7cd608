import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

const clear = suite<{ rig?: AndroidRig }>('clear_first (schema 2.2) through the real adb server');

clear.before(async (ctx) => {
  ctx.rig = await startRig();
});
clear.after(async (ctx) => {
  await ctx.rig?.stop();
});

const tapField = async (rig: AndroidRig, id: string) => {
  const { elements } = (await rig.call('mobile_list_elements_on_screen')) as { elements: UiElement[] };
  const field = elements.find((e) => e.id === id);
  if (!field) throw new Error(`no ${id}`);
  await rig.call('mobile_click_on_screen_at_coordinates', field.center);
  return field;
};

clear('clear_first empties the focused field with MOVE_END and one DEL per character, then types', async ({ rig }) => {
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  await tapField(rig!, 'email');
  await rig!.call('mobile_type_keys', { text: 'old@example.org' });
  assert.is(rig!.phone.phone.fieldValue('email'), 'old@example.org');
  rig!.phone.stats.reset();
  const r = await rig!.call('mobile_type_keys', { text: 'new@example.com', clear_first: true });
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.is(rig!.phone.phone.fieldValue('email'), 'new@example.com');
  const sent = rig!.phone.stats.opened.find((c) => c.includes('KEYCODE_DEL'));
  assert.ok(sent, rig!.phone.stats.opened.join('\n'));
  assert.is(sent!.split('KEYCODE_DEL').length - 1, 'old@example.org'.length);
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
