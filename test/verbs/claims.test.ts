import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import type { Engine } from '../../src/engine/engine.js';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import { realClock, runVerb, type VerbContext, type VerbStep } from '../../src/engine/verbs/index.js';

/** Verbs that said they did what did not happen (verbs audit): each case is now a failure or says it is unsure. */
const test = suite<{ engine: Engine; dir: string }>('verbs claim only what happened');
test.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-claims-'));
  ctx.engine = createEngine({ android: false, ios: false, allowPaths: [ctx.dir] });
});
test.after.each(async (ctx) => {
  await ctx.engine.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const ctxOf = (engine: Engine, device: string): VerbContext => ({ engine, device, os: device.includes('ios') ? 'iOS' : 'Android', origin: 'test', resolver: new DeterministicResolver(), clock: realClock, targetWaitMs: 500, pollMs: 50 });
const run = (ctx: VerbContext, step: VerbStep) => runVerb(ctx, step);

test('grant_permission with no prompt showing fails: it never taps an app icon whose name holds "ok" (Outlook)', async ({ engine, dir }) => {
  const device = 'virtual-ios-1';
  const app = join(dir, 'Outlook.app');
  mkdirSync(app);
  writeFileSync(join(app, 'Info.plist'), '<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.microsoft.Office.Outlook</string><key>CFBundleDisplayName</key><string>Outlook</string><key>CFBundleShortVersionString</key><string>4.2</string></dict></plist>');
  const installed = (await engine.call('mobile_install_app', { device, path: app })) as { status?: string };
  assert.is(installed.status, 'success', JSON.stringify(installed));
  const ctx = ctxOf(engine, device);
  await run(ctx, { action: 'press_button', value: 'HOME' });
  const r = await run(ctx, { action: 'grant_permission' });
  assert.is(r.status, 'failed', JSON.stringify(r));
  assert.match(r.message ?? '', /no permission prompt is showing on virtual-ios-1/);
  const front = (await engine.call('mobile_get_foreground_app', { device })) as { packageName?: string };
  assert.is.not(front.packageName, 'com.microsoft.Office.Outlook', 'nothing was launched');
});

test('grant_permission on an app\'s own dialog fails, naming it; on the system prompt it still grants', async ({ engine }) => {
  for (const device of ['virtual-android-1', 'virtual-ios-1']) {
    const ctx = ctxOf(engine, device);
    await run(ctx, { action: 'launch_app', value: 'com.mobilebridge.demo' });
    await run(ctx, { action: 'open_url', value: 'mbdemo://screen/alert' });
    const onAlert = await run(ctx, { action: 'grant_permission' });
    assert.is(onAlert.status, 'failed', `${device}: ${JSON.stringify(onAlert)}`);
    assert.match(onAlert.message ?? '', /no permission prompt is showing .*the dialog showing is the app's own/);
    await run(ctx, { action: 'open_url', value: 'mbdemo://screen/permission' });
    const granted = await run(ctx, { action: 'grant_permission', permission_name: 'camera' });
    assert.is(granted.status, 'passed', `${device}: ${JSON.stringify(granted)}`);
  }
});

test('a wait does not pass on the home screen the scenario\'s app left for, and "gone" under a dialog says it may be covered', async ({ engine }) => {
  for (const device of ['virtual-android-1', 'virtual-ios-1']) {
    const ctx = { ...ctxOf(engine, device), appPackage: 'com.mobilebridge.demo' };
    await run(ctx, { action: 'launch_app', value: 'com.mobilebridge.demo' });
    await run(ctx, { action: 'open_url', value: 'mbdemo://screen/loading' });
    await run(ctx, { action: 'press_button', value: 'HOME' });
    const loading = await run(ctx, { action: 'wait_for_loading_complete', wait_config: { type: 'loading_complete', timeout_ms: 1000 } });
    assert.is(loading.status, 'failed', `${device}: ${JSON.stringify(loading)}`);
    assert.match(loading.message ?? '', /loading could not be seen to complete .*com\.mobilebridge\.demo is not in front: the home screen shows/);
    // Outside a scenario (no app known) the home screen is not judged.
    assert.is((await run(ctxOf(engine, device), { action: 'wait_for_loading_complete', wait_config: { type: 'loading_complete', timeout_ms: 1000 } })).status, 'passed');
  }
  const ctx = ctxOf(engine, 'virtual-android-1');
  await run(ctx, { action: 'launch_app', value: 'com.mobilebridge.demo' });
  await run(ctx, { action: 'open_url', value: 'mbdemo://screen/alert' });
  // The alert opens over More: its "Save draft" button is under the dialog, not gone.
  const gone = await run(ctx, { action: 'wait_for_element_gone', target: 'Save draft', wait_config: { type: 'element_gone', timeout_ms: 1000 } });
  assert.is(gone.status, 'passed', JSON.stringify(gone));
  assert.match(gone.message ?? '', /is gone; a dialog is showing .*which may only cover it/);
});

test('press_back on iOS with nothing to go back to fails instead of saying it swiped', async ({ engine }) => {
  const ctx = ctxOf(engine, 'virtual-ios-1');
  await run(ctx, { action: 'launch_app', value: 'com.mobilebridge.demo' });
  await run(ctx, { action: 'open_url', value: 'mbdemo://screen/home' });
  const root = await run(ctx, { action: 'press_back' });
  assert.is(root.status, 'failed', JSON.stringify(root));
  assert.match(root.message ?? '', /nothing went back on virtual-ios-1: .*the screen did not change after the iOS back gesture/);
  await run(ctx, { action: 'open_url', value: 'mbdemo://screen/settings' });
  const back = await run(ctx, { action: 'press_back' });
  assert.is(back.status, 'passed', JSON.stringify(back));
});

test.run();
