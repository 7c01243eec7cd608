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

if (hasAdb()) test.run();
