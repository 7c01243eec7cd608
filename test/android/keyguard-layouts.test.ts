import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ToolError } from '../../src/engine/errors.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { LOCK_SETTINGS_COMMAND, parseCredential, parseScreenState, SCREEN_STATE_COMMAND, ScreenGuard, WAKE_COMMAND } from '../../src/engine/drivers/android/screen-state.js';
import { lockSettingsDump, windowPolicyDump } from '../harness/adbd/keyguard-dump.js';
import { noQuirks, type PhoneQuirks } from '../harness/adbd/phone-quirks.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/**
 * The lock screen on releases whose KeyguardServiceDelegate prints KeyguardReportedState: no
 * "secure=" line, "trusted=" in place of KeyguardStateMonitor's mTrusted (test/harness/adbd/keyguard-dump.ts).
 * A PIN lock there used to be taken for a swipe lock: `wm dismiss-keyguard` popped the PIN pad up and
 * the refusal did not say "with a PIN, pattern or password"; a trust agent was never seen.
 */
const ANDROID_16 = { version: '16', sdk: 36 };
const AWAKE = 'POWER MANAGER (dumpsys power)\n  mWakefulness=Awake\n';

/** What SCREEN_STATE_COMMAND prints on the emulated phone with these quirks. */
function screenOutput(quirks: Partial<PhoneQuirks>, major = 16): string {
  return `${AWAKE}__mb_state__\n${windowPolicyDump({ ...noQuirks(), ...quirks }, major)}`;
}

const layouts = suite('android keyguard layouts: parsing');

layouts('KeyguardReportedState: a lock without a secure= line is of unknown kind until lock_settings says; trusted= and simSecure= settle it', () => {
  assert.equal(parseScreenState(screenOutput({ locked: true, secureLock: true })), { awake: true, locked: true, secure: undefined, trusted: false, user: 0 });
  assert.equal(parseScreenState(screenOutput({ locked: true, secureLock: true, lockTrusted: true })), { awake: true, locked: true, secure: true, trusted: true });
  const simLocked = screenOutput({ locked: true }).replace('simSecure=false', 'simSecure=true');
  assert.is(parseScreenState(simLocked)?.secure, true, 'a SIM PIN is secure too (the delegate isSecure counts simSecure)');
  assert.equal(parseScreenState(screenOutput({ locked: true, lockOccluded: true, secureLock: true })), { awake: true, locked: false, secure: undefined, trusted: false, user: 0 });
  assert.equal(parseScreenState(screenOutput({})), { awake: true, locked: false, secure: undefined, trusted: false, user: 0 });
  // The later variant of the same layout names the user "userId=".
  assert.is(parseScreenState(screenOutput({ locked: true }).replace('currentUser=0', 'userId=10'))?.user, 10);
  // The older layout keeps its answers (and its shape).
  assert.equal(parseScreenState(screenOutput({ locked: true, secureLock: true, lockTrusted: true }, 15)), { awake: true, locked: true, secure: true, trusted: true });
  assert.equal(parseScreenState(screenOutput({ locked: true }, 15)), { awake: true, locked: true, secure: false, trusted: false });
  // The delegate's showing= is a cache refreshed only when something asks isShowing(); KeyguardStateMonitor's
  // mIsShowing follows SystemUI: after an unlock the cache may still say showing=true.
  const staleCache = screenOutput({}, 15).replace('      showing=false', '      showing=true');
  assert.is(parseScreenState(staleCache)?.locked, false);
  const staleOpen = screenOutput({ locked: true }, 15).replace('      showing=true', '      showing=false');
  assert.is(parseScreenState(staleOpen)?.locked, true);
});

layouts('dumpsys lock_settings: the current user\'s CredentialType, not another user\'s; nothing said is not "no PIN"', () => {
  assert.is(parseCredential(lockSettingsDump({ ...noQuirks(), secureLock: true }), 0), true);
  assert.is(parseCredential(lockSettingsDump(noQuirks()), 0), false);
  // A work profile with its own password (SeparateChallenge) under a swipe-locked owner.
  const profile = '  User 10\n    Quality: 262144\n    CredentialType: PASSWORD\n    SeparateChallenge: true\n    Metrics: unknown\n';
  const two = lockSettingsDump(noQuirks()).replace('    Metrics: known\n', `    Metrics: known\n${profile}`);
  assert.is(parseCredential(two, 0), false);
  assert.is(parseCredential(two, 10), true);
  assert.is(parseCredential(two, undefined), undefined, 'users disagree and none is named');
  assert.is(parseCredential(two, 11), undefined, 'no block for that user');
  assert.is(parseCredential(lockSettingsDump(noQuirks()).replace('NONE', 'UNKNOWN_2'), 0), true, 'the legacy PASSWORD_OR_PIN type is a credential');
  assert.is(parseCredential("Can't find service: lock_settings\n", 0), undefined);
});

layouts('a lock of unknown kind (lock_settings unreadable) is refused as "perhaps" secure, and nothing pops its bouncer up', async () => {
  const sent: string[] = [];
  const run = async (command: string) => {
    sent.push(command);
    if (command === SCREEN_STATE_COMMAND) return screenOutput({ locked: true, secureLock: true });
    return command === LOCK_SETTINGS_COMMAND ? "Can't find service: lock_settings\n" : '';
  };
  const err = await new ScreenGuard('emulator-5554').ensureUsable('tapping', run).then(() => undefined, (e: unknown) => e);
  assert.instance(err, ToolError);
  assert.is((err as ToolError).code, 'PERMISSION_DENIED');
  assert.match((err as ToolError).message, 'emulator-5554 is locked, perhaps with a PIN, pattern or password (Android did not say which lock it has), so tapping cannot reach the app: unlock it by hand');
  assert.equal(sent, [SCREEN_STATE_COMMAND, LOCK_SETTINGS_COMMAND]);
  assert.not.ok(sent.includes(WAKE_COMMAND));
});

layouts.run();

/** The same states end to end: engine → adb server → emulated adbd printing the newer layout. */
const phone = suite<{ rig?: AndroidRig }>('android keyguard layouts: an Android 16 phone');

phone.before(async (ctx) => {
  ctx.rig = await startRig();
});
phone.after(async (ctx) => {
  await ctx.rig?.stop();
});
phone.after.each(({ rig }) => {
  Object.assign(rig!.phone.shell.quirks, { locked: false, secureLock: false, lockTrusted: false, lockOccluded: false, screenOff: false, release: undefined });
});

type Answer = { status?: string; code?: string; message?: string };
const count = (rig: AndroidRig, text: string) => rig.phone.stats.opened.filter((s) => s.includes(text)).length;

/** The demo app's e-mail field, to tap: the keyboard shows once a tap reaches it. */
async function emailField(rig: AndroidRig): Promise<{ x: number; y: number }> {
  await rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  await rig.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const elements = (await rig.call('mobile_list_elements_on_screen')).elements as { id: string; center: { x: number; y: number } }[];
  return elements.find((e) => e.id === 'email')!.center;
}

/** A tap from a driver that has not yet seen the screen usable, so it checks first. */
async function freshTap(rig: AndroidRig, at: { x: number; y: number }): Promise<Answer> {
  rig.phone.stats.reset();
  return (await rig.engineWith({}).call('mobile_click_on_screen_at_coordinates', { device: rig.phone.serial, ...at })) as Answer;
}

phone('PIN lock: refused "with a PIN, pattern or password" from dumpsys lock_settings, with no wm dismiss-keyguard to pop the PIN pad up', async ({ rig }) => {
  const at = await emailField(rig!);
  Object.assign(rig!.phone.shell.quirks, { release: ANDROID_16, locked: true, secureLock: true });
  const r = await freshTap(rig!, at);
  assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
  assert.match(String(r.message), 'is locked with a PIN, pattern or password, so ');
  assert.match(String(r.message), 'unlock it by hand');
  assert.is(count(rig!, 'dumpsys lock_settings'), 1);
  assert.is(count(rig!, 'dismiss-keyguard'), 0, rig!.phone.stats.opened.join('\n'));
  assert.ok(rig!.phone.shell.quirks.locked);
});

phone('screen off over a PIN lock: woken, then refused with a PIN, its type read once', async ({ rig }) => {
  const at = await emailField(rig!);
  Object.assign(rig!.phone.shell.quirks, { release: ANDROID_16, screenOff: true, locked: true, secureLock: true });
  const r = await freshTap(rig!, at);
  assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
  assert.match(String(r.message), 'is locked with a PIN, pattern or password, so ');
  assert.is(count(rig!, 'dumpsys lock_settings'), 1, rig!.phone.stats.opened.join('\n'));
  assert.ok(count(rig!, 'dumpsys power') <= 2, 'no second of retries for a lock that stays');
});

phone('swipe lock: lock_settings says NONE, the lock is dismissed and the tap reaches the app', async ({ rig }) => {
  const at = await emailField(rig!);
  Object.assign(rig!.phone.shell.quirks, { release: ANDROID_16, locked: true });
  const r = await freshTap(rig!, at);
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.not.ok(rig!.phone.shell.quirks.locked);
  assert.ok(rig!.phone.phone.keyboardVisible, 'the tap reached the field');
  assert.is(count(rig!, 'dumpsys lock_settings'), 1, rig!.phone.stats.opened.join('\n'));
});

phone('PIN held open by a trust agent (trusted=true): dismissed like a swipe lock, and the launch says so, without asking lock_settings', async ({ rig }) => {
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  Object.assign(rig!.phone.shell.quirks, { release: ANDROID_16, locked: true, secureLock: true, lockTrusted: true });
  rig!.phone.stats.reset();
  const r = (await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE })) as Answer;
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.match(String(r.message), 'the lock screen was showing (its PIN, pattern or password held open by a trust agent), so it was dismissed, and it was started again');
  assert.not.ok(rig!.phone.shell.quirks.locked);
  assert.is(count(rig!, 'dumpsys lock_settings'), 0, 'trusted= implies a secure lock');
});

phone('an app over a PIN lock (occluded=true) and an unlocked phone: the tap goes through, nothing more is read', async ({ rig }) => {
  const at = await emailField(rig!);
  Object.assign(rig!.phone.shell.quirks, { release: ANDROID_16, locked: true, secureLock: true, lockOccluded: true });
  const over = await freshTap(rig!, at);
  assert.is(over.status, 'success', JSON.stringify(over));
  assert.is(count(rig!, 'dumpsys lock_settings') + count(rig!, 'dismiss-keyguard'), 0, rig!.phone.stats.opened.join('\n'));
  Object.assign(rig!.phone.shell.quirks, { locked: false, secureLock: false, lockOccluded: false });
  const open = await freshTap(rig!, at);
  assert.is(open.status, 'success', JSON.stringify(open));
  assert.is(count(rig!, 'dumpsys lock_settings') + count(rig!, 'dismiss-keyguard'), 0, rig!.phone.stats.opened.join('\n'));
});

if (hasAdb()) phone.run();
