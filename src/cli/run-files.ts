/**
 * The scenario files `mobilebridge run` is given: folders and globs expanded as `validate` does,
 * each file once, and the run's own output folder left out.
 */
import { statSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { isInside } from '../engine/files/safe-fs.js';
import { expandArgument, fileKey, outputFolders } from '../validate/files.js';

export interface FoundFile {
  file: string;
  /** The folder the file was given through (its own folder for a file named directly). */
  root: string;
}

/**
 * The files the arguments name (folders recursed without node_modules, dot folders, FIFOs or
 * devices; globs expanded), the first time each real file is met: a file given twice, or a
 * folder and a file inside it, runs once. A name that matches nothing is kept, so that reading it
 * reports why.
 *
 * What a run writes is not a scenario: `run .` after `run .` would otherwise find the results and
 * resolution caches of the first under ./mobilebridge-out and refuse them as invalid. So folder
 * and glob expansion skips the output folder; when the folder searched is the output folder or
 * lies inside it (`--out .`), only the run's own results/ and cache/ are skipped. A file named
 * directly is always taken.
 */
export function scenarioFiles(inputs: string[], outDir: string): { files: FoundFile[]; skipped: boolean } {
  const files: FoundFile[] = [];
  const seen = new Set<string>();
  let skipped = false;
  for (const input of inputs) {
    const path = resolve(input);
    const folder = statSync(path, { throwIfNoEntry: false })?.isDirectory();
    const expanded = expandArgument(path);
    const leftOut = outputFolders(folder ? path : undefined, outDir);
    for (const file of expanded ?? [path]) {
      const key = fileKey(file);
      if (seen.has(key)) continue;
      if (expanded && (folder || /[*?]/.test(input)) && leftOut.some((dir) => isInside(key, dir))) {
        skipped = true;
        continue;
      }
      seen.add(key);
      files.push({ file, root: folder ? path : dirname(file) });
    }
  }
  return { files, skipped };
}

/** JUnit classname: the file's folder from the folder the run was given, dotted ("suite.ios"), the same on every machine. */
export function folderName({ file, root }: FoundFile): string {
  return [basename(root), ...relative(root, dirname(file)).split(sep)].filter(Boolean).join('.');
}
