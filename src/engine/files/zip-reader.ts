import { open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';

const inflateRawAsync = promisify(inflateRaw);

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const CENTRAL_HEADER = 46;
/** A central directory record with the longest name, extra field and comment. */
const CENTRAL_ENTRY_MAX = CENTRAL_HEADER + 3 * 0xffff;
/** End-of-central-directory record plus the longest possible comment. */
const EOCD_SEARCH = 22 + 0xffff;

/**
 * Caps against archive bombs (issue 16): what one entry may inflate to, and what one reader may
 * inflate in total. Inflation runs on libuv's pool, never on the event loop, and stops at the cap.
 */
export const ZIP_LIMITS = { entryBytes: 16 * 1024 * 1024, totalBytes: 64 * 1024 * 1024 };

export class ZipLimitError extends Error {}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
}

/**
 * A minimal reader for ZIP archives (.ipa): lists the central directory and extracts single
 * entries (stored or deflated), reading only the parts of the file it needs. No ZIP64.
 */
export class ZipReader {
  private inflated = 0;

  private constructor(
    private readonly file: Awaited<ReturnType<typeof open>>,
    readonly entries: ZipEntry[],
  ) {}

  static async open(path: string): Promise<ZipReader> {
    const file = await open(path, 'r');
    try {
      const { size } = await file.stat();
      const tailLength = Math.min(size, EOCD_SEARCH);
      const tail = await readAt(file, size - tailLength, tailLength);
      let eocd = -1;
      for (let i = tail.length - 22; i >= 0; i--) {
        if (tail.readUInt32LE(i) === EOCD_SIGNATURE) {
          eocd = i;
          break;
        }
      }
      if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
      const count = tail.readUInt16LE(eocd + 10);
      const cdSize = tail.readUInt32LE(eocd + 12);
      const cdOffset = tail.readUInt32LE(eocd + 16);
      if (cdOffset === 0xffffffff || count === 0xffff) throw new Error('ZIP64 archives are not supported');
      // Checked before reading: a declared size of 2 GiB or more aborts the process inside fs.read.
      const eocdPosition = size - tailLength + eocd;
      if (cdOffset + cdSize > eocdPosition) throw new Error('corrupt zip end record (its central directory lies past the end record)');
      if (cdSize > Math.min(count * CENTRAL_ENTRY_MAX, ZIP_LIMITS.totalBytes)) throw new Error(`corrupt zip end record (a central directory of ${cdSize} bytes for ${count} entries)`);
      const cd = await readAt(file, cdOffset, cdSize);
      const entries: ZipEntry[] = [];
      let p = 0;
      for (let i = 0; i < count; i++) {
        if (p + CENTRAL_HEADER > cd.length || cd.readUInt32LE(p) !== CENTRAL_SIGNATURE) throw new Error('corrupt zip central directory');
        const nameLength = cd.readUInt16LE(p + 28);
        if (p + CENTRAL_HEADER + nameLength > cd.length) throw new Error('corrupt zip central directory (an entry name runs past its end)');
        entries.push({
          method: cd.readUInt16LE(p + 10),
          compressedSize: cd.readUInt32LE(p + 20),
          localHeaderOffset: cd.readUInt32LE(p + 42),
          name: cd.toString('utf8', p + CENTRAL_HEADER, p + CENTRAL_HEADER + nameLength),
        });
        p += CENTRAL_HEADER + nameLength + cd.readUInt16LE(p + 30) + cd.readUInt16LE(p + 32);
      }
      return new ZipReader(file, entries);
    } catch (err) {
      await file.close();
      throw err;
    }
  }

  /** One entry's content; throws ZipLimitError when it would pass ZIP_LIMITS. */
  async read(entry: ZipEntry, limits = ZIP_LIMITS): Promise<Buffer> {
    const allowed = Math.min(limits.entryBytes, limits.totalBytes - this.inflated);
    if (allowed <= 0) throw new ZipLimitError(`the archive inflates to more than ${limits.totalBytes} bytes in total`);
    // Deflate never shrinks data by less than nothing, so a larger compressed size means a larger entry.
    if (entry.compressedSize > (entry.method === 0 ? allowed : allowed + 65536)) throw new ZipLimitError(`${entry.name} is larger than ${allowed} bytes`);
    const header = await readAt(this.file, entry.localHeaderOffset, 30);
    if (header.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new Error(`corrupt zip entry ${entry.name}`);
    const dataStart = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
    const data = await readAt(this.file, dataStart, entry.compressedSize);
    let content: Buffer;
    if (entry.method === 0) content = data;
    else if (entry.method === 8) {
      content = await inflateRawAsync(data, { maxOutputLength: allowed }).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) throw new ZipLimitError(`${entry.name} inflates to more than ${allowed} bytes`);
        throw err;
      });
    } else throw new Error(`zip entry ${entry.name} uses unsupported compression method ${entry.method}`);
    this.inflated += content.length;
    return content;
  }

  close(): Promise<void> {
    return this.file.close();
  }
}

async function readAt(file: Awaited<ReturnType<typeof open>>, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new Error('zip archive is truncated');
  return buffer;
}
