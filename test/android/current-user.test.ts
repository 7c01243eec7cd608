import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCurrentUser, parseUserLru } from '../../src/engine/drivers/android/current-user.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { writeApk } from '../harness/apk-builder.js';
import { startRig, type AndroidRig } from './setup.js';

/** A shared tablet switched to user 10: pm acts on user 0 unless told, `am start` and the launcher on the current user. */
const users = suite<{ rig?: AndroidRig; tmp?: string }>('android current user other than the owner');

users.before(async (ctx) => {
  ctx.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-android-users-'));
  ctx.rig = await startRig();
});
users.after(async (ctx) => {
  await ctx.rig?.stop();
  if (ctx.tmp) fs.rmSync(ctx.tmp, { recursive: true, force: true });
});
users.after.each(async ({ rig }) => {
  const quirks = rig!.phone.shell.quirks;
  quirks.currentUser = 0;
  quirks.userInstalls.clear();
  quirks.release = undefined;
  for (const app of rig!.phone.phone.installedApps) {
    if (app.package.startsWith('com.example.')) await rig!.phone.shell.run(`pm uninstall ${app.package}`);
  }
});

const shell = async (rig: AndroidRig, line: string) => {
  const r = await rig.phone.shell.run(line);
  return { out: r.out.toString(), code: r.code };
};

/** A fresh engine, so its device handle reads the phone (its release and user) anew, as after a replug. */
function onUser(rig: AndroidRig, user: number) {
  rig.phone.shell.quirks.currentUser = user;
  const engine = rig.engineWith({});
  return async (tool: string, params: object = {}) => (await engine.call(tool, { device: rig.phone.serial, ...params })) as Record<string, unknown>;
}

type Apps = { apps: { package: string; version: string }[] };

users('user 10: its own app is listed with its version, launched, stopped, cleared and uninstalled; an app of user 0 alone is not installed', async ({ rig, tmp }) => {
  const call = onUser(rig!, 10);
  assert.is((await call('mobile_install_app', { path: writeApk(tmp!, { package: 'com.example.ten', label: 'Ten', versionName: '3.1' }) })).status, 'success');
  rig!.phone.shell.quirks.userInstalls.set('com.example.ten', new Set([10]));
  rig!.phone.shell.quirks.userInstalls.set(DEMO_PACKAGE, new Set([0]));

  const listed = (await call('mobile_list_apps')) as unknown as Apps;
  assert.is(listed.apps.find((a) => a.package === 'com.example.ten')?.version, '31', JSON.stringify(listed));
  assert.not.ok(listed.apps.some((a) => a.package === DEMO_PACKAGE), 'the launcher of user 10 does not show an app of user 0');

  assert.is((await call('mobile_launch_app', { packageName: 'com.example.ten' })).status, 'success');
  assert.equal(await call('mobile_get_foreground_app'), { package: 'com.example.ten' });
  assert.is((await call('mobile_terminate_app', { packageName: 'com.example.ten' })).status, 'success');
  assert.is((await call('mobile_clear_app_data', { packageName: 'com.example.ten' })).status, 'success');

  const demo = await call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  assert.is(demo.code, 'APP_NOT_INSTALLED', JSON.stringify(demo));
  assert.match(String(demo.message), /for user 10/);
  assert.is((await call('mobile_clear_app_data', { packageName: DEMO_PACKAGE })).code, 'APP_NOT_INSTALLED');

  assert.is((await call('mobile_uninstall_app', { bundle_id: 'com.example.ten' })).status, 'success');
  assert.not.ok(rig!.phone.phone.installedApps.some((a) => a.package === 'com.example.ten'), 'the app of user 10 alone is gone');
  assert.is((await shell(rig!, `pm path ${DEMO_PACKAGE}`)).code, 0, 'user 0 keeps its app');
});

users('user 10: uninstalling an app both users have removes only user 10\'s copy', async ({ rig, tmp }) => {
  const call = onUser(rig!, 10);
  assert.is((await call('mobile_install_app', { path: writeApk(tmp!, { package: 'com.example.both', label: 'Both', versionName: '1' }) })).status, 'success');
  const removed = await call('mobile_uninstall_app', { bundle_id: 'com.example.both' });
  assert.is(removed.status, 'success', JSON.stringify(removed));
  assert.match((await shell(rig!, 'pm path com.example.both')).out, /^package:/, 'the owner keeps it');
  assert.is((await shell(rig!, 'pm path --user 10 com.example.both')).code, 1);
  assert.is((await call('mobile_launch_app', { packageName: 'com.example.both' })).code, 'APP_NOT_INSTALLED');
});

users('user 0: no command carries --user, and the user is read in the listing\'s own round trip', async ({ rig }) => {
  const call = onUser(rig!, 0);
  rig!.phone.stats.reset();
  await call('mobile_list_apps');
  assert.is(rig!.phone.stats.opened.filter((s) => s !== 'exec:getprop').length, 1, JSON.stringify(rig!.phone.stats.opened));
  assert.is((await call('mobile_launch_app', { packageName: DEMO_PACKAGE })).status, 'success');
  assert.is((await call('mobile_clear_app_data', { packageName: DEMO_PACKAGE })).status, 'success');
  assert.not.ok(rig!.phone.stats.opened.some((s) => s.includes('--user')), JSON.stringify(rig!.phone.stats.opened));
  assert.is(rig!.phone.stats.opened.filter((s) => s.includes('get-current-user')).length, 1, 'read once');
});

users('Android 6 (no am get-current-user): the user is read from the activity manager\'s mUserLru', async ({ rig, tmp }) => {
  const call = onUser(rig!, 10);
  assert.is((await call('mobile_install_app', { path: writeApk(tmp!, { package: 'com.example.six', label: 'Six', versionName: '1' }) })).status, 'success');
  rig!.phone.shell.quirks.userInstalls.set('com.example.six', new Set([10]));
  rig!.phone.shell.quirks.release = { version: '6.0.1', sdk: 23 };
  const old = onUser(rig!, 10);
  rig!.phone.stats.reset();
  const listed = (await old('mobile_list_apps')) as unknown as Apps;
  assert.ok(listed.apps.some((a) => a.package === 'com.example.six'), JSON.stringify(listed));
  assert.ok(rig!.phone.stats.opened.includes('exec:dumpsys activity processes'), JSON.stringify(rig!.phone.stats.opened));
  assert.is((await old('mobile_clear_app_data', { packageName: 'com.example.six' })).status, 'success');
});

users('emulated pm and am follow AOSP for users: defaults, --user, and a user that does not exist', async ({ rig }) => {
  rig!.phone.shell.quirks.currentUser = 10;
  rig!.phone.shell.quirks.userInstalls.set(DEMO_PACKAGE, new Set([10]));
  assert.equal(await shell(rig!, 'am get-current-user'), { out: '10\n', code: 0 });
  assert.equal(await shell(rig!, `pm path ${DEMO_PACKAGE}`), { out: '', code: 1 }, 'pm path asks user 0');
  assert.match((await shell(rig!, `pm path --user 10 ${DEMO_PACKAGE}`)).out, /^package:/);
  assert.equal(await shell(rig!, `pm path --user 99 ${DEMO_PACKAGE}`), { out: '', code: 1 });
  assert.not.match((await shell(rig!, 'pm list packages')).out, new RegExp(DEMO_PACKAGE));
  assert.match((await shell(rig!, 'pm list packages --user 10')).out, new RegExp(`package:${DEMO_PACKAGE}`));
  assert.is((await shell(rig!, 'pm list packages --user 99')).out, '');
  assert.equal(await shell(rig!, `pm uninstall --user 99 ${DEMO_PACKAGE}`), { out: 'Failure [not installed for 99]\n', code: 1 });
  assert.equal(await shell(rig!, `pm clear --user 99 ${DEMO_PACKAGE}`), { out: 'Failed\n', code: 1 });
  assert.match((await shell(rig!, 'dumpsys activity processes')).out, /^ {2}mUserLru: \[0, 10\]$/m);
  rig!.phone.shell.quirks.release = { version: '6.0.1', sdk: 23 };
  assert.match((await shell(rig!, 'am get-current-user')).out, /Error: unknown command 'get-current-user'/);
});

users('parsing: am get-current-user\'s id, and the last of mUserLru', () => {
  assert.is(parseCurrentUser('10\n'), 10);
  assert.is(parseCurrentUser('0\n'), 0);
  assert.is(parseCurrentUser("usage: am [subcommand]\n\nError: unknown command 'get-current-user'\n"), undefined);
  assert.is(parseUserLru('  mStartedUserArray: [0, 10]\n  mUserLru: [10, 0]\n'), 0);
  assert.is(parseUserLru('  mUserLru: [0, 11]\n'), 11);
  assert.is(parseUserLru('no users here'), undefined);
});

users.run();
