import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/**
 * mobile_open_url on Android waits, as a launch does, for the app that took the link to draw
 * (`am start -W`), and says which app that is. It used to answer "opened" as soon as `am` had asked,
 * also when Android showed its "Open with" chooser instead, or the app started behind a lock screen.
 */
const links = suite<{ rig?: AndroidRig }>('android open_url');

links.before(async (ctx) => {
  ctx.rig = await startRig();
});
links.after(async (ctx) => {
  await ctx.rig?.stop();
});
links.after.each(({ rig }) => {
  Object.assign(rig!.phone.shell.quirks, { locked: false, secureLock: false, screenOff: false, linkChooser: false, release: undefined });
  rig!.phone.shell.quirks.appStart.clear();
});

type Answer = { status: string; code?: string; message: string };
const open = async (rig: AndroidRig, url: string, engine = rig.engine) => (await engine.call('mobile_open_url', { device: rig.phone.serial, url })) as Answer;
const AM_VIEW = /^exec:am start -W -a android\.intent\.action\.VIEW -d /;

links('a link says which app shows it once its first frame is drawn, in one round trip', async ({ rig }) => {
  await rig!.call('mobile_terminate_app', { packageName: 'com.android.chrome' });
  rig!.phone.stats.reset();
  const web = await open(rig!, 'https://example.com/a');
  assert.is(web.status, 'success', JSON.stringify(web));
  assert.match(web.message, 'opened https://example.com/a on ');
  assert.match(web.message, '; com.android.chrome shows it: first frame drawn (cold start, 642 ms)');
  assert.is(rig!.phone.stats.opened.length, 1, rig!.phone.stats.opened.join('\n'));
  assert.match(rig!.phone.stats.opened[0], AM_VIEW);
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  const deep = await open(rig!, 'mbdemo://screen/signin');
  assert.match(deep.message, `${DEMO_PACKAGE} shows it: first frame drawn (warm start, 214 ms)`);
});

links('several apps take the link and none is the default: an error naming the chooser, not "opened"', async ({ rig }) => {
  await rig!.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
  rig!.phone.shell.quirks.linkChooser = true;
  const r = await open(rig!, 'https://example.com/b');
  assert.is(r.status, 'error', JSON.stringify(r));
  assert.is(r.code, 'INTERNAL');
  assert.match(r.message, 'did not open https://example.com/b: several apps take such links and none is the default, so Android shows its "Open with" chooser');
  assert.match(r.message, 'mobile_list_elements_on_screen');
  assert.is(rig!.phone.phone.foregroundPackage, DEMO_PACKAGE);
});

links('a link whose text names a refusal ("SecurityException", "Permission Denial") opens: am echoes the link, which is not the phone refusing', async ({ rig }) => {
  const deep = await open(rig!, 'mbdemo://screen/signin?from=SecurityException&why=not_allowed_to');
  assert.is(deep.status, 'success', JSON.stringify(deep));
  assert.match(deep.message, `${DEMO_PACKAGE} shows it`);
  assert.is(rig!.phone.phone.currentScreen, 'signin');
  const unknown = await open(rig!, 'nosuchscheme://x/SecurityException?Permission+Denial');
  assert.is(unknown.code, 'INVALID_PARAMETER', JSON.stringify(unknown));
});

links('a link no app takes: INVALID_PARAMETER', async ({ rig }) => {
  const r = await open(rig!, 'ftp://example.com/file');
  assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
  assert.match(r.message, 'handles ftp://example.com/file; install the app for this link or check the URL');
});

links('behind a PIN lock: PERMISSION_DENIED, the link shown nowhere', async ({ rig }) => {
  Object.assign(rig!.phone.shell.quirks, { locked: true, secureLock: true });
  const r = await open(rig!, 'mbdemo://screen/home');
  assert.is(r.code, 'PERMISSION_DENIED', JSON.stringify(r));
  assert.match(r.message, 'is locked with a PIN, pattern or password, so the link opened behind the lock screen, where it cannot be seen or used: unlock it by hand');
});

links('behind a swipe lock: the lock is dismissed and the answer says so; the link is not sent twice', async ({ rig }) => {
  Object.assign(rig!.phone.shell.quirks, { locked: true });
  rig!.phone.stats.reset();
  const r = await open(rig!, 'mbdemo://screen/home');
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.match(r.message, `the lock screen was showing (no PIN, pattern or password), so it was dismissed: ${DEMO_PACKAGE}, which took the link, is in front now`);
  assert.not.ok(rig!.phone.shell.quirks.locked);
  assert.is(rig!.phone.stats.opened.filter((s) => AM_VIEW.test(s)).length, 1);
});

links('Android 9 behind a swipe lock: am does not return; after the wait the lock is dismissed', async ({ rig }) => {
  rig!.phone.shell.quirks.release = { version: '9', sdk: 28 };
  Object.assign(rig!.phone.shell.quirks, { locked: true });
  const r = await open(rig!, 'mbdemo://screen/home', rig!.engineWith({ launchWaitMs: 300 }));
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.match(r.message, `so it was dismissed: ${DEMO_PACKAGE} is in front now (Android did not say which app took the link), so look at the screen`);
});

links('an app that takes long to draw: success that says the first frame was not reported, with the app in front', async ({ rig }) => {
  rig!.phone.shell.quirks.appStart.set('com.android.chrome', 'slow');
  const r = await open(rig!, 'https://example.com/slow', rig!.engineWith({ launchWaitMs: 300 }));
  assert.is(r.status, 'success', JSON.stringify(r));
  assert.match(r.message, 'com.android.chrome is in front, but Android had not reported its first frame after 0.3 s, so look at the screen before relying on it');
});

if (hasAdb()) links.run();
