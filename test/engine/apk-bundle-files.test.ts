import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { apkPackageName } from '../../src/engine/drivers/android/apk-package.js';

/** What a user who hands the Android driver a bundle or a folder is told to do, before anything reaches the phone. */

const refusal = (path: string) => apkPackageName(path, 'emulator-5554').then(() => 'accepted', (err: Error & { code?: string }) => `${err.code}: ${err.message}`);

test('split-APK bundles and app bundles are refused saying how to get one installable .apk', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-bundles-'));
  try {
    for (const [name, kind] of [['app-release.apks', 'a set of split APKs'], ['game.xapk', 'a set of split APKs with their data'], ['app.aab', 'an Android App Bundle']]) {
      const file = join(dir, name);
      writeFileSync(file, 'PK');
      const r = await refusal(file);
      assert.match(r, `INVALID_PARAMETER: emulator-5554 (Android) installs one .apk file; ${file} is ${kind}`);
      assert.match(r, 'bundletool build-apks --mode=universal');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a folder named like an .apk is said to be a folder, not a missing file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-apk-folder-'));
  try {
    mkdirSync(join(dir, 'out.apk'));
    assert.is(await refusal(join(dir, 'out.apk')), `INVALID_PARAMETER: ${join(dir, 'out.apk')} is a folder, not an .apk file; give the path of the .apk to install on emulator-5554`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
