import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { ToolError } from './errors.js';

/**
 * SPEC §2: screenshots and installs touch only the working directory, the temp
 * directory, or folders allowed explicitly. Paths are compared after resolving
 * symlinks so a link inside an allowed folder cannot point outside it.
 */
export class AllowedPaths {
  private readonly roots: string[];

  constructor(extra: readonly string[] = [], cwd = process.cwd()) {
    this.roots = [cwd, tmpdir(), ...extra.map((p) => resolve(cwd, p))];
  }

  list(): readonly string[] {
    return this.roots;
  }

  async check(path: string, param: string, cwd = process.cwd()): Promise<string> {
    const absolute = resolve(cwd, path);
    const real = await realOrParent(absolute);
    const roots = await Promise.all(this.roots.map((r) => realpath(r).catch(() => r)));
    if (roots.some((root) => isInside(real, root))) return absolute;
    throw new ToolError(
      'PERMISSION_DENIED',
      `${param} ${absolute} is outside the allowed folders (${this.roots.join(', ')}); use a path inside one of them or start mobilebridge with --allow-path <folder>`,
    );
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A file to be written does not exist yet: resolve its nearest existing ancestor instead. */
async function realOrParent(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return resolve(await realOrParent(parent), basename(path));
  }
}
