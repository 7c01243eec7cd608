import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { extname } from 'node:path';
import { ToolError } from '../../errors.js';

interface ApkReaderModule {
  open(path: string): Promise<{ readManifest(): Promise<{ package?: string }> }>;
}

// adbkit-apkreader ships no types and is CommonJS.
const require = createRequire(import.meta.url);

/** The package id inside an .apk, read on the host before anything is pushed, so a bad file fails fast and clearly. */
export async function apkPackageName(path: string, device: string): Promise<string> {
  if (extname(path).toLowerCase() !== '.apk') throw new ToolError('INVALID_PARAMETER', `${device} (Android) installs .apk files; got ${path}`);
  if (!(await stat(path).catch(() => undefined))?.isFile()) throw new ToolError('INVALID_PARAMETER', `no file at ${path}; give the path of the .apk to install on ${device}`);
  try {
    const reader = await (require('@devicefarmer/adbkit-apkreader') as ApkReaderModule).open(path);
    const pkg = (await reader.readManifest()).package;
    if (pkg) return pkg;
  } catch (err) {
    throw new ToolError('INVALID_PARAMETER', `${path} is not a readable APK (${(err as Error).message}); expected a zip with a binary AndroidManifest.xml`);
  }
  throw new ToolError('INVALID_PARAMETER', `${path}: AndroidManifest.xml names no package`);
}
