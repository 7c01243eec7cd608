import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/**
 * An adbd before Android 7 takes packets of at most 4 KiB (MAX_PAYLOAD_V1), and the real adb server
 * does not refuse a longer service for it: it aborts ("destination oversized"), and every device
 * loses its connection. Long text and long values must never reach it as one command.
 */
const old = suite<{ rig?: AndroidRig }>('android: an adbd that takes 4 KiB packets (before Android 7)');

old.before(async (ctx) => {
  ctx.rig = await startRig({ maxPayload: 4096 });
});
old.after(async (ctx) => {
  await ctx.rig?.stop();
});

const serverAlive = async (rig: AndroidRig) => {
  const listed = (await rig.engine.call('mobile_list_available_devices', {})) as { devices?: { id: string }[] };
  return Boolean(listed.devices?.some((d) => d.id === rig.phone.serial));
};

old('6,000 characters typed with `input text` go as several commands under the limit, and all arrive', async ({ rig }) => {
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await rig!.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const email = ((await rig!.call('mobile_list_elements_on_screen')).elements as { id: string; center: object }[]).find((e) => e.id === 'email')!;
  await rig!.call('mobile_click_on_screen_at_coordinates', email.center);
  // Double quotes keep monkey out of it (its line splitting would change them): `input text` types this.
  const text = `say "hi" to it's 100%s of us; `.repeat(200);
  rig!.phone.stats.reset();
  const r = await rig!.call('mobile_type_keys', { text });
  assert.is(r.status, 'success', JSON.stringify(r).slice(0, 300));
  assert.is(rig!.phone.phone.fieldValue('email'), text);
  const typing = rig!.phone.stats.opened.filter((s) => s.includes('input text'));
  assert.ok(typing.length > 1, `${typing.length} commands`);
  for (const s of typing) assert.ok(Buffer.byteLength(s) < 4096, `${Buffer.byteLength(s)} bytes`);
  assert.ok(await serverAlive(rig!), 'the adb server still lists the phone');
});

old('a value too long for one command (a 5,000-character URL) is refused before it is sent, and the adb server stays up', async ({ rig }) => {
  const r = await rig!.call('mobile_open_url', { url: `https://example.com/?q=${'a'.repeat(5000)}` });
  assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r).slice(0, 300));
  assert.match(String(r.message), /was not sent: adb carries at most 4095/);
  assert.ok(await serverAlive(rig!), 'the adb server still lists the phone');
});

if (hasAdb()) old.run();
