import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

import { ToolError } from '../../errors.js';
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
  const plist = info.isDirectory() ? await readFile(join(path, 'Info.plist')) : infoPlistFromIpa(await readFile(path));
  return plist ? bundleIdFromPlist(plist) : undefined;
}

/** Reads Payload/<name>.app/Info.plist out of an .ipa (a zip) through its central directory. */
function infoPlistFromIpa(zip: Buffer): Buffer | undefined {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) return undefined;
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count && zip.readUInt32LE(p) === 0x02014b50; n++) {
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLen);
    if (/^Payload\/[^/]+\.app\/Info\.plist$/.test(name)) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return method === 8 ? inflateRawSync(data) : data;
    }
    p += 46 + nameLen + extraLen + commentLen;
  }
  return undefined;
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
