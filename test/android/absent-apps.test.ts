import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseQueriedActivities } from '../../src/engine/drivers/android/shell-output.js';
import { writeApk } from '../harness/apk-builder.js';
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

test('a device that names no launcher activity starts the app with monkey, from then on at once; monkey\'s refusal and its absence are said', async () => {
  await withRig(['cmd package resolve-activity', 'cmd package query-activities'], async (rig) => {
    const first = await rig.call('mobile_launch_app', { packageName: 'com.android.settings' });
    assert.is(first.status, 'success', JSON.stringify(first));
    assert.match(String(first.message), /it is in front, but monkey started it without waiting for its first frame/);
    const before = rig.phone.stats.opened.length;
    await rig.phone.shell.phone.launchApp('com.google.android.apps.nexuslauncher', { signal: AbortSignal.timeout(5_000) });
    assert.is((await rig.call('mobile_launch_app', { packageName: 'com.android.settings' })).status, 'success');
    const again = rig.phone.stats.opened.slice(before).filter((c) => !/dumpsys|echo/.test(c));
    assert.equal(again, ['exec:pm path com.android.settings && monkey -p com.android.settings -c android.intent.category.LAUNCHER 1'], again.join('\n'));
    rig.phone.shell.quirks.disabledApps.add('com.android.settings');
    const disabled = await rig.call('mobile_launch_app', { packageName: 'com.android.settings' });
    assert.is(disabled.code, 'INVALID_PARAMETER', JSON.stringify(disabled));
    assert.match(String(disabled.message), /is installed on .* but disabled/);
  });
  await withRig(['cmd package', 'monkey'], async (rig) => {
    const r = await rig.call('mobile_launch_app', { packageName: 'com.android.settings' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(String(r.message), /queries for launcher activities gave no answer and `monkey -p` did not start one \(it answered "\/system\/bin\/sh: monkey: inaccessible or not found"\)/);
  });
});

test('query-activities in its full form (a shell that ignores --brief --components) still names the launcher activity', () => {
  const full = 'Activity #0:\n  priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n  ActivityInfo:\n    name=com.example.Main\n    packageName=com.example\n    ApplicationInfo:\n      name=com.example.App\n      packageName=com.example\nActivity #1:\n  ActivityInfo:\n    name=org.other.Home\n    packageName=org.other\n';
  assert.equal(parseQueriedActivities(full, 'com.example'), ['com.example/com.example.Main']);
});

test('without install sessions the APK is pushed and installed with pm install, as adb does, and no copy is left; a refusal keeps its code', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-absent-install-'));
  try {
    await withRig(['pm install-create', 'cmd package install-create'], async (rig) => {
      const r = await rig.call('mobile_install_app', { path: writeApk(tmp, { package: 'com.example.pushed', label: 'Pushed', versionName: '1' }) });
      assert.is(r.status, 'success', JSON.stringify(r));
      assert.ok(rig.phone.shell.phone.installedApps.some((a) => a.package === 'com.example.pushed'));
      assert.equal(rig.phone.files.list('/data/local/tmp'), [], 'no APK copy left in /data/local/tmp');
      rig.phone.shell.quirks.installFailure = 'INSTALL_FAILED_INSUFFICIENT_STORAGE';
      const refused = await rig.call('mobile_install_app', { path: writeApk(tmp, { package: 'com.example.full', label: 'Full', versionName: '1' }) });
      assert.is(refused.code, 'UNSUPPORTED', JSON.stringify(refused));
      assert.match(String(refused.message), /INSUFFICIENT_STORAGE/);
      assert.equal(rig.phone.files.list('/data/local/tmp'), []);
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('listing apps where query-activities gives no answer reads the intent filters; with neither, it says so instead of an empty list', async () => {
  await withRig(['cmd package query-activities'], async (rig) => {
    const { apps } = (await rig.call('mobile_list_apps')) as { apps: { package: string; labelUnknown?: boolean }[] };
    assert.ok(apps.some((a) => a.package === 'com.android.settings' && a.labelUnknown), JSON.stringify(apps));
  });
  await withRig(['cmd package', 'dumpsys package'], async (rig) => {
    const r = await rig.call('mobile_list_apps');
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(String(r.message), /cannot tell which apps are launchable: neither `cmd package query-activities` nor `dumpsys package -f r` answered \(Can't find service: package\)/);
  });
});

test('a device without input (nor monkey): taps, long presses, buttons and typing say nothing happened instead of success', async () => {
  await withRig(['input', 'monkey'], async (rig) => {
    const calls: [string, object][] = [
      ['mobile_click_on_screen_at_coordinates', { x: 100, y: 100 }],
      ['mobile_long_press_on_screen_at_coordinates', { x: 100, y: 100 }],
      ['mobile_press_button', { button: 'HOME' }],
      ['mobile_type_keys', { text: 'hello', submit: false }],
    ];
    for (const [tool, params] of calls) {
      const r = await rig.call(tool, params);
      assert.is(r.code, 'UNSUPPORTED', `${tool}: ${JSON.stringify(r)}`);
      assert.match(String(r.message), /input: inaccessible or not found/, tool);
    }
  });
});

test('terminating where am has no force-stop says it did not stop the app', async () => {
  await withRig(['am'], async (rig) => {
    const r = await rig.call('mobile_terminate_app', { packageName: 'com.android.settings' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(String(r.message), /did not stop com\.android\.settings: `am force-stop` answered "\/system\/bin\/sh: am: inaccessible or not found"/);
  });
});

test('clearing app data on a device without pm clear is UNSUPPORTED, naming the way that works', async () => {
  await withRig(['pm clear'], async (rig) => {
    const r = await rig.call('mobile_clear_app_data', { packageName: 'com.android.settings' });
    assert.is(r.code, 'UNSUPPORTED', JSON.stringify(r));
    assert.match(String(r.message), /has no `pm clear` \(Unknown command: clear\); uninstall and reinstall/);
  });
});

test('an am that does not know -W: the launch and the link are started without it, and the app in front decides', async () => {
  await withRig([], async (rig) => {
    rig.phone.shell.quirks.startRefusesWait = true;
    const launched = await rig.call('mobile_launch_app', { packageName: 'com.android.settings' });
    assert.is(launched.status, 'success', JSON.stringify(launched));
    assert.match(String(launched.message), /it is in front, but am start returned without waiting for its first frame/);
    const opened = await rig.call('mobile_open_url', { url: 'https://example.com/b' });
    assert.is(opened.status, 'success', JSON.stringify(opened));
    assert.match(String(opened.message), /com\.android\.chrome is in front, but am start returned without waiting/);
  });
});

if (hasAdb()) test.run();
