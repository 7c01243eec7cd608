import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

// Below the engine on purpose: the validator reads scenario files itself (CLI, flows), and the
// engine's file gate (engine/files/safe-fs) names file kinds the same way.

const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** What a path that is not a regular file is, in words for an error message. */
export function describeKind(s: Stats): string {
  if (s.isDirectory()) return 'a folder';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** Largest scenario file read by default. */
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Synchronous read of a regular file for the CLI's validator: refuses folders, FIFOs, devices and
 * sockets without blocking, and files over `maxBytes`. Returns the text or why it cannot be read.
 */
export function readRegularTextSync(file: string, maxBytes = DEFAULT_MAX_BYTES): { text: string } | { why: string } {
  let fd: number;
  try {
    const s = statSync(file);
    if (!s.isFile()) return { why: `it is ${describeKind(s)}, not a regular file` };
    fd = openSync(file, constants.O_RDONLY | O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { why: code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'ELOOP' ? 'its symbolic links loop (or chain too deep)' : String((err as Error).message) };
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) return { why: `it is ${describeKind(s)}, not a regular file` };
    if (s.size > maxBytes) return { why: `it is ${s.size} bytes, over the limit of ${maxBytes} bytes for a scenario` };
    const buffer = Buffer.alloc(s.size);
    let at = 0;
    while (at < s.size) {
      const n = readSync(fd, buffer, at, s.size - at, at);
      if (n === 0) break;
      at += n;
    }
    return decodeText(buffer.subarray(0, at));
  } catch (err) {
    return { why: String((err as Error).message) };
  } finally {
    closeSync(fd);
  }
}

/** Where the first byte that cannot be part of a UTF-8 character lies. */
function firstBadUtf8(bytes: Buffer): number {
  for (let k = 0; k < bytes.length; ) {
    const b = bytes[k];
    const extra = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (extra < 0) return k;
    // A missing continuation, an overlong form or a surrogate: the lead byte is the one to blame.
    if (k + extra >= bytes.length || !isUtf8(bytes.subarray(k, k + extra + 1))) return k;
    k += extra + 1;
  }
  return -1;
}

function lineAndColumn(bytes: Buffer, offset: number): string {
  const before = bytes.subarray(0, offset).toString('utf8');
  const lines = before.split('\n');
  return `line ${lines.length}, column ${lines[lines.length - 1].length + 1}`;
}

/**
 * Scenario text from a file's bytes. UTF-8 is the format; UTF-16 is taken too when a byte-order
 * mark or the NULs of ASCII in UTF-16 say so (Windows PowerShell 5 writes files that way), so the
 * user gets a verdict on the scenario instead of a syntax error at a '\uFFFD'. Anything else
 * that is not UTF-8 is refused with the place of its first bad byte: decoding would turn it into
 * replacement characters that a run would type into the app.
 */
export function decodeText(bytes: Buffer): { text: string } | { why: string } {
  const [b0, b1] = bytes;
  if (bytes.length >= 4 && b0 === 0xff && b1 === 0xfe && bytes[2] === 0 && bytes[3] === 0) return { why: 'it is UTF-32 text; save it as UTF-8' };
  const le = (b0 === 0xff && b1 === 0xfe) || (bytes.length >= 2 && b0 !== 0 && b1 === 0);
  const be = (b0 === 0xfe && b1 === 0xff) || (bytes.length >= 2 && b0 === 0 && b1 !== 0);
  if (le || be) {
    if (bytes.length % 2 !== 0) return { why: `it looks like UTF-16 text but has an odd number of bytes (${bytes.length}); save it as UTF-8` };
    const units = Buffer.from(bytes);
    if (be) units.swap16();
    const text = units.toString('utf16le');
    return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  }
  if (isUtf8(bytes)) return { text: bytes.toString('utf8') };
  const at = firstBadUtf8(bytes);
  const byte = at < 0 ? 'a byte' : `the byte 0x${bytes[at].toString(16).toUpperCase().padStart(2, '0')} at ${lineAndColumn(bytes, at)}`;
  return { why: `it is not UTF-8 text: ${byte} is not part of a UTF-8 character (Latin-1 or Windows-1252 text?); save the file as UTF-8` };
}
