import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { ToolError } from '../../errors.js';
import { readApkManifest } from '../../files/package-files.js';

/** The package id inside an .apk, read on the host before anything is pushed, so a bad file fails fast and clearly. */
export async function apkPackageName(path: string, device: string): Promise<string> {
  if (extname(path).toLowerCase() !== '.apk') throw new ToolError('INVALID_PARAMETER', `${device} (Android) installs .apk files; got ${path}`);
  if (!(await stat(path).catch(() => undefined))?.isFile()) throw new ToolError('INVALID_PARAMETER', `no file at ${path}; give the path of the .apk to install on ${device}`);
  const pkg = (await readApkManifest(path)).package;
  if (pkg) return pkg;
  throw new ToolError('INVALID_PARAMETER', `${path}: AndroidManifest.xml names no package`);
}
