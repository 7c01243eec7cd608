import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Folders scenarios.run makes for a caller that names no `out` (the viewer). */
export const runFolders = (): Set<string> => new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('mobilebridge-run-')));

/** Runs `act`, then removes the run folders that came meanwhile (a refused run leaves an empty one); other suites' stay. */
export async function removingNewRunFolders(act: () => Promise<void>): Promise<void> {
  const before = runFolders();
  try {
    await act();
  } finally {
    for (const name of runFolders()) if (!before.has(name)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}
