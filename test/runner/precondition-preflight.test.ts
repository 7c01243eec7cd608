import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Scenario } from '../../src/validate/index.js';
import { buildApk } from '../harness/apk-builder.js';
import { rig, run, scenario, type Rig } from './harness.js';

/** Audit 24 c5 #3: a build that is there but unusable stops the run before the preconditions uninstall the app. */
const ANDROID = 'virtual-android-1';
const IOS = 'virtual-ios-1';

async function freshInstall(r: Rig, device: string, file: string): Promise<{ summary: string; kept: boolean }> {
  const base = scenario(r, 'clear_data_cross');
  const fresh: Scenario = {
    ...base,
    preconditions: { app_state: 'fresh_install', device_actions: [{ action: 'uninstall_app', description: 'Remove the old build' }, { action: 'install_app', value: file }] },
  };
  const { document } = await run(r, 'clear_data_cross', device, { scenario: fresh });
  assert.is(document.status, 'error');
  assert.equal(document.steps_executed, []);
  const apps = await r.engine.call('mobile_list_apps', { device });
  return { summary: document.summary, kept: JSON.stringify(apps).includes(base.app_package) };
}

test('an empty, wrongly named or corrupt build, or one outside the allowed folders, is refused before the app is uninstalled', async () => {
  const r = rig();
  try {
    const builds = join(r.dir, 'builds');
    mkdirSync(builds);
    writeFileSync(join(builds, 'empty.apk'), '');
    writeFileSync(join(builds, 'app-release.apks'), buildApk({ package: 'com.example.split' }));
    const cases: [string, string, RegExp][] = [
      [ANDROID, join(builds, 'empty.apk'), /INVALID_PARAMETER: precondition "install .*empty\.apk": .*not a readable APK .*nothing was done to the device/],
      [ANDROID, join(builds, 'app-release.apks'), /INVALID_PARAMETER: precondition "install .*app-release\.apks": .*installs one \.apk file.*bundletool.*nothing was done to the device/],
      [IOS, join(builds, 'empty.apk'), /INVALID_PARAMETER: precondition "install .*empty\.apk": .*installs \.ipa or \.app files.*nothing was done to the device/],
    ];
    for (const [device, file, expected] of cases) {
      const { summary, kept } = await freshInstall(r, device, file);
      assert.match(summary, expected);
      assert.ok(kept, `the app is still installed on ${device} after ${file}`);
    }
    writeFileSync(join(r.dir, 'outside.apk'), buildApk({ package: 'com.example.outside' }));
    (r.engine.allowedPaths as unknown as { roots: string[] }).roots = [builds];
    const { summary, kept } = await freshInstall(r, ANDROID, join(r.dir, 'outside.apk'));
    assert.match(summary, /PERMISSION_DENIED: precondition "install .*outside\.apk": .*nothing was done to the device/);
    assert.ok(kept, 'the app is still installed after a build outside the allowed folders');
  } finally {
    await r.close();
  }
});

test.run();
