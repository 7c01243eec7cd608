import { stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';

import { ToolError } from '../../errors.js';
import { readIpaInfoPlist } from '../../files/package-files.js';
import { readInside } from '../../files/safe-fs.js';
import { ZIP_LIMITS } from '../../files/zip-reader.js';
import type { InstalledApp } from '../../types.js';

/**
 * The bundle id an install put on the device: the one new id in the app list, or, when the app was
 * already there (a reinstall), the CFBundleIdentifier of the file's Info.plist.
 */
export async function bundleIdAfterInstall(path: string, before: InstalledApp[], after: InstalledApp[], deviceId: string): Promise<string> {
  const known = new Set(before.map((a) => a.package));
  const added = after.filter((a) => !known.has(a.package));
  if (added.length === 1) return added[0].package;
  const fromFile = await bundleIdOfFile(path).catch(() => undefined);
  if (fromFile) return fromFile;
  throw new ToolError('INTERNAL', `${path} was installed on ${deviceId}, but its bundle id could not be told (no new app appeared and its Info.plist could not be read); check mobile_list_apps`);
}

/**
 * The Info.plist of the .ipa or .app at `path`, or INVALID_PARAMETER (in the virtual device's words) when it
 * is no iOS app: checked before simctl or go-ios is handed the file, since go-ios streams a wrong file
 * to the phone before failing, and before a precondition uninstalls the app it would put back.
 */
export async function requireBundlePlist(path: string, device: string): Promise<Buffer> {
  const ext = extname(path).toLowerCase();
  if (ext !== '.ipa' && ext !== '.app') throw new ToolError('INVALID_PARAMETER', `${device} (iOS) installs .ipa or .app files; got "${basename(path)}"`);
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new ToolError('INVALID_PARAMETER', `no file at ${path}; give the path of the ${ext} to install on ${device}`);
  if (ext === '.app') {
    if (!info.isDirectory()) throw new ToolError('INVALID_PARAMETER', `${path} is not a .app bundle folder (expected a directory holding Info.plist)`);
    const plist = await readInside(join(path, 'Info.plist'), { roots: [path], param: 'Info.plist' }, { maxBytes: ZIP_LIMITS.entryBytes }).catch(() => undefined);
    if (!plist) throw new ToolError('INVALID_PARAMETER', `${path} has no Info.plist; is it an app bundle?`);
    return plist;
  }
  const plist = await readIpaInfoPlist(path);
  if (!plist) throw new ToolError('INVALID_PARAMETER', `${path} holds no Payload/<name>.app/Info.plist; is it an .ipa?`);
  return plist;
}

async function infoPlistOfFile(path: string): Promise<Buffer | undefined> {
  const info = await stat(path);
  return info.isDirectory() ? await readInside(join(path, 'Info.plist'), { roots: [path], param: 'Info.plist' }, { maxBytes: ZIP_LIMITS.entryBytes }) : await readIpaInfoPlist(path);
}

export async function bundleIdOfFile(path: string): Promise<string | undefined> {
  const plist = await infoPlistOfFile(path);
  return plist ? bundleIdFromPlist(plist) : undefined;
}

export function bundleIdFromPlist(plist: Buffer): string | undefined {
  const value = plistValue(plist, 'CFBundleIdentifier');
  return typeof value === 'string' ? value : undefined;
}

/** Where a bundle says it runs: the platforms and the Info.plist key that said so. */
export interface BundlePlatforms {
  platforms: string[];
  key: 'CFBundleSupportedPlatforms' | 'DTPlatformName';
}

/** DTPlatformName is the SDK's lower-case name (iphoneos, iphonesimulator); CFBundleSupportedPlatforms spells them iPhoneOS, iPhoneSimulator. */
const SDK_PLATFORMS: Record<string, string> = { iphoneos: 'iPhoneOS', iphonesimulator: 'iPhoneSimulator' };

/**
 * The platforms a bundle was built for. Xcode writes CFBundleSupportedPlatforms (["iPhoneSimulator"] for a simulator
 * build, ["iPhoneOS"] for a device build) and DTPlatformName (the SDK: iphonesimulator, iphoneos) into every app's
 * Info.plist; a bundle with neither (hand-made, or unreadable) says nothing.
 */
export function platformsFromPlist(plist: Buffer): BundlePlatforms | undefined {
  const supported = plistValue(plist, 'CFBundleSupportedPlatforms');
  const list = (Array.isArray(supported) ? supported : typeof supported === 'string' ? [supported] : []).filter(Boolean);
  if (list.length) return { platforms: list, key: 'CFBundleSupportedPlatforms' };
  const sdk = plistValue(plist, 'DTPlatformName');
  if (typeof sdk === 'string' && sdk) return { platforms: [SDK_PLATFORMS[sdk.toLowerCase()] ?? sdk], key: 'DTPlatformName' };
  return undefined;
}

/** A string or an array of strings in the top dictionary of an XML or binary Info.plist. */
function plistValue(plist: Buffer, key: string): string | string[] | undefined {
  if (plist.toString('latin1', 0, 8) === 'bplist00') return binaryPlistValue(plist, key);
  const text = plist.toString('utf8');
  const at = new RegExp(`<key>\\s*${key}\\s*</key>\\s*`).exec(text);
  if (!at) return undefined;
  const rest = text.slice(at.index + at[0].length);
  const str = /^<string>\s*([^<]*?)\s*<\/string>/.exec(rest);
  if (str) return str[1];
  const arr = /^<array>([\s\S]*?)<\/array>/.exec(rest);
  if (arr) return [...arr[1].matchAll(/<string>\s*([^<]*?)\s*<\/string>/g)].map((m) => m[1]);
  return undefined;
}

/** Looks a string (or an array of strings) up in the top dictionary of a binary plist (Apple's CFBinaryPList format, "bplist00"). */
function binaryPlistValue(buf: Buffer, wanted: string): string | string[] | undefined {
  const trailer = buf.length - 32;
  const offsetSize = buf[trailer + 6];
  const refSize = buf[trailer + 7];
  const top = Number(buf.readBigUInt64BE(trailer + 16));
  const tableAt = Number(buf.readBigUInt64BE(trailer + 24));
  const uint = (at: number, size: number) => buf.readUIntBE(at, size);
  const offsetOf = (ref: number) => uint(tableAt + ref * offsetSize, offsetSize);

  const lengthAt = (at: number): [number, number] => {
    const low = buf[at] & 0x0f;
    if (low !== 0x0f) return [low, at + 1];
    const intSize = 1 << (buf[at + 1] & 0x0f);
    return [uint(at + 2, intSize), at + 2 + intSize];
  };
  const stringAt = (ref: number): string | undefined => {
    const at = offsetOf(ref);
    const kind = buf[at] >> 4;
    const [len, start] = lengthAt(at);
    if (kind === 0x5) return buf.toString('latin1', start, start + len);
    if (kind === 0x6) return Buffer.from(buf.subarray(start, start + len * 2)).swap16().toString('utf16le');
    return undefined;
  };

  const valueAt = (ref: number): string | string[] | undefined => {
    const at = offsetOf(ref);
    if (buf[at] >> 4 !== 0xa) return stringAt(ref);
    const [len, start] = lengthAt(at);
    const items: string[] = [];
    for (let i = 0; i < len; i++) {
      const item = stringAt(uint(start + i * refSize, refSize));
      if (item !== undefined) items.push(item);
    }
    return items;
  };

  const dictAt = offsetOf(top);
  if (buf[dictAt] >> 4 !== 0xd) return undefined;
  const [count, start] = lengthAt(dictAt);
  for (let k = 0; k < count; k++) {
    if (stringAt(uint(start + k * refSize, refSize)) === wanted) return valueAt(uint(start + (count + k) * refSize, refSize));
  }
  return undefined;
}
