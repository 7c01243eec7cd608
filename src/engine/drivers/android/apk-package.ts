import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { ToolError } from '../../errors.js';
import { readApkManifest } from '../../files/package-files.js';

/** Bundles of split APKs (and Play's app bundle) that `pm install` of one file cannot take. */
const BUNDLES = new Map([
  ['.apks', 'a set of split APKs (bundletool, SAI)'],
  ['.xapk', 'a set of split APKs with their data (APKPure)'],
  ['.apkm', 'a set of split APKs (APKMirror)'],
  ['.aab', 'an Android App Bundle, which only Google Play turns into APKs'],
]);

/** The package id inside an .apk, read on the host before anything is pushed, so a bad file fails fast and clearly. */
export async function apkPackageName(path: string, device: string): Promise<string> {
  const ext = extname(path).toLowerCase();
  if (BUNDLES.has(ext)) {
    throw new ToolError('INVALID_PARAMETER', `${device} (Android) installs one .apk file; ${path} is ${BUNDLES.get(ext)}: build a universal APK from it (bundletool build-apks --mode=universal, then take universal.apk out of the .apks zip) and install that`);
  }
  if (ext !== '.apk') throw new ToolError('INVALID_PARAMETER', `${device} (Android) installs .apk files; got ${path}`);
  const found = await stat(path).catch(() => undefined);
  if (found?.isDirectory()) throw new ToolError('INVALID_PARAMETER', `${path} is a folder, not an .apk file; give the path of the .apk to install on ${device}`);
  if (!found?.isFile()) throw new ToolError('INVALID_PARAMETER', `no file at ${path}; give the path of the .apk to install on ${device}`);
  const pkg = (await readApkManifest(path)).package;
  if (pkg) return pkg;
  throw new ToolError('INVALID_PARAMETER', `${path}: AndroidManifest.xml names no package`);
}
