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

if (hasAdb()) older.run();
