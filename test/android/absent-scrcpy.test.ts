import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { hasFfmpeg, openFails, slowInputServices } from './scrcpy-support.js';
import { hasAdb, startRig } from './setup.js';

/**
 * A device that cannot run scrcpy-server (no app_process: a device emulation, a stripped build): live
 * video is refused saying why, and everything scrcpy would carry goes through the shell instead.
 */
test('without app_process: video is refused naming the cause, taps go through input, and text only scrcpy could paste says why it cannot', async () => {
  const rig = await startRig();
  rig.phone.shell.quirks.absent.add('app_process');
  try {
    assert.match(await openFails(rig, rig.engine), /scrcpy-server 3\.3\.1 on \S+ exited before accepting a connection: \/system\/bin\/sh: app_process: inaccessible or not found/);
    await rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
    const tap = await rig.call('mobile_click_on_screen_at_coordinates', { x: 540, y: 1200 });
    assert.is(tap.status, 'success', JSON.stringify(tap));
    assert.ok(slowInputServices(rig.phone.stats.opened).length > 0, 'the tap went through input or monkey');
    // Text the input command has no keys for is pasted by scrcpy or the UiAutomator2 server, neither of which runs here.
    const typed = await rig.call('mobile_type_keys', { text: 'héllo', submit: false });
    assert.is(typed.code, 'UNSUPPORTED', JSON.stringify(typed));
    assert.match(String(typed.message), /cannot type non-ASCII text .* app_process: inaccessible or not found/);
  } finally {
    await rig.stop();
  }
});

if (hasAdb() && hasFfmpeg()) test.run();
