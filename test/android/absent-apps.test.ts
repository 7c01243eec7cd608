import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** Apps on a device that lacks commands a phone has (a vendor build, a device emulation): the driver falls back, and says what it could not confirm. */

async function withRig(absent: string[], work: (rig: AndroidRig) => Promise<void>): Promise<void> {
  const rig = await startRig();
  for (const a of absent) rig.phone.shell.quirks.absent.add(a);
  try {
    await work(rig);
  } finally {
    await rig.stop();
  }
}

test('without dumpsys activity the app in front is read from the window manager\'s focus, before and from Android 10', async () => {
  for (const release of [undefined, { version: '9', sdk: 28 }]) {
    await withRig(['dumpsys activity'], async (rig) => {
      rig.phone.shell.quirks.release = release;
      await rig.phone.shell.phone.launchApp('com.android.settings', { signal: AbortSignal.timeout(5_000) });
      assert.equal(await rig.call('mobile_get_foreground_app'), { package: 'com.android.settings' });
    });
  }
});

test('without dumpsys activity and dumpsys window it comes from the uiautomator dump; with neither the answer says it cannot tell', async () => {
  await withRig(['dumpsys activity', 'dumpsys window'], async (rig) => {
    await rig.phone.shell.phone.launchApp('com.android.settings', { signal: AbortSignal.timeout(5_000) });
    assert.equal(await rig.call('mobile_get_foreground_app'), { package: 'com.android.settings' });
    rig.phone.shell.quirks.screenOff = true;
    assert.match(String((await rig.call('mobile_get_foreground_app')).message), /^no window is shown \(uiautomator found no root node\) on .*the screen may be off/);
    rig.phone.shell.quirks.screenOff = false;
    rig.phone.shell.quirks.absent.add('uiautomator');
    const r = await rig.call('mobile_get_foreground_app');
    assert.is(r.code, 'INTERNAL');
    assert.match(String(r.message), /cannot say which app is in front/);
    assert.not.match(String(r.message), /locked/);
  });
});

test('the window manager\'s lock screen focus is no app in front', async () => {
  await withRig(['dumpsys activity'], async (rig) => {
    rig.phone.shell.quirks.locked = true;
    const r = await rig.call('mobile_get_foreground_app');
    assert.is(r.code, 'INTERNAL');
    assert.match(String(r.message), /^no app in front \(the system's NotificationShade window has the focus: the lock screen or the notification shade\) on .*the screen may be off or locked/);
  });
});

test('an am that does not wait for the first frame: a launch and a link nothing can confirm succeed and say so; one that evidence says failed is an error', async () => {
  await withRig(['dumpsys activity', 'dumpsys window', 'uiautomator'], async (rig) => {
    rig.phone.shell.quirks.startIgnoresWait = true;
    const launched = await rig.call('mobile_launch_app', { packageName: 'com.android.settings' });
    assert.is(launched.status, 'success', JSON.stringify(launched));
    assert.match(String(launched.message), /not confirmed: am start returned without waiting for its first frame .*has nothing that names the app in front; look at the screen/);
    const opened = await rig.call('mobile_open_url', { url: 'https://example.com/a' });
    assert.is(opened.status, 'success', JSON.stringify(opened));
    assert.match(String(opened.message), /not confirmed: am start returned without waiting/);
  });
  await withRig(['dumpsys activity'], async (rig) => {
    rig.phone.shell.quirks.startIgnoresWait = true;
    rig.phone.shell.quirks.appStart.set('com.android.settings', 'crash');
    const r = await rig.call('mobile_launch_app', { packageName: 'com.android.settings' });
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(String(r.message), /did not finish starting .* is in front now/);
  });
});

if (hasAdb()) test.run();
