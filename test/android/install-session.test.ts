import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/index.js';
import { ToolError } from '../../src/engine/errors.js';
import { connectBridge } from '../../src/protocol/node.js';
import { writeApk } from '../harness/apk-builder.js';
import { hasAdb, startRig, until, type AndroidRig } from './setup.js';

/** mobile_install_app on Android through a package-installer session, and how it is stopped. */
const installs = suite<{ rig?: AndroidRig; tmp?: string }>('android install sessions');

installs.before(async (ctx) => {
  ctx.tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-android-install-'));
  ctx.rig = await startRig();
});
installs.after(async (ctx) => {
  await ctx.rig?.stop();
  if (ctx.tmp) fs.rmSync(ctx.tmp, { recursive: true, force: true });
});
installs.after.each(({ rig }) => {
  rig!.phone.shell.quirks.installConfirmation = false;
  rig!.phone.shell.quirks.installFailure = undefined;
  rig!.phone.shell.quirks.installRestricted = undefined;
  rig!.phone.shell.quirks.release = undefined;
});

/** Nothing of an install left on the phone: no session open, no APK copy in the folders adb clients push to. */
function assertNothingLeft(rig: AndroidRig): void {
  assert.equal([...rig.phone.shell.installSessions.open.keys()], [], 'no install session left open');
  assert.equal(rig.phone.files.list('/data/local/tmp'), [], 'no APK copy left in /data/local/tmp');
}

/** Installs through the driver with its own deadline and signal, as the engine gives a call. */
function installWith(rig: AndroidRig, apk: string, timeoutMs: number, cancel?: AbortSignal): Promise<unknown> {
  return rig.engine.withDevice(rig.phone.serial, 'installing', (device, ctx) => device.installApp(apk, cancel ? { ...ctx, signal: AbortSignal.any([ctx.signal, cancel]) } : ctx), timeoutMs);
}

installs('the device lost while the APK streams: DEVICE_NOT_FOUND, not the installer blamed for "no answer"', async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.cut', label: 'Cut', versionName: '1' });
  rig!.phone.adbd.faults.cut = /pm install-write/;
  try {
    const r = await rig!.call('mobile_install_app', { path: apk });
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
  } finally {
    rig!.phone.adbd.faults.cut = undefined;
  }
  await rig!.server.disconnect(rig!.phone.serial);
  await rig!.server.connect(rig!.phone.serial);
  // The session the lost install had created stays on the phone (its abandon could not reach it either), as on a real one.
  for (const id of rig!.phone.shell.installSessions.open.keys()) await rig!.server.adb(['-s', rig!.phone.serial, 'shell', `pm install-abandon ${id}`]);
  assertNothingLeft(rig!);
});

installs('streams the APK into a session and commits it: installed and listed, nothing pushed, nothing left', async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.session', label: 'Session App', versionName: '2.1' });
  rig!.phone.stats.reset();
  const r = await rig!.call('mobile_install_app', { path: apk });
  assert.is(r.status, 'success', JSON.stringify(r));
  const { apps } = (await rig!.call('mobile_list_apps')) as { apps: { package: string; name: string }[] };
  assert.ok(apps.some((a) => a.package === 'com.example.session' && a.name === 'Session App'), JSON.stringify(apps));
  const opened = rig!.phone.stats.opened;
  const size = fs.statSync(apk).size;
  assert.ok(opened.some((s) => s === `exec:pm install-create -r -S ${size}`), opened.join('\n'));
  assert.ok(opened.some((s) => new RegExp(`^exec:pm install-write -S ${size} \\d+ base\\.apk -$`).test(s)), opened.join('\n'));
  assert.ok(opened.some((s) => /^exec:pm install-commit \d+$/.test(s)), opened.join('\n'));
  assert.not.ok(opened.includes('sync:'), 'nothing pushed');
  assertNothingLeft(rig!);
});

installs('a refusal at commit keeps its code and message, and the session is gone', async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.older', label: 'Older' });
  rig!.phone.shell.quirks.installFailure = 'INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code 1 is older than current 3';
  const r = await rig!.call('mobile_install_app', { path: apk });
  assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
  assert.match(String(r.message), 'older than the installed version');
  assert.match(String(r.message), 'INSTALL_FAILED_VERSION_DOWNGRADE');
  assertNothingLeft(rig!);
});

installs('a device policy forbidding installs (no_install_apps): PERMISSION_DENIED saying so, on each release\'s wording of the refused session, not INTERNAL with a stack trace', async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.managed', label: 'Managed' });
  rig!.phone.shell.quirks.installRestricted = true;
  for (const release of [undefined, { version: '9', sdk: 28 }, { version: '7.1.2', sdk: 25 }]) {
    rig!.phone.shell.quirks.release = release;
    const r = await rig!.call('mobile_install_app', { path: apk });
    assert.is(r.code, 'PERMISSION_DENIED', `${release?.version ?? 'default'}: ${JSON.stringify(r)}`);
    assert.match(String(r.message), /a device policy sets the user restriction no_install_apps/);
    assert.not.match(String(r.message), /\tat com\.android/);
    assert.not.ok(rig!.phone.phone.installedApps.some((a) => a.package === 'com.example.managed'));
    assertNothingLeft(rig!);
  }
});

installs('a commit waiting for a confirmation nobody gives: TIMEOUT before the deadline, the session abandoned on the phone', async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.waiting', label: 'Waiting' });
  rig!.phone.shell.quirks.installConfirmation = true;
  rig!.phone.stats.reset();
  const err = await installWith(rig!, apk, 2_000).then(() => undefined, (e: unknown) => e);
  assert.instance(err, ToolError);
  const e = err as ToolError;
  assert.is(e.code, 'TIMEOUT', e.message);
  assert.match(e.message, /install session \d+ was abandoned on the phone \(pm install-abandon\), so nothing was installed/);
  assert.not.match(e.message, 'may still finish');
  assert.ok(rig!.phone.stats.opened.some((s) => /^exec:pm install-abandon \d+$/.test(s)), rig!.phone.stats.opened.join('\n'));
  assertNothingLeft(rig!);
  assert.not.ok(rig!.phone.phone.installedApps.some((a) => a.package === 'com.example.waiting'), 'not installed');
});

installs("the caller's cancel while the commit waits: the session is abandoned the same way", async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.cancelled', label: 'Cancelled' });
  rig!.phone.shell.quirks.installConfirmation = true;
  rig!.phone.stats.reset();
  const cancel = new AbortController();
  const installing = installWith(rig!, apk, 60_000, cancel.signal).then(() => undefined, (e: unknown) => e);
  await until(() => rig!.phone.stats.opened.some((s) => s.includes('install-commit')), 'the commit to wait on the phone');
  cancel.abort();
  const e = (await installing) as ToolError;
  assert.instance(e, ToolError);
  assert.match(e.message, /was stopped .*; install session \d+ was abandoned on the phone/);
  assertNothingLeft(rig!);
});

installs('an abandon the phone never answers: the stopped install still settles, and closing the device does not wait on it', async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.wedged', label: 'Wedged' });
  rig!.phone.shell.quirks.installConfirmation = true;
  rig!.phone.stats.reset();
  const engine = rig!.engineWith({});
  const cancel = new AbortController();
  const installing = engine
    .withDevice(rig!.phone.serial, 'installing', (device, ctx) => device.installApp(apk, { ...ctx, signal: AbortSignal.any([ctx.signal, cancel.signal]) }), 10_000)
    .then(() => undefined, (e: unknown) => e as Error);
  try {
    await until(() => rig!.phone.stats.opened.some((s) => s.includes('install-commit')), 'the commit to wait on the phone');
    // A wedged adbd: the abandon's OPEN gets no answer, so the adb server keeps our request waiting for its OKAY.
    rig!.phone.adbd.faults.unanswered = /^exec:pm install-abandon/;
    cancel.abort();
    const hung = (what: string) => new Promise<string>((resolve) => setTimeout(() => resolve(`${what} still waiting after 8 s`), 8_000).unref());
    const e = await Promise.race([installing, hung('the install')]);
    assert.instance(e, ToolError, String(e));
    assert.match((e as ToolError).message, /install session \d+ could not be abandoned/);
    assert.ok(rig!.phone.stats.opened.some((s) => /^exec:pm install-abandon \d+$/.test(s)), 'the abandon was asked for');
    assert.is(await Promise.race([engine.close().then(() => 'closed'), hung('closing the device')]), 'closed');
  } finally {
    rig!.phone.adbd.faults.unanswered = undefined;
    // The session the phone still holds.
    for (const id of [...rig!.phone.shell.installSessions.open.keys()]) await rig!.phone.shell.run(`pm install-abandon ${id}`);
  }
});

installs('requests.cancel on a tools.call install over the bridge: answered at once with the abandoned session, the phone free for the next call', async ({ rig, tmp }) => {
  const apk = writeApk(tmp!, { package: 'com.example.bridgecancel', label: 'Bridge Cancel' });
  rig!.phone.shell.quirks.installConfirmation = true;
  rig!.phone.stats.reset();
  const bridge = await startBridge({ engine: rig!.engine, host: '127.0.0.1', port: 0, webRoot: '/nonexistent-mobilebridge-web', log: () => undefined });
  const client = await connectBridge(bridge.wsUrl);
  try {
    const cancel = new AbortController();
    const answer = client.requestRaw('tools.call', { tool: 'mobile_install_app', parameters: { device: rig!.phone.serial, path: apk } }, cancel.signal);
    await until(() => rig!.phone.stats.opened.some((s) => s.includes('install-commit')), 'the commit to wait on the phone');
    cancel.abort();
    const r = (await answer) as { code?: string; message?: string; may_have_run?: boolean };
    assert.is(r.code, 'INTERNAL', JSON.stringify(r));
    assert.match(String(r.message), /was stopped \(cancelled by its caller\); install session \d+ was abandoned on the phone/);
    assert.is(r.may_have_run, undefined, 'the session was abandoned: nothing was installed');
    assertNothingLeft(rig!);
    rig!.phone.shell.quirks.installConfirmation = false;
    const next = (await client.requestRaw('tools.call', { tool: 'mobile_list_apps', parameters: { device: rig!.phone.serial } })) as { apps?: { package: string }[] };
    assert.ok(next.apps, JSON.stringify(next));
    assert.not.ok(next.apps!.some((a) => a.package === 'com.example.bridgecancel'), 'not installed');
  } finally {
    await client.close();
    await bridge.close();
  }
});

installs('the emulated package manager: a missing session and a stdin write without its size fail as AOSP prints them', async ({ rig }) => {
  const shell = rig!.phone.shell;
  const missing = await shell.run('pm install-commit 42');
  assert.is(missing.code, 255);
  assert.match(String(missing.out), /^\nException occurred while executing 'install-commit':\njava\.lang\.SecurityException: Caller has no access to session 42\n/);
  const created = String((await shell.run('pm install-create -r -S 10')).out);
  const id = /\[(\d+)\]/.exec(created)![1];
  const unsized = await shell.run(`pm install-write ${id} base.apk -`);
  assert.is(unsized.code, 1);
  assert.is(String(unsized.out), 'Error: must specify a APK size\n');
  assert.is(String((await shell.run(`pm install-abandon ${id}`)).out), 'Success\n');
  assert.is((await shell.run(`pm install-abandon ${id}`)).code, 255, 'abandoned twice: the session no longer exists');
  assertNothingLeft(rig!);
});

if (hasAdb()) installs.run();
