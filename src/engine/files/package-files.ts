import { createRequire } from 'node:module';
import { ToolError } from '../errors.js';
import { errnoOf, fileError } from './file-error.js';
import { checkBinaryXml, CorruptBinaryXml } from './binary-xml-check.js';
import { ZipLimitError, ZipReader } from './zip-reader.js';

/**
 * Reading what an app package declares (.apk manifest, .ipa Info.plist) through the capped
 * ZipReader: a crafted archive cannot inflate past ZIP_LIMITS nor stall the event loop.
 */

export interface ApkManifest {
  package?: string;
  versionName?: string;
  application?: { label?: unknown };
}

// adbkit-apkreader ships no types and is CommonJS; only its binary-XML manifest parser is used,
// on bytes this module extracted under the caps (its own zip reading has none). Required when an
// APK is first read: with its `debug` dependency it cost every command's start ~10 ms.
type ManifestParserClass = new (content: Buffer, options?: object) => { parse(): ApkManifest };
const manifestParser = (): ManifestParserClass => createRequire(import.meta.url)('@devicefarmer/adbkit-apkreader/lib/apkreader/parser/manifest') as ManifestParserClass;

const IPA_INFO_PLIST = /^Payload\/[^/]+\.app\/Info\.plist$/;

async function entryOf(path: string, wanted: (name: string) => boolean, kind: string, expected: string): Promise<Buffer | undefined> {
  let zip: ZipReader;
  try {
    zip = await ZipReader.open(path);
  } catch (err) {
    // The OS refusing is no format problem: say so, and what to change.
    if (errnoOf(err)) {
      const refused = fileError(err, 'read', path);
      throw refused.code === 'PERMISSION_DENIED' ? new ToolError(refused.code, `${refused.message}; make it readable by the user running mobilebridge`) : refused;
    }
    throw new ToolError('INVALID_PARAMETER', `${path} is not a readable ${kind} (${(err as Error).message}); expected ${expected}`);
  }
  try {
    const entry = zip.entries.find((e) => wanted(e.name));
    return entry ? await zip.read(entry) : undefined;
  } catch (err) {
    if (err instanceof ZipLimitError) throw new ToolError('INVALID_PARAMETER', `${path} was refused: ${err.message} (an archive bomb?)`);
    throw new ToolError('INVALID_PARAMETER', `${path} is not a readable ${kind} (${(err as Error).message}); expected ${expected}`);
  } finally {
    await zip.close();
  }
}

/** The parsed AndroidManifest.xml of an .apk. Throws INVALID_PARAMETER for anything else. */
export async function readApkManifest(path: string): Promise<ApkManifest> {
  const expected = 'a zip with a binary AndroidManifest.xml';
  const content = await entryOf(path, (n) => n === 'AndroidManifest.xml', 'APK', expected);
  if (!content) throw new ToolError('INVALID_PARAMETER', `${path} is not a readable APK (it holds no AndroidManifest.xml); expected ${expected}`);
  try {
    checkBinaryXml(content);
    return new (manifestParser())(content).parse();
  } catch (err) {
    if (err instanceof CorruptBinaryXml) throw new ToolError('INVALID_PARAMETER', `${path}: its AndroidManifest.xml is ${err.message}; rebuild the APK or check the download`);
    // The parser reads past a chunk's end with Buffer reads, whose RangeError text means nothing to the user.
    if (err instanceof RangeError) throw new ToolError('INVALID_PARAMETER', `${path}: its AndroidManifest.xml is corrupt binary XML (a chunk ends before its content); rebuild the APK or check the download`);
    throw new ToolError('INVALID_PARAMETER', `${path} is not a readable APK (${(err as Error).message}); expected ${expected}`);
  }
}

/** Payload/<name>.app/Info.plist of an .ipa, or undefined when it holds none. */
export function readIpaInfoPlist(path: string): Promise<Buffer | undefined> {
  return entryOf(path, (n) => IPA_INFO_PLIST.test(n), '.ipa', 'a zip holding Payload/<name>.app/Info.plist');
}
