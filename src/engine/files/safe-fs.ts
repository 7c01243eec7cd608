import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ToolError } from '../errors.js';
import { describeKind } from '../../validate/regular-file.js';
import { errnoOf, fileError } from './file-error.js';

/**
 * The one place where files are read or written on a caller's behalf (issue 16). Every path is
 * judged by where it really is: after resolving symlinks, and again through the descriptor that was
 * actually opened (Linux: /proc/self/fd), so swapping a folder for a symlink between check and use
 * cannot move a write outside the roots. Writes go to a temp file inside the verified folder handle,
 * are fsynced, then renamed over the target. Only regular files are opened; FIFOs, devices and
 * sockets are refused before opening, and opens never block (O_NONBLOCK), so a FIFO can never
 * wedge libuv's thread pool. A path outside the roots gets the same answer whether or not it exists.
 */

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const HAS_PROC_FD = process.platform === 'linux';

/** Default cap of a read: scenario files, reference images and plists are far below it. */
export const DEFAULT_READ_CAP = 64 * 1024 * 1024;

export interface Roots {
  /** Absolute folders; symlinks in them are resolved once when checking. */
  readonly roots: readonly string[];
  /** The parameter name used in messages ("saveTo", "path", "--out"). */
  readonly param: string;
  /** Appended to PERMISSION_DENIED messages: how to get access. */
  readonly hint?: string;
}

export function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

async function realRoots(roots: readonly string[]): Promise<string[]> {
  return Promise.all(roots.map((r) => realpath(r).catch(() => resolve(r))));
}

function denied(where: Roots, absolute: string): ToolError {
  return new ToolError(
    'PERMISSION_DENIED',
    `${where.param} ${absolute} is outside the allowed folders (${where.roots.join(', ')})${where.hint ? `; ${where.hint}` : ''}`,
  );
}

/** The real location of a descriptor: what was opened, whatever happened to the path since. */
async function whereIs(handle: FileHandle, fallback: string): Promise<string> {
  if (!HAS_PROC_FD) return realpath(fallback);
  const target = await readlink(`/proc/self/fd/${handle.fd}`);
  return target.endsWith(' (deleted)') ? target.slice(0, -' (deleted)'.length) : target;
}

/**
 * The nearest existing ancestor's real path joined with the rest, and whether every missing part
 * is really missing (not a dangling symlink, which could point anywhere).
 */
async function realOrAncestor(absolute: string): Promise<{ real: string; exists: boolean; dangling: boolean }> {
  try {
    return { real: await realpath(absolute), exists: true, dangling: false };
  } catch {
    const link = await lstat(absolute).then((s) => s.isSymbolicLink(), () => false);
    const parent = dirname(absolute);
    if (parent === absolute) return { real: absolute, exists: false, dangling: link };
    const up = await realOrAncestor(parent);
    return { real: resolve(up.real, basename(absolute)), exists: false, dangling: link || up.dangling };
  }
}

/** Resolves `path` and throws PERMISSION_DENIED unless it really lies inside a root. Returns the real path. */
export async function realInside(path: string, where: Roots, cwd = process.cwd()): Promise<{ absolute: string; real: string; exists: boolean }> {
  const absolute = resolve(cwd, path);
  const located = await realOrAncestor(absolute);
  const roots = await realRoots(where.roots);
  if (located.dangling || !roots.some((root) => isInside(located.real, root))) throw denied(where, absolute);
  return { absolute, real: located.real, exists: located.exists };
}


export interface ReadOptions {
  /** Largest size accepted, in bytes. */
  maxBytes?: number;
  /** Accept a folder (an .app bundle): returns its real path without opening anything. */
  allowFolder?: boolean;
}

/**
 * Opens a regular file inside the roots for reading, never blocking on special files. The caller
 * closes the handle. Throws ToolError (PERMISSION_DENIED outside the roots, INVALID_PARAMETER for a
 * missing or special file or one over the size cap).
 */
export async function openRegularInside(path: string, where: Roots, options: ReadOptions = {}): Promise<{ handle: FileHandle; real: string; size: number }> {
  const { absolute, real, exists } = await realInside(path, where);
  if (!exists) throw new ToolError('INVALID_PARAMETER', `${where.param}: no file at ${absolute}`);
  const before = await stat(real).catch((err: unknown) => {
    throw fileError(err, 'read', absolute);
  });
  if (!before.isFile()) throw new ToolError('INVALID_PARAMETER', `${where.param}: ${absolute} is ${describeKind(before)}, not a regular file`);
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (err) {
    throw fileError(err, 'read', absolute);
  }
  try {
    const s = await handle.stat();
    if (!s.isFile()) throw new ToolError('INVALID_PARAMETER', `${where.param}: ${absolute} is ${describeKind(s)}, not a regular file`);
    const roots = await realRoots(where.roots);
    const opened = await whereIs(handle, real);
    if (!roots.some((root) => isInside(opened, root))) throw denied(where, absolute);
    const cap = options.maxBytes ?? DEFAULT_READ_CAP;
    if (s.size > cap) throw new ToolError('INVALID_PARAMETER', `${where.param}: ${absolute} is ${s.size} bytes, over the limit of ${cap} bytes`);
    return { handle, real, size: s.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** Reads a whole regular file inside the roots (see openRegularInside). */
export async function readInside(path: string, where: Roots, options: ReadOptions = {}): Promise<Buffer> {
  const { handle, size, real } = await openRegularInside(path, where, options);
  try {
    const buffer = Buffer.alloc(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(buffer, at, size - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === size ? buffer : buffer.subarray(0, at);
  } catch (err) {
    throw fileError(err, 'read', real);
  } finally {
    await handle.close();
  }
}

/**
 * Checks a path a driver will hand to another program (adb push, simctl install): inside the roots,
 * a regular file or (when allowed) a folder. Returns the real path so that later lookups do not
 * go through the caller's symlinks again.
 */
export async function checkReadable(path: string, where: Roots, options: ReadOptions = {}): Promise<string> {
  const { absolute, real, exists } = await realInside(path, where);
  if (!exists) throw new ToolError('INVALID_PARAMETER', `${where.param}: no file at ${absolute}`);
  const s = await stat(real).catch((err: unknown) => {
    throw fileError(err, 'read', absolute);
  });
  if (s.isDirectory() && options.allowFolder) return real;
  if (!s.isFile()) throw new ToolError('INVALID_PARAMETER', `${where.param}: ${absolute} is ${describeKind(s)}, not a regular file`);
  const cap = options.maxBytes;
  if (cap !== undefined && s.size > cap) throw new ToolError('INVALID_PARAMETER', `${where.param}: ${absolute} is ${s.size} bytes, over the limit of ${cap} bytes`);
  return real;
}

export interface WriteOptions {
  /** Create missing folders (each one inside the verified parent). */
  createFolders?: boolean;
  /** Unix mode of a new file. */
  mode?: number;
}

/**
 * Opens the folder that will hold a written file, creating missing folders one by one under a
 * verified handle. Returns the handle and the path prefix that addresses entries through it.
 */
async function openFolderInside(dir: string, where: Roots, absoluteTarget: string, create: boolean): Promise<{ handle: FileHandle; prefix: string; real: string }> {
  const located = await realOrAncestor(dir);
  const roots = await realRoots(where.roots);
  if (located.dangling || !roots.some((root) => isInside(located.real, root))) throw denied(where, absoluteTarget);
  let existing = dir;
  const missing: string[] = [];
  while (!(await lstat(existing).then(() => true, () => false))) {
    missing.unshift(basename(existing));
    existing = dirname(existing);
  }
  if (missing.length && !create) throw new ToolError('INVALID_PARAMETER', `${where.param}: cannot write ${absoluteTarget}: the folder ${dir} does not exist; create it first`);
  const start = await realpath(existing).catch((err: unknown) => {
    throw fileError(err, 'write', absoluteTarget);
  });
  let handle = await openFolder(start, absoluteTarget);
  try {
    const real = await whereIs(handle, start);
    if (!roots.some((root) => isInside(real, root))) throw denied(where, absoluteTarget);
    let realNow = real;
    for (const name of missing) {
      const child = HAS_PROC_FD ? `/proc/self/fd/${handle.fd}/${name}` : resolve(realNow, name);
      await mkdir(child).catch((err: unknown) => {
        if (errnoOf(err) !== 'EEXIST') throw fileError(err, 'create the folder for', absoluteTarget);
      });
      const next = await openFolder(child, absoluteTarget);
      await handle.close();
      handle = next;
      realNow = await whereIs(handle, resolve(realNow, name));
      if (!roots.some((root) => isInside(realNow, root))) throw denied(where, absoluteTarget);
    }
    return { handle, prefix: HAS_PROC_FD ? `/proc/self/fd/${handle.fd}` : realNow, real: realNow };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

async function openFolder(path: string, target: string): Promise<FileHandle> {
  try {
    return await open(path, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (err) {
    if (errnoOf(err) === 'ENOTDIR') throw new ToolError('INVALID_PARAMETER', `cannot write ${target}: ${path} is not a folder`);
    throw fileError(err, 'write', target);
  }
}

/**
 * `mkdir -p` without Node's recursive mkdir, which never settles under /proc (it keeps retrying a
 * parent that exists but refuses children). Each missing folder is made once; the first failure
 * is a ToolError naming the folder.
 */
export async function makeFolders(dir: string, action = 'create the folder'): Promise<void> {
  const missing: string[] = [];
  let at = resolve(dir);
  for (;;) {
    const s = await stat(at).catch(() => undefined);
    if (s) {
      if (!s.isDirectory()) throw new ToolError('INVALID_PARAMETER', `cannot ${action} ${dir}: ${at} is not a folder`);
      break;
    }
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const folder of missing) {
    await mkdir(folder).catch((err: unknown) => {
      if (errnoOf(err) !== 'EEXIST') throw fileError(err, action, folder);
    });
  }
}

/** Test hook: lets a test inject a write failure (e.g. ENOSPC) where a real full disk is impractical. */
let writeFault: ((file: string) => NodeJS.ErrnoException | undefined) | undefined;
export function injectWriteFault(fault: typeof writeFault): void {
  writeFault = fault;
}

/**
 * Writes `content` to `path` atomically inside the roots: temp file created exclusively and
 * without following links in the verified folder, fsync, rename. On failure nothing is left
 * behind (no temp file, no 0-byte target) and the target keeps its previous content.
 * Throws ToolError with a precise code (DISK_FULL, PERMISSION_DENIED, INVALID_PARAMETER).
 */
export async function writeInside(path: string, content: string | Uint8Array, where: Roots, options: WriteOptions = {}): Promise<string> {
  const absolute = resolve(path);
  const name = basename(absolute);
  // resolve() drops a trailing separator, so "shots/" is judged on the text as given.
  if (!name || name === '.' || name === '..' || path.endsWith('/') || path.endsWith(sep)) throw new ToolError('INVALID_PARAMETER', `${where.param}: ${path} names a folder; give a file name`);
  const folder = await openFolderInside(dirname(absolute), where, absolute, options.createFolders ?? false);
  const target = `${folder.prefix}/${name}`;
  const temp = `${folder.prefix}/.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const present = await lstat(target).catch(() => undefined);
    if (present && !present.isFile()) {
      throw new ToolError('INVALID_PARAMETER', `${where.param}: ${absolute} is ${describeKind(present)}; give the path of a regular file (it is replaced) or a new one`);
    }
    const file = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, options.mode ?? 0o644).catch((err: unknown) => {
      throw fileError(err, 'write', absolute);
    });
    try {
      const fault = writeFault?.(absolute);
      if (fault) throw fault;
      await file.writeFile(content);
      await file.sync();
    } catch (err) {
      await file.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
      throw fileError(err, 'write', absolute);
    }
    await file.close();
    await rename(temp, target).catch(async (err: unknown) => {
      await unlink(temp).catch(() => undefined);
      throw fileError(err, 'write', absolute);
    });
    return absolute;
  } finally {
    await folder.handle.close();
  }
}
