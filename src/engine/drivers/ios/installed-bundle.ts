import { stat } from 'node:fs/promises';
import { join } from 'node:path';

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

export async function bundleIdOfFile(path: string): Promise<string | undefined> {
  const info = await stat(path);
  const plist = info.isDirectory() ? await readInside(join(path, 'Info.plist'), { roots: [path], param: 'Info.plist' }, { maxBytes: ZIP_LIMITS.entryBytes }) : await readIpaInfoPlist(path);
  return plist ? bundleIdFromPlist(plist) : undefined;
}


export function bundleIdFromPlist(plist: Buffer): string | undefined {
  if (plist.toString('latin1', 0, 8) === 'bplist00') return binaryPlistString(plist, 'CFBundleIdentifier');
  const m = /<key>\s*CFBundleIdentifier\s*<\/key>\s*<string>\s*([^<]+?)\s*<\/string>/.exec(plist.toString('utf8'));
  return m?.[1];
}

/** Looks a string up in the top dictionary of a binary plist (Apple's CFBinaryPList format, "bplist00"). */
function binaryPlistString(buf: Buffer, wanted: string): string | undefined {
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

  const dictAt = offsetOf(top);
  if (buf[dictAt] >> 4 !== 0xd) return undefined;
  const [count, start] = lengthAt(dictAt);
  for (let k = 0; k < count; k++) {
    if (stringAt(uint(start + k * refSize, refSize)) === wanted) return stringAt(uint(start + (count + k) * refSize, refSize));
  }
  return undefined;
}
