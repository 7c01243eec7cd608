import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

/**
 * Two runs given the same --out each rewrote junit.xml and report.html with their own scenarios,
 * so the first run's stdout pointed at reports that no longer held its results.
 */
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const LOGIN = fileURLToPath(new URL('../../../test/fixtures/scenarios/valid/login.json', import.meta.url));

function run(dir: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, 'run', LOGIN, '--out', join(dir, 'out'), '--no-android', '--no-ios', '--device', 'virtual-android-1'], { cwd: dir, env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state') } }, (err, stdout) =>
      resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout }),
    );
  });
}

test('an output folder another live run writes to is refused (exit 3), naming that run; a lock left by a process that is gone is taken over', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-out-claim-'));
  // A live process that is not the run: a sleeping child of this test.
  const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  try {
    mkdirSync(join(dir, 'out'), { recursive: true });
    writeFileSync(join(dir, 'out', '.run.lock'), `${other.pid}\n`);
    const refused = await run(dir);
    assert.is(refused.code, 3, refused.stdout);
    const envelope = JSON.parse(refused.stdout) as { error: { message: string } };
    assert.match(envelope.error.message, `--out out: another run (pid ${other.pid}) is writing to this folder`);
    assert.not.ok(existsSync(join(dir, 'out', 'junit.xml')), 'nothing written');

    other.kill('SIGKILL');
    await new Promise((r) => other.once('exit', r));
    const took = await run(dir);
    assert.is(took.code, 0, took.stdout);
    assert.match(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8'), /login_success/);
    assert.not.ok(existsSync(join(dir, 'out', '.run.lock')), 'released at the end');
  } finally {
    other.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
