import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import { ToolError } from '../../../src/engine/errors.js';
import { ManualClock, VirtualDriver } from '../../../src/engine/drivers/virtual/index.js';
import { writeApk } from '../../harness/apk-builder.js';
import { byId, ctx, DEMO, setup, tapId } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mb-virtual-state-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('lists two devices by default, or the ones asked for', async () => {
  const { driver } = setup();
  assert.deepEqual(await driver.listDevices(ctx), [
    { id: 'virtual-android-1', os: 'Android', model: 'Virtual Pixel 8', version: '14', state: 'ready' },
    { id: 'virtual-ios-1', os: 'iOS', model: 'Virtual iPhone 15', version: '17.5', state: 'ready' },
  ]);
  assert.equal(await driver.open('nope', ctx), undefined);
  const two = new VirtualDriver({ devices: ['android', 'android'], screen: { android: { width: 720, height: 1600, density: 2 } } });
  assert.deepEqual((await two.listDevices(ctx)).map((d) => d.id), ['virtual-android-1', 'virtual-android-2']);
  assert.deepEqual(await two.devices[1].screenSize(ctx), { width: 720, height: 1600 });
});

test('a second driver on the same state file sees the same phone', async () => {
  const stateFile = join(dir, 'nested', 'phones.json');
  const clock = new ManualClock(1_000_000);
  const first = new VirtualDriver({ stateFile, clock });
  const a = first.device('virtual-android-1')!;
  await a.installApp(writeApk(dir, { package: 'com.example.kept', versionName: '9.9' }), ctx);
  await a.launchApp(DEMO, ctx);
  await tapId(a, 'email');
  await a.typeText('someone@example.com', ctx);
  await a.setOrientation('landscape', ctx);
  await first.device('virtual-ios-1')!.openUrl('https://example.org', ctx);
  assert.ok(existsSync(stateFile));
  // Typed text (passwords too) is in it: readable by its owner only.
  assert.equal(statSync(stateFile).mode & 0o777, 0o600);
  assert.equal(statSync(join(dir, 'nested')).mode & 0o777, 0o700);

  const second = new VirtualDriver({ stateFile, clock });
  const b = second.device('virtual-android-1')!;
  assert.equal(b.foregroundPackage, DEMO);
  assert.equal(b.orientation, 'landscape');
  assert.equal((await byId(b, 'email')).text, 'someone@example.com');
  assert.equal(b.keyboardVisible, true);
  assert.ok((await b.listApps(ctx)).some((x) => x.package === 'com.example.kept' && x.version === '9.9'));
  assert.equal(second.device('virtual-ios-1')!.foregroundPackage, 'com.apple.mobilesafari');

  // Changes made by the second process reach the first on its next call.
  await b.typeText('!', ctx);
  assert.equal((await byId(a, 'email')).text, 'someone@example.com!');

  // Timers are absolute clock times: a loading screen saved mid-way ends on time after a restart.
  await a.openUrl('mbdemo://screen/loading', ctx);
  clock.advance(1000);
  const third = new VirtualDriver({ stateFile, clock });
  assert.equal(third.device('virtual-android-1')!.currentScreen, 'loading');
  clock.advance(500);
  assert.equal(third.device('virtual-android-1')!.currentScreen, 'home');

  // A deleted state file (mobilebridge reset) means factory state.
  rmSync(stateFile);
  await a.getOrientation(ctx);
  assert.equal(a.orientation, 'portrait');
  assert.equal(a.foregroundPackage, a.profile.launcher);
});

test('a corrupt state file starts from factory state', async () => {
  const stateFile = join(dir, 'corrupt.json');
  writeFileSync(stateFile, '{not json');
  const driver = new VirtualDriver({ stateFile });
  assert.equal(driver.device('virtual-android-1')!.foregroundPackage, 'com.google.android.apps.nexuslauncher');
});

test('reset() returns every phone to factory state', async () => {
  const { driver, android } = setup();
  await android.setOrientation('landscape', ctx);
  driver.reset();
  assert.equal(android.orientation, 'portrait');
});

test('latency is added to every call and an aborted call stops without acting', async () => {
  const { android } = setup({ latencyMs: 60 });
  const t = performance.now();
  await android.getOrientation(ctx);
  assert.ok(performance.now() - t >= 55, 'latency applied');

  // A latency far beyond the abort: a call that waited it out instead of stopping would take 10 s
  // (measured from the abort, so a busy machine's late timer does not count against it).
  const { android: slow } = setup({ latencyMs: 10_000 });
  const controller = new AbortController();
  let abortedAt = 0;
  setTimeout(() => {
    abortedAt = performance.now();
    controller.abort();
  }, 10);
  try {
    await slow.setOrientation('landscape', { signal: controller.signal });
    assert.fail('expected an abort');
  } catch (err) {
    assert.ok(err instanceof ToolError && err.code === 'TIMEOUT', String(err));
  }
  assert.ok(abortedAt > 0 && performance.now() - abortedAt < 5000, 'stops as soon as the signal aborts, not after the latency');
  assert.equal(slow.orientation, 'portrait', 'aborted call did not act');
});

test.run();
