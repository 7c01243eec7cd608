import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { find, makeRig, type Rig } from './rig.js';

const clear = suite<{ rig: Rig }>('clear_first (schema 2.2) through the emulated WebDriverAgent');

clear.before(async (ctx) => {
  ctx.rig = await makeRig();
});
clear.after(async (ctx) => {
  await ctx.rig?.close();
});

clear('clear_first asks WDA for the active element and clears it, then types', async ({ rig }) => {
  await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  await rig.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const { elements } = await rig.call('mobile_list_elements_on_screen');
  await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
  await rig.call('mobile_type_keys', { text: 'old@example.org' });
  const before = rig.wda.requests.length;
  const r = await rig.call('mobile_type_keys', { text: 'new@example.com', clear_first: true });
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.is(rig.device.fieldValue('email'), 'new@example.com');
  const sent = rig.wda.requests.slice(before);
  assert.is(sent[0], 'GET /session/:id/element/active');
  assert.match(sent[1], /^POST \/session\/:id\/element\/ACTIVE-[^/]+-email\/clear$/);
  assert.is(sent.at(-1), 'POST /session/:id/wda/keys', 'typing comes after the clear');
});

clear('no focused field: WDA says "no such element" and the tool says INVALID_PARAMETER', async ({ rig }) => {
  await rig.call('mobile_open_url', { url: 'mbdemo://screen/home' });
  const r = await rig.call('mobile_type_keys', { text: 'x', clear_first: true });
  assert.is(r.code, 'INVALID_PARAMETER');
  assert.match(r.message, /no text field is focused/);
});

clear.run();
