import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { handleOf, hasFfmpeg, take } from './scrcpy-support.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** The phone unplugged while scrcpy types: a rig per test, since the phone stays unplugged. */
const test = suite<{ rig?: AndroidRig }>('scrcpy typing cut by an unplug');
const ready = hasAdb() && hasFfmpeg();

test.before.each(async (ctx) => {
  if (ready) ctx.rig = await startRig();
});
test.after.each(async (ctx) => {
  await ctx.rig?.stop();
  ctx.rig = undefined;
});

/** Types `text` into the focused e-mail field over scrcpy's control socket, the phone unplugged when the server gets a `when` message. */
async function typeCutAt(rig: AndroidRig, text: string, when: string): Promise<Record<string, unknown>> {
  const engine = rig.engineWith({ scrcpy: { graceMs: 200, bindTimeoutMs: 1_500, restartAfterMs: 60_000 } });
  const call = (tool: string, params: object) => engine.call(tool, { device: rig.phone.serial, ...params }) as Promise<Record<string, unknown>>;
  await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const video = await (await handleOf(rig, engine)).openVideo!({ maxSize: 1200, maxFps: 30 });
  try {
    await take(video, 2);
    const email = (((await call('mobile_list_elements_on_screen', {})).elements as UiElement[]).find((e) => e.id === 'email'))!;
    assert.is((await call('mobile_click_on_screen_at_coordinates', email.center)).status, 'success');
    let unplugged = false;
    rig.phone.scrcpy.faults.beforeControl = async (type) => {
      if (type !== when || unplugged) return;
      unplugged = true;
      await rig.phone.adbd.close();
    };
    const r = await call('mobile_type_keys', { text });
    assert.ok(unplugged, 'the phone was unplugged during the typing');
    return r;
  } finally {
    await video.close().catch(() => undefined);
  }
}

for (const [what, text, when] of [
  ['a pasted (Unicode) text', 'Grüße 日本', 'setClipboard'],
  ['an ASCII text', 'ada@example.com', 'text'],
] as const) {
  test(`${what} cut by an unplug: DEVICE_NOT_FOUND saying the phone disconnected, not INTERNAL 'control socket closed'`, async ({ rig }) => {
    if (!rig) return;
    const r = await typeCutAt(rig, text, when);
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
    assert.match(String(r.message), /disconnected/);
    assert.match(String(r.message), /may (or may not )?(have been|not have been)/);
    assert.not.match(String(r.message), /control socket closed|cause is unknown/);
  });
}

if (ready) test.run();
