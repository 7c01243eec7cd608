/**
 * Runs started over the bridge without `out` write into a temporary folder the bridge made; those
 * folders go when the run is forgotten, so a long-lived bridge does not fill the temp folder. A
 * caller's own `out` folder is never removed.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RunFiles, TEMP_RUN_PREFIX } from '../../src/bridge/run-files.js';

async function until(condition: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 5000; !condition(); ) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('a forgotten run takes its temporary folder along, never a caller-given one', async () => {
  const own = mkdtempSync(join(tmpdir(), 'mb-test-out-'));
  const made = [mkdtempSync(join(tmpdir(), TEMP_RUN_PREFIX)), mkdtempSync(join(tmpdir(), TEMP_RUN_PREFIX))];
  // Flagged temporary but not one the bridge could have made: must survive too.
  const elsewhere = join(own, `${TEMP_RUN_PREFIX}x`);
  mkdirSync(elsewhere);
  try {
    const files = new RunFiles(1);
    files.add('run_1', made[0], 'login', true);
    files.add('run_2', own, 'login');
    await until(() => !existsSync(made[0]), 'the first temporary folder is gone');
    files.add('run_3', elsewhere, 'login', true);
    files.add('run_4', made[1], 'login', true);
    files.add('run_5', own, 'login');
    await until(() => !existsSync(made[1]), 'the second temporary folder is gone');
    assert.ok(existsSync(own), "the caller's out folder stays");
    assert.ok(existsSync(elsewhere), 'a folder outside the temp folder is never removed');
  } finally {
    for (const dir of [own, ...made]) rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
