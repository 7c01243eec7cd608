import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { judgeLaunch, parseLaunchWait } from '../../src/engine/drivers/android/launch-wait.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

const LAUNCHER = 'com.google.android.apps.nexuslauncher';
const STARTING = 'Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.app/.Main }\n';
const TO_FRONT = 'Warning: Activity not started, its current task has been brought to the front\n';

// The blocks as each release's runStartActivity (Am.java runStart before Android 8) prints them.
test('am start -W: a drawn first frame in every release\'s format is a launch with its time', () => {
  const android6 = parseLaunchWait(`${STARTING}Status: ok\nActivity: com.app/.Main\nThisTime: 512\nTotalTime: 512\nWaitTime: 530\nComplete\n`);
  assert.equal(judgeLaunch(android6, 'com.app'), { shown: true, note: 'first frame drawn (512 ms)' });
  const android9 = parseLaunchWait(`${STARTING}Status: ok\nActivity: com.app/.Main\nThisTime: 300\nTotalTime: 700\nWaitTime: 712\nComplete\n`);
  assert.equal(judgeLaunch(android9, 'com.app'), { shown: true, note: 'first frame drawn (700 ms)' }, 'TotalTime, not ThisTime: a trampoline\'s whole start');
  const android14 = parseLaunchWait(`${STARTING}Status: ok\nLaunchState: COLD\nActivity: com.app/.Main\nTotalTime: 840\nWaitTime: 851\nComplete\n`);
  assert.equal(android14, { error: undefined, warning: undefined, status: 'ok', launchState: 'COLD', activity: 'com.app/.Main', totalMs: 840 });
  assert.equal(judgeLaunch(android14, 'com.app'), { shown: true, note: 'first frame drawn (cold start, 840 ms)' });
});

test('am start -W: an app already running is brought to the front, on 12+ with LaunchState left at UNKNOWN (0)', () => {
  const android14 = parseLaunchWait(`${STARTING}${TO_FRONT}Status: ok\nLaunchState: UNKNOWN (0)\nActivity: com.app/.Main\nTotalTime: 0\nWaitTime: 3\nComplete\n`);
  assert.equal(judgeLaunch(android14, 'com.app'), { shown: true, note: 'it was already running, so Android brought its task to the front' });
  const android8 = parseLaunchWait(`${STARTING}${TO_FRONT}Status: ok\nActivity: com.app/.Main\nThisTime: 0\nTotalTime: 0\nWaitTime: 5\nComplete\n`);
  assert.is(judgeLaunch(android8, 'com.app').shown, true);
});

test('am start -W: a launch Android could not see drawn is unconfirmed, with what it said', () => {
  // Android 12+: the activity was removed before drawing (ActivityRecord.cleanUp): no TotalTime.
  const removed = judgeLaunch(parseLaunchWait(`${STARTING}Status: ok\nLaunchState: UNKNOWN (0)\nActivity: com.app/.Main\nWaitTime: 412\nComplete\n`), 'com.app');
  assert.is(removed.shown, false);
  assert.match(!removed.shown ? removed.why : '', /before its first frame was drawn \(LaunchState UNKNOWN \(0\)/);
  // The idle timeout, 10 s after the activity was resumed.
  const busy = judgeLaunch(parseLaunchWait(`${STARTING}Status: timeout\nLaunchState: UNKNOWN (-1)\nActivity: com.app/.Main\nWaitTime: 10377\nComplete\n`), 'com.app');
  assert.match(!busy.shown ? busy.why : '', /Status: timeout/);
  const android7busy = judgeLaunch(parseLaunchWait(`${STARTING}Status: timeout\nActivity: com.app/.Main\nWaitTime: 10377\nComplete\n`), 'com.app');
  assert.is(android7busy.shown, false);
  // Before Android 10 any activity drawn during the wait could end it (the launcher drawn again after a crash).
  const other = judgeLaunch(parseLaunchWait(`${STARTING}Status: ok\nActivity: ${LAUNCHER}/.Home\nThisTime: 80\nTotalTime: 80\nWaitTime: 90\nComplete\n`), 'com.app');
  assert.match(!other.shown ? other.why : '', `ended on ${LAUNCHER}/.Home, not on com.app`);
  // START_SWITCHES_CANCELED: nothing was started although a Status block follows.
  const kept = judgeLaunch(parseLaunchWait(`${STARTING}Warning: Activity not started because the  current activity is being kept for the user.\nStatus: ok\nLaunchState: UNKNOWN (0)\nTotalTime: 0\nWaitTime: 2\nComplete\n`), 'com.app');
  assert.match(!kept.shown ? kept.why : '', /being kept for the user/);
  assert.is(judgeLaunch(parseLaunchWait(STARTING), 'com.app').shown, false);
});

test('am start -W on Android 10+: a permission prompt the app opened as it started is its launch (ActivityMetricsLogger coalesces it), named in the note', () => {
  const grant = 'com.google.android.permissioncontroller/com.android.permissioncontroller.permission.ui.GrantPermissionsActivity';
  const verdict = judgeLaunch(parseLaunchWait(`${STARTING}Status: ok\nLaunchState: COLD\nActivity: ${grant}\nTotalTime: 812\nWaitTime: 830\nComplete\n`), 'com.app');
  assert.equal(verdict, { shown: true, note: `first frame drawn (cold start, 812 ms); what shows is ${grant}, another app's screen that com.app opened as it started (a permission prompt, a sign-in page)` });
});

test('am start -W on Android 5–7: an app already on top (START_DELIVERED_TO_TOP) prints no Activity line and is in front', () => {
  const wait = parseLaunchWait(`${STARTING}Warning: Activity not started, intent has been delivered to currently running top-most instance.\nStatus: ok\nThisTime: 0\nTotalTime: 0\nWaitTime: 12\nComplete\n`);
  assert.equal(judgeLaunch(wait, 'com.app'), { shown: true, note: 'it was already in front' });
});

test('am start -W: a refused start keeps its Error line', () => {
  const wait = parseLaunchWait(`${STARTING}Error type 3\nError: Activity class {com.app/com.app.Gone} does not exist.\n`);
  assert.is(wait.error, 'Error: Activity class {com.app/com.app.Gone} does not exist.');
  assert.is(wait.status, undefined);
});

/** Launches through the real adb server against the emulated phone's `am start -W`. */
const launches = suite<{ rig?: AndroidRig }>('android launches that say what happened');

launches.before(async (ctx) => {
  ctx.rig = await startRig();
});
launches.after(async (ctx) => {
  await ctx.rig?.stop();
});
launches.after.each(({ rig }) => {
  rig!.phone.shell.quirks.appStart.clear();
  rig!.phone.shell.quirks.release = undefined;
});

type Answer = { status: string; code?: string; message: string };
const launch = async (rig: AndroidRig, engine = rig.engine) => (await engine.call('mobile_launch_app', { device: rig.phone.serial, packageName: DEMO_PACKAGE })) as Answer;
const fromLauncher = async (rig: AndroidRig) => {
  await rig.call('mobile_terminate_app', { packageName: DEMO_PACKAGE });
  rig.phone.stats.reset();
};

launches('a cold start answers once the first frame is drawn, in one am start -W; a relaunch says it was brought to the front', async ({ rig }) => {
  await launch(rig!);
  await fromLauncher(rig!);
  const cold = await launch(rig!);
  assert.is(cold.status, 'success', cold.message);
  assert.match(cold.message, 'first frame drawn (cold start, 642 ms)');
  assert.equal(rig!.phone.stats.opened, [`exec:am start -W -n ${DEMO_PACKAGE}/.MainActivity -a android.intent.action.MAIN -c android.intent.category.LAUNCHER`]);
  const again = await launch(rig!);
  assert.match(again.message, 'already running, so Android brought its task to the front');
  // A scenario step or an MCP launch_app says the same.
  const verbs = await verbContext({ engine: rig!.engine, device: rig!.phone.serial, targetWaitMs: 500 });
  const step = await runVerb(verbs, { action: 'launch_app', value: DEMO_PACKAGE });
  assert.is(step.message, `launched ${DEMO_PACKAGE}; it was already running, so Android brought its task to the front`);
});

launches('Android 14: an app that crashes while starting is an error naming the app in front, not "launched"', async ({ rig }) => {
  await fromLauncher(rig!);
  rig!.phone.shell.quirks.appStart.set(DEMO_PACKAGE, 'crash');
  const r = await launch(rig!);
  assert.is(r.code, 'INTERNAL', JSON.stringify(r));
  assert.match(r.message, `${DEMO_PACKAGE} did not finish starting`);
  assert.match(r.message, 'LaunchState UNKNOWN (0)');
  assert.match(r.message, `${LAUNCHER} is in front now`);
  assert.match(r.message, 'adb logcat -b crash');
  // One look at what is in front and at the screen, only because Android could not confirm the frame.
  assert.equal(rig!.phone.stats.opened.map((s) => s.replace(/ -n .*/, '')), [
    'exec:am start -W',
    'exec:dumpsys activity activities; echo __mobilebridge__; dumpsys power; echo __mb_state__; dumpsys window policy',
  ]);
});

launches('Android 9: a crash leaves am start -W waiting; the launch stops waiting on its own and reports the app did not come up', async ({ rig }) => {
  rig!.phone.shell.quirks.release = { version: '9', sdk: 28 };
  await fromLauncher(rig!);
  rig!.phone.shell.quirks.appStart.set(DEMO_PACKAGE, 'crash');
  const r = await launch(rig!, rig!.engineWith({ launchWaitMs: 300 }));
  assert.is(r.code, 'INTERNAL', JSON.stringify(r));
  assert.match(r.message, 'Android had not reported its first frame after 0.3 s');
  assert.match(r.message, `${LAUNCHER} is in front now`);
});

launches('Android 11: an app that never settles ("Status: timeout") but is in front is launched, said to be still loading', async ({ rig }) => {
  rig!.phone.shell.quirks.release = { version: '11', sdk: 30 };
  await fromLauncher(rig!);
  rig!.phone.shell.quirks.appStart.set(DEMO_PACKAGE, 'busy');
  const r = await launch(rig!, rig!.engineWith({}));
  assert.is(r.status, 'success', r.message);
  assert.match(r.message, 'it is in front, but Android stopped waiting for its first frame ("Status: timeout"');
  assert.match(r.message, 'look at the screen before relying on it');
});

launches('a start slower than the call\'s deadline allows ends as "not confirmed, may still be loading", not as TIMEOUT', async ({ rig }) => {
  await fromLauncher(rig!);
  rig!.phone.shell.quirks.appStart.set(DEMO_PACKAGE, 'slow');
  // 3 s for the whole call, less than the launch's own 10 s wait for the first frame.
  const engine = rig!.engineWith({}, 3_000);
  const r = await launch(rig!, engine);
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.match(r.message, /it is in front, but Android had not reported its first frame after [\d.]+ s, all the time the call's deadline left for it; it may still be loading/);
  // The device answered in time, so it is not listed as not responding.
  assert.is((await engine.listDevices()).find((d) => d.id === rig!.phone.serial)?.state, 'ready');
});

launches('Android 8: the older format (ThisTime, no LaunchState) is read the same way', async ({ rig }) => {
  rig!.phone.shell.quirks.release = { version: '8.1.0', sdk: 27 };
  const engine = rig!.engineWith({});
  await fromLauncher(rig!);
  const cold = await launch(rig!, engine);
  assert.is(cold.status, 'success', cold.message);
  assert.match(cold.message, /; first frame drawn \(642 ms\)$/);
  assert.match((await launch(rig!, engine)).message, 'brought its task to the front');
});

launches('Android 14: an app that asks for a permission as it starts is launched, the prompt named (the wait ends on the permission controller)', async ({ rig }) => {
  await fromLauncher(rig!);
  rig!.phone.shell.quirks.appStart.set(DEMO_PACKAGE, 'permission');
  const r = await launch(rig!);
  assert.is(r.status, 'success', r.message);
  assert.match(r.message, 'first frame drawn (cold start, 812 ms); what shows is com.google.android.permissioncontroller/');
  assert.match(r.message, `another app's screen that ${DEMO_PACKAGE} opened as it started`);
  assert.is(rig!.phone.stats.opened.length, 1, 'confirmed by am start -W alone');
  assert.is(rig!.phone.phone.dialog, 'permission');
});

if (hasAdb()) launches.run();
test.run();
