import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { decodeText, type UndecodableText } from './text-decode.js';

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
export function readRegularTextSync(file: string, maxBytes = DEFAULT_MAX_BYTES): { text: string } | { why: string; undecodable?: UndecodableText } {
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
    const decoded = decodeText(buffer.subarray(0, at));
    // Read, but not text we take: the caller reports it as the file's content problem, with its place.
    return 'text' in decoded ? decoded : { why: `it is ${decoded.problem}; save the file as UTF-8`, undecodable: decoded };
  } catch (err) {
    return { why: String((err as Error).message) };
  } finally {
    closeSync(fd);
  }
}
