import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { readIpaInfoPlist } from '../../../src/engine/files/package-files.js';

/*
 * What a package says it is built for, read as installd reads it. Both the simulator's `simctl install` and a
 * phone's `ios install` refuse a build for the other platform, so the two emulations share this reading.
 */

/** CFBundleSupportedPlatforms of an .ipa's or .app's XML Info.plist, as installd reads it; undefined when it has none. */
export async function builtFor(path: string): Promise<string[] | undefined> {
  const plist = (await stat(path).catch(() => undefined))?.isDirectory() ? await readFile(join(path, 'Info.plist')).catch(() => undefined) : await readIpaInfoPlist(path).catch(() => undefined);
  const m = /<key>CFBundleSupportedPlatforms<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(plist?.toString('utf8') ?? '');
  return m ? [...m[1].matchAll(/<string>([^<]*)<\/string>/g)].map((x) => x[1]) : undefined;
}
