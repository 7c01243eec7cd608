import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hasAdb, startRig } from './setup.js';

/**
 * A phone that stops answering one command (a frozen uiautomator, a stuck USB link) ends the call at
 * its deadline; the TIMEOUT says what the phone had not finished, not only that the tool did not.
 */
test('a command the phone never answers: TIMEOUT at the deadline naming what it had not finished, and the next call works', async () => {
  if (!hasAdb()) return;
  const rig = await startRig();
  try {
    const engine = rig.engineWith({ uiServer: 'off' }, 1500);
    const call = async (tool: string, params: object = {}) => (await engine.call(tool, { device: rig.phone.serial, ...params })) as { status?: string; code?: string; message?: string };
    assert.is((await call('mobile_get_screen_size')).status, undefined);
    rig.phone.adbd.faults = { unanswered: /uiautomator/ };
    const r = await call('mobile_list_elements_on_screen');
    assert.is(r.code, 'TIMEOUT', JSON.stringify(r));
    assert.match(r.message ?? '', new RegExp(`^mobile_list_elements_on_screen on ${rig.phone.serial} did not finish within 1500 ms; ${rig.phone.serial} had not finished listing elements by then \\(a phone that stays this slow may be hung`));
    rig.phone.adbd.faults = {};
    assert.is((await call('mobile_click_on_screen_at_coordinates', { x: 10, y: 10 })).status, 'success');
  } finally {
    await rig.stop();
  }
});

test.run();
