import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import { ToolError } from '../../../src/engine/errors.js';
import { ManualClock, VirtualDriver } from '../../../src/engine/drivers/virtual/index.js';
import { phoneStateProblem } from '../../../src/engine/drivers/virtual/state.js';
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

test('a screen size or density it cannot draw is refused when the driver is made, naming the option', () => {
  // Before, these failed only at the first screenshot, with a renderer's words ("Input Buffer is empty").
  for (const [screen, wrong] of [
    [{ android: { width: 0 } }, /screen\.android\.width must be a whole number of pixels from 1 to 8192; got 0/],
    [{ ios: { height: -5 } }, /screen\.ios\.height .* got -5/],
    [{ ios: { width: 100_000 } }, /screen\.ios\.width .* got 100000/],
    [{ android: { height: 10.5 } }, /screen\.android\.height .* got 10\.5/],
    [{ android: { density: 0 } }, /screen\.android\.density .* got 0/],
  ] as const) {
    assert.throws(() => new VirtualDriver({ screen }), wrong);
  }
  assert.doesNotThrow(() => new VirtualDriver({ screen: { android: { width: 1, height: 8192, density: 20 } } }));
});

test('a change another process saves while a slow call runs here is kept, and a driver for one platform keeps the other phones', async () => {
  const stateFile = join(dir, 'race', 'phones.json');
  const here = new VirtualDriver({ stateFile });
  const there = new VirtualDriver({ stateFile });
  const apk = writeApk(dir, { package: 'com.example.slow', versionName: '1.0' });
  // The install picks up the file, then reads the APK (real I/O); the other process moves the iPhone on meanwhile.
  const installing = here.device('virtual-android-1')!.installApp(apk, ctx);
  await there.device('virtual-ios-1')!.launchApp(DEMO, ctx);
  await installing;
  const after = new VirtualDriver({ stateFile });
  assert.equal(after.device('virtual-ios-1')!.snapshot().foreground, DEMO, 'the launch the other process saved is still there');
  assert.ok(after.device('virtual-android-1')!.snapshot().installed.some((a) => a.package === 'com.example.slow'));
  // A driver made for Android only rewrites the file without dropping the iPhone.
  const androidOnly = new VirtualDriver({ stateFile, devices: ['android'] });
  await androidOnly.device('virtual-android-1')!.launchApp(DEMO, ctx);
  assert.equal(new VirtualDriver({ stateFile }).device('virtual-ios-1')!.snapshot().foreground, DEMO);
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

/** The warnings a block of work emits (the driver reports unusable state files as process warnings). */
async function warningsDuring(work: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const listen = (w: Error) => void seen.push(`${w.name}: ${w.message}`);
  process.on('warning', listen);
  try {
    await work();
    // Warnings are delivered on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listen);
  }
  return seen;
}

function keptAside(folder: string): string[] {
  return readdirSync(folder).filter((f) => f.includes('.unreadable-')).map((f) => join(folder, f));
}

test('a state file that is not JSON is kept aside, not overwritten, and the phones start from factory state', async () => {
  const folder = mkdtempSync(join(dir, 'corrupt-'));
  const stateFile = join(folder, 'phones.json');
  writeFileSync(stateFile, '{"schema": 1, "devices": {,}}', { mode: 0o600 });
  const warnings = await warningsDuring(async () => {
    const driver = new VirtualDriver({ stateFile });
    const android = driver.device('virtual-android-1')!;
    assert.equal(android.foregroundPackage, 'com.google.android.apps.nexuslauncher');
    await android.setOrientation('landscape', ctx);
  });
  const [aside] = keptAside(folder);
  assert.ok(aside, `the unusable file is kept beside the new one; have ${readdirSync(folder).join(', ')}`);
  assert.equal(readFileSync(aside, 'utf8'), '{"schema": 1, "devices": {,}}', 'what it held, to mend by hand');
  assert.match(readFileSync(stateFile, 'utf8'), /"landscape"/, 'the state file is written again');
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /MobilebridgeStateWarning: .*phones\.json is not valid JSON .*kept as .*phones\.unreadable-\d+\.json/);
});

test('a hand-edited phone state that would break it starts that phone fresh; the other phone keeps its state', async () => {
  const folder = mkdtempSync(join(dir, 'edited-'));
  const stateFile = join(folder, 'phones.json');
  const first = new VirtualDriver({ stateFile });
  await first.device('virtual-android-1')!.openUrl('mbdemo://screen/signin', ctx);
  await first.device('virtual-ios-1')!.openUrl('https://example.org', ctx);
  const saved = JSON.parse(readFileSync(stateFile, 'utf8'));
  delete saved.devices['virtual-android-1'].tasks[DEMO].stack;
  writeFileSync(stateFile, JSON.stringify(saved));

  let second: VirtualDriver | undefined;
  const warnings = await warningsDuring(async () => {
    second = new VirtualDriver({ stateFile });
  });
  const android = second!.device('virtual-android-1')!;
  // Before, every call on this phone failed with "Cannot read properties of undefined (reading 'length')".
  assert.ok((await android.listElements(ctx)).length > 0);
  assert.equal(android.foregroundPackage, 'com.google.android.apps.nexuslauncher', 'factory state');
  assert.equal(second!.device('virtual-ios-1')!.foregroundPackage, 'com.apple.mobilesafari', 'the other phone is untouched');
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /virtual-android-1: tasks\["com\.mobilebridge\.demo"\]: stack is not a list of screens/);
  const [aside] = keptAside(folder);
  assert.deepEqual(JSON.parse(readFileSync(aside, 'utf8')), saved);
});

test('phoneStateProblem names the first field a hand edit broke', () => {
  const good = setup().android.snapshot();
  assert.equal(phoneStateProblem(good), undefined);
  const broken = (edit: (s: Record<string, any>) => void) => {
    const s = structuredClone(good) as unknown as Record<string, any>;
    edit(s);
    return phoneStateProblem(s);
  };
  assert.match(broken((s) => s.toasts.push(null)) ?? '', /toasts\[0\]/);
  assert.match(broken((s) => (s.installed[1] = { name: 'x' })) ?? '', /installed\[1\]/);
  assert.match(broken((s) => (s.tasks = null)) ?? '', /tasks is not an object/);
  assert.match(broken((s) => (s.tasks[s.foreground].fields = null)) ?? '', /fields/);
  assert.match(broken((s) => (s.data.x = {})) ?? '', /data\["x"\]/);
  assert.match(broken((s) => (s.orientation = 'sideways')) ?? '', /orientation/);
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
