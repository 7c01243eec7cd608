import { dirname } from 'node:path';
import { makeFolders, writeInside } from './files/safe-fs.js';

/**
 * Writes a file so that a reader (or a crash) never sees half of it: temp file, fsync, rename
 * (SPEC §5), through files/safe-fs so that no symlink inside `root` (the output folder) moves a
 * write outside it, and a failure (DISK_FULL, PERMISSION_DENIED...) leaves no temp or 0-byte file.
 * Throws ToolError.
 */
export async function writeFileAtomic(file: string, content: string | Buffer, root = dirname(file)): Promise<void> {
  await makeFolders(root, 'create the output folder');
  await writeInside(file, content, { roots: [root], param: 'output file' }, { createFolders: true });
}
