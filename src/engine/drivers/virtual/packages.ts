import { stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { ToolError } from '../../errors.js';
import { BinaryPlistError, readPlistStrings } from './plist.js';
import type { DeviceProfile } from './profile.js';
import { readInside } from '../../files/safe-fs.js';
import { ZIP_LIMITS } from '../../files/zip-reader.js';
import { readApkManifest, readIpaInfoPlist, type ApkManifest } from '../../files/package-files.js';

export interface PackageInfo {
  package: string;
  name: string;
  version: string;
}


function lastSegment(id: string): string {
  const tail = id.split('.').pop() ?? id;
  return tail.charAt(0).toUpperCase() + tail.slice(1);
}

/** Reads the package id, name and version out of an .apk, .ipa or .app for the given device. */
export async function readInstallable(path: string, profile: DeviceProfile): Promise<PackageInfo> {
  const device = `${profile.info.id} (${profile.info.os})`;
  const ext = extname(path).toLowerCase();
  if (!profile.packageExtensions.includes(ext)) {
    throw new ToolError('INVALID_PARAMETER', `${device} installs ${profile.packageExtensions.join(' or ')} files; got "${basename(path)}"`);
  }
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new ToolError('INVALID_PARAMETER', `no file at ${path}; give the path of the ${ext} to install on ${profile.info.id}`);
  if (ext === '.apk') return readApk(path);
  if (ext === '.app') {
    if (!info.isDirectory()) throw new ToolError('INVALID_PARAMETER', `${path} is not a .app bundle folder (expected a directory holding Info.plist)`);
    const plist = await readInside(join(path, 'Info.plist'), { roots: [path], param: 'Info.plist' }, { maxBytes: ZIP_LIMITS.entryBytes }).catch(() => undefined);
    if (!plist) throw new ToolError('INVALID_PARAMETER', `${path} has no Info.plist; is it an app bundle?`);
    return fromPlist(plist, path);
  }
  return readIpa(path);
}

async function readApk(path: string): Promise<PackageInfo> {
  const manifest: ApkManifest = await readApkManifest(path);
  if (!manifest.package) throw new ToolError('INVALID_PARAMETER', `${path}: AndroidManifest.xml names no package`);
  const label = manifest.application?.label;
  return {
    package: manifest.package,
    name: typeof label === 'string' && label && !label.startsWith('@') ? label : lastSegment(manifest.package),
    version: manifest.versionName ?? '1.0',
  };
}

async function readIpa(path: string): Promise<PackageInfo> {
  const plist = await readIpaInfoPlist(path);
  if (!plist) throw new ToolError('INVALID_PARAMETER', `${path} holds no Payload/<name>.app/Info.plist; is it an .ipa?`);
  return fromPlist(plist, path);
}

function fromPlist(content: Buffer, path: string): PackageInfo {
  let values: Record<string, string>;
  try {
    values = readPlistStrings(content);
  } catch (err) {
    const why = err instanceof BinaryPlistError
      ? 'its Info.plist is a binary property list, which this virtual device cannot read; convert it with `plutil -convert xml1`'
      : `its Info.plist is unreadable (${(err as Error).message})`;
    throw new ToolError('INVALID_PARAMETER', `${path}: ${why}`);
  }
  const id = values.CFBundleIdentifier;
  if (!id) throw new ToolError('INVALID_PARAMETER', `${path}: Info.plist has no CFBundleIdentifier`);
  return {
    package: id,
    name: values.CFBundleDisplayName || values.CFBundleName || lastSegment(id),
    version: values.CFBundleShortVersionString || values.CFBundleVersion || '1.0',
  };
}
