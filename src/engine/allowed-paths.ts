import { tmpdir } from 'node:os';
import { parse, resolve } from 'node:path';
import { checkReadable, readInside, realInside, writeInside, type ReadOptions, type Roots, type WriteOptions } from './files/safe-fs.js';

const HINT = 'use a path inside one of them or start mobilebridge with --allow-path <folder>';

/**
 * SPEC §2: screenshots, installs and saved scenarios touch only the working directory, the temp
 * directory, or folders allowed explicitly. Every access goes through files/safe-fs, which judges
 * paths by where they really are (symlinks resolved, descriptors verified) and refuses special files.
 */
export class AllowedPaths {
  private readonly roots: string[];

  constructor(extra: readonly string[] = [], cwd = process.cwd()) {
    // A working directory that is the filesystem's root (a service, or an MCP client that starts its
    // servers in /) would allow every path on the machine: then only the temp and --allow-path folders count.
    const working = cwd === parse(cwd).root ? [] : [cwd];
    this.roots = [...new Set([...working, tmpdir(), ...extra.map((p) => resolve(cwd, p))])];
  }

  list(): readonly string[] {
    return this.roots;
  }

  private where(param: string): Roots {
    return { roots: this.roots, param, hint: HINT };
  }

  /** Throws PERMISSION_DENIED unless the path really lies inside a root; returns the absolute path. */
  async check(path: string, param: string, cwd = process.cwd()): Promise<string> {
    return (await realInside(path, this.where(param), cwd)).absolute;
  }

  /** A regular file (or, when allowed, a folder) a driver will hand to another program; returns its real path. */
  readable(path: string, param: string, options?: ReadOptions): Promise<string> {
    return checkReadable(path, this.where(param), options);
  }

  read(path: string, param: string, options?: ReadOptions): Promise<Buffer> {
    return readInside(path, this.where(param), options);
  }

  /** Atomic write (temp file, fsync, rename) inside the verified folder; returns the written path. */
  write(path: string, param: string, content: string | Uint8Array, options?: WriteOptions): Promise<string> {
    return writeInside(path, content, this.where(param), options);
  }
}
