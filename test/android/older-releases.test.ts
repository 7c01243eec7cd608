import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** Phones on releases older than the emulated Android 14, and what they print differently. */
const older = suite<{ rig?: AndroidRig }>('android on older releases');

older.before(async (ctx) => {
  ctx.rig = await startRig();
});
older.after(async (ctx) => {
  await ctx.rig?.stop();
});

type Listed = { apps: { package: string; version: string }[] };
const demoVersion = (listed: Listed) => listed.apps.find((a) => a.package === DEMO_PACKAGE)?.version;

older('Android 7: app versions from dumpsys package (pm has no --show-versioncode there), still one round trip', async ({ rig }) => {
  rig!.phone.shell.quirks.release = { version: '7.1.2', sdk: 25 };
  // An updated system app: the dump's "Hidden system packages" section repeats it with its factory version.
  rig!.phone.shell.quirks.updatedSystemApps.add('com.android.chrome');
  try {
    // A new engine reads the device's release anew.
    const engine = rig!.engineWith({});
    const call = async () => (await engine.call('mobile_list_apps', { device: rig!.phone.serial })) as Listed;
    await call();
    rig!.phone.stats.reset();
    const listed = await call();
    assert.is(demoVersion(listed), '142', JSON.stringify(listed));
    assert.ok(listed.apps.every((a) => /^\d+$/.test(a.version)), `every launcher app has a version: ${JSON.stringify(listed.apps)}`);
    const chrome = listed.apps.find((a) => a.package === 'com.android.chrome');
    if (chrome) assert.is.not(chrome.version, '1', 'the installed update\'s version, not the factory one');
    assert.equal(rig!.phone.stats.opened.length, 1, `one round trip: ${JSON.stringify(rig!.phone.stats.opened)}`);
    assert.match(rig!.phone.stats.opened[0], /; dumpsys package packages$/);
  } finally {
    rig!.phone.shell.quirks.release = undefined;
    rig!.phone.shell.quirks.updatedSystemApps.delete('com.android.chrome');
  }
});

older('Android 8: versions from pm list packages --show-versioncode (the option exists from 8.0)', async ({ rig }) => {
  rig!.phone.shell.quirks.release = { version: '8.1.0', sdk: 27 };
  try {
    const engine = rig!.engineWith({});
    rig!.phone.stats.reset();
    const listed = (await engine.call('mobile_list_apps', { device: rig!.phone.serial })) as Listed;
    assert.is(demoVersion(listed), '142');
    assert.ok(rig!.phone.stats.opened.some((s) => s.endsWith('; pm list packages --show-versioncode')), JSON.stringify(rig!.phone.stats.opened));
  } finally {
    rig!.phone.shell.quirks.release = undefined;
  }
});

older('a device whose pm refuses --show-versioncode though its release says 8+ is read from the dump from then on', async ({ rig }) => {
  // Reported as Android 9 by getprop, answering like Android 7's package manager (a vendor build).
  const engine = rig!.engineWith({});
  await engine.call('mobile_get_screen_size', { device: rig!.phone.serial });
  rig!.phone.shell.quirks.release = { version: '7.1.2', sdk: 25 };
  try {
    rig!.phone.stats.reset();
    assert.is(demoVersion((await engine.call('mobile_list_apps', { device: rig!.phone.serial })) as Listed), '142');
    assert.is(rig!.phone.stats.opened.length, 2, 'the refused option costs one more round trip, once');
    assert.is(rig!.phone.stats.opened[1], 'exec:dumpsys package packages');
    rig!.phone.stats.reset();
    assert.is(demoVersion((await engine.call('mobile_list_apps', { device: rig!.phone.serial })) as Listed), '142');
    assert.is(rig!.phone.stats.opened.length, 1);
  } finally {
    rig!.phone.shell.quirks.release = undefined;
  }
});

type Apps = { apps: { package: string; name: string; version: string; labelUnknown?: boolean }[] };
const launchable = async (rig: AndroidRig) => (await rig.phone.phone.listApps({ signal: new AbortController().signal })).map((a) => a.package).sort();

older('Android 6: no cmd, so launchable apps come from pm list packages and the dumped intent filters; labels said to be unknown; one round trip', async ({ rig }) => {
  rig!.phone.shell.quirks.release = { version: '6.0.1', sdk: 23 };
  // A second launcher activity (a debug build's leak viewer) must not list the app twice.
  rig!.phone.shell.quirks.secondLauncher.set(DEMO_PACKAGE, 'leakcanary.internal.DisplayLeakActivity');
  try {
    assert.match((await rig!.phone.shell.run('cmd package query-activities -a android.intent.action.MAIN')).out.toString(), /^\/system\/bin\/sh: cmd: not found$/m, 'the emulated Android 6 has no cmd');
    const engine = rig!.engineWith({});
    const call = async () => (await engine.call('mobile_list_apps', { device: rig!.phone.serial })) as Apps;
    await call();
    rig!.phone.stats.reset();
    const listed = await call();
    assert.equal(listed.apps.map((a) => a.package), await launchable(rig!), JSON.stringify(listed));
    assert.ok(listed.apps.every((a) => a.labelUnknown === true && a.name === a.package), 'no label is made up');
    assert.is(demoVersion(listed), '142');
    assert.equal(rig!.phone.stats.opened, ['exec:pm list packages -e; echo __mobilebridge__; dumpsys package -f r; echo __mobilebridge__; dumpsys package packages']);
  } finally {
    rig!.phone.shell.quirks.release = undefined;
    rig!.phone.shell.quirks.secondLauncher.delete(DEMO_PACKAGE);
  }
});

older('Android 6: launching resolves the launcher activity from the package\'s own dump (no cmd), then am start alone', async ({ rig }) => {
  rig!.phone.shell.quirks.release = { version: '6.0.1', sdk: 23 };
  try {
    const engine = rig!.engineWith({});
    const launch = async () => (await engine.call('mobile_launch_app', { device: rig!.phone.serial, packageName: DEMO_PACKAGE })) as { status: string; message: string };
    await engine.call('mobile_press_button', { device: rig!.phone.serial, button: 'HOME' });
    rig!.phone.stats.reset();
    const first = await launch();
    assert.is(first.status, 'success', first.message);
    assert.is(rig!.phone.phone.foregroundPackage, DEMO_PACKAGE);
    assert.equal(rig!.phone.stats.opened.filter((s) => !s.includes('dumpsys power')), [
      // The device's first package command reads the current user (Android 6 has no get-current-user), once.
      'exec:am get-current-user 2>&1',
      'exec:dumpsys activity processes',
      `exec:pm path ${DEMO_PACKAGE} && dumpsys package -f ${DEMO_PACKAGE}`,
      `exec:am start -W -n ${DEMO_PACKAGE}/.MainActivity -a android.intent.action.MAIN -c android.intent.category.LAUNCHER`,
    ]);
    rig!.phone.stats.reset();
    assert.is((await launch()).status, 'success');
    assert.is(rig!.phone.stats.opened.length, 1, 'the component is remembered');
  } finally {
    rig!.phone.shell.quirks.release = undefined;
  }
});

older('Android 6: exec: has no terminal, so `uiautomator dump /dev/tty` prints only where it dumped; the tree is dumped to a file and read from it, from then on', async ({ rig }) => {
  rig!.phone.shell.quirks.release = { version: '6.0.1', sdk: 23 };
  try {
    const engine = rig!.engineWith({});
    await engine.call('mobile_launch_app', { device: rig!.phone.serial, packageName: DEMO_PACKAGE });
    rig!.phone.stats.reset();
    const list = async () => (await engine.call('mobile_list_elements_on_screen', { device: rig!.phone.serial })) as { elements?: { text: string }[]; message?: string };
    const first = await list();
    assert.ok(first.elements?.length, JSON.stringify(first).slice(0, 300));
    const dumps = () => rig!.phone.stats.opened.filter((s) => s.includes('uiautomator dump'));
    assert.equal(dumps(), ['exec:uiautomator dump /dev/tty', 'exec:uiautomator dump /data/local/tmp/mobilebridge-window.xml; cat /data/local/tmp/mobilebridge-window.xml; rm -f /data/local/tmp/mobilebridge-window.xml']);
    assert.not.ok(rig!.phone.files.read('/data/local/tmp/mobilebridge-window.xml'), 'no dump left on the phone');
    rig!.phone.stats.reset();
    assert.ok((await list()).elements?.length);
    assert.equal(dumps().length, 1, 'straight to the file the next time');
  } finally {
    rig!.phone.shell.quirks.release = undefined;
  }
});

older('a device without cmd although its release says 7+ is listed from the dump from then on', async ({ rig }) => {
  // The driver read Android 14 from getprop; the phone answers like Android 6 (a vendor build).
  const engine = rig!.engineWith({});
  await engine.call('mobile_get_screen_size', { device: rig!.phone.serial });
  rig!.phone.shell.quirks.release = { version: '6.0.1', sdk: 23 };
  try {
    rig!.phone.stats.reset();
    const first = (await engine.call('mobile_list_apps', { device: rig!.phone.serial })) as Apps;
    assert.equal(first.apps.map((a) => a.package), await launchable(rig!), JSON.stringify(first));
    assert.is(demoVersion(first), '142');
    rig!.phone.stats.reset();
    await engine.call('mobile_list_apps', { device: rig!.phone.serial });
    assert.is(rig!.phone.stats.opened.length, 1, 'the missing cmd and option cost more round trips once');
  } finally {
    rig!.phone.shell.quirks.release = undefined;
  }
});

older('Wi-Fi on Android 7–10 is switched with svc wifi: their cmd wifi has no set-wifi-enabled (7: no shell command at all, exit 0; 8–10: root only)', async ({ rig }) => {
  for (const release of [{ version: '7.1.2', sdk: 25 }, { version: '9', sdk: 28 }]) {
    rig!.phone.shell.quirks.release = release;
    try {
      const engine = rig!.engineWith({});
      await rig!.phone.phone.setWifi(true, { signal: AbortSignal.timeout(5_000) });
      rig!.phone.stats.reset();
      const r = (await engine.call('mobile_set_wifi', { device: rig!.phone.serial, enabled: false })) as { status?: string };
      assert.is(r.status, 'success', `Android ${release.version}: ${JSON.stringify(r)}`);
      assert.is(rig!.phone.phone.wifi, false, `Android ${release.version}: Wi-Fi switched off`);
      assert.ok(rig!.phone.stats.opened.some((s) => /^exec:svc wifi disable$|^shell:svc wifi disable$/.test(s)), JSON.stringify(rig!.phone.stats.opened));
    } finally {
      rig!.phone.shell.quirks.release = undefined;
      await rig!.phone.phone.setWifi(true, { signal: AbortSignal.timeout(5_000) });
    }
  }
});

if (hasAdb()) older.run();
