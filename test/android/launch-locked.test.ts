import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/**
 * Launches on a phone whose lock screen shows: Android starts the app behind it and never draws it
 * (test/harness/adbd/app-commands.ts startBehindKeyguard), which used to end as INTERNAL "did not
 * finish starting … may have crashed". Now the launch answers as taps do: a swipe lock is dismissed and
 * the app started again, a PIN is refused with what to do.
 */
const locked = suite<{ rig?: AndroidRig }>('android launches on a locked or dark screen');

locked.before(async (ctx) => {
  ctx.rig = await startRig();
});
locked.after(async (ctx) => {
  await ctx.rig?.stop();
});
locked.after.each(({ rig }) => {
  Object.assign(rig!.phone.shell.quirks, { locked: false, secureLock: false, lockTrusted: false, screenOff: false, release: undefined });
});

type Answer = { status: string; code?: string; message: string };
const launch = async (rig: AndroidRig, engine = rig.engine) => (await engine.call('mobile_launch_app', { device: rig.phone.serial, packageName: DEMO_PACKAGE })) as Answer;
const LOOK = 'exec:dumpsys activity activities; echo __mobilebridge__; dumpsys power; echo __mb_state__; dumpsys window policy';
const AM_START = /^exec:am start -W /;

locked('a PIN lock: PERMISSION_DENIED saying to unlock by hand, not a crash', async ({ rig }) => {
  await launch(rig!);
  Object.assign(rig!.phone.shell.quirks, { screenOff: true, locked: true, secureLock: true });
  rig!.phone.stats.reset();
  const r = await launch(rig!);
  assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
  assert.match(r.message, `is locked with a PIN, pattern or password, so ${DEMO_PACKAGE} started behind the lock screen, where it cannot be seen or used: unlock it by hand`);
  assert.not.match(r.message, 'crash');
  // Started once: nothing is started again while the lock stays.
  assert.is(rig!.phone.stats.opened.filter((s) => AM_START.test(s)).length, 1);
});

locked('a swipe lock: dismissed, the app started again, and the launch says so', async ({ rig }) => {
  await launch(rig!);
  Object.assign(rig!.phone.shell.quirks, { locked: true });
  rig!.phone.stats.reset();
  const r = await launch(rig!);
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.match(r.message, 'the lock screen was showing (no PIN, pattern or password), so it was dismissed, and it was started again: it was already running, so Android brought its task to the front');
  assert.not.ok(rig!.phone.shell.quirks.locked);
  const opened = rig!.phone.stats.opened;
  assert.ok(AM_START.test(opened[0]) && AM_START.test(opened[opened.length - 1]), opened.join('\n'));
  assert.is(opened[1], LOOK, 'the screen state comes with the look at the app in front, in one round trip');
});

locked('a PIN lock held open by a trust agent (Smart Lock, KeyguardStateMonitor mTrusted=true): dismissed like a swipe lock, not refused', async ({ rig }) => {
  await launch(rig!);
  Object.assign(rig!.phone.shell.quirks, { locked: true, secureLock: true, lockTrusted: true });
  const r = await launch(rig!);
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.match(r.message, 'the lock screen was showing (its PIN, pattern or password held open by a trust agent), so it was dismissed, and it was started again');
  assert.not.ok(rig!.phone.shell.quirks.locked);
});

locked('a screen that went off (and locked itself): woken, the lock dismissed, the app started again', async ({ rig }) => {
  await launch(rig!);
  Object.assign(rig!.phone.shell.quirks, { screenOff: true, locked: true });
  const r = await launch(rig!);
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.match(r.message, 'the screen was off and locked (no PIN, pattern or password), so it was woken and the lock screen dismissed, and it was started again: ');
  assert.not.ok(rig!.phone.shell.quirks.screenOff || rig!.phone.shell.quirks.locked);
});

locked('Android 9: am start -W does not return behind the lock; after the wait the swipe lock is dismissed and the app started again', async ({ rig }) => {
  rig!.phone.shell.quirks.release = { version: '9', sdk: 28 };
  const engine = rig!.engineWith({ launchWaitMs: 300 });
  await launch(rig!, engine);
  Object.assign(rig!.phone.shell.quirks, { locked: true });
  const r = await launch(rig!, engine);
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.match(r.message, 'so it was dismissed, and it was started again: it was already running');
});

locked('an unlocked phone: the launch stays one round trip, with no look at the screen', async ({ rig }) => {
  await launch(rig!);
  rig!.phone.stats.reset();
  const r = await launch(rig!);
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.is(rig!.phone.stats.opened.length, 1, rig!.phone.stats.opened.join('\n'));
  assert.match(rig!.phone.stats.opened[0], AM_START);
});

locked('the app in front of a locked phone: Android resumes no activity behind the lock screen, and the answer says so', async ({ rig }) => {
  await launch(rig!);
  Object.assign(rig!.phone.shell.quirks, { locked: true });
  const r = (await rig!.call('mobile_get_foreground_app', {})) as unknown as Answer;
  assert.is(r.status, 'error', JSON.stringify(r));
  assert.match(r.message, 'no resumed activity on');
  assert.match(r.message, 'the screen may be off or locked');
});

if (hasAdb()) locked.run();
