import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResultDocument } from '../../src/validate/index.js';
import { validateResultValue } from '../../src/validate/index.js';
import { RUNS_DIR } from './harness.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

test('run: Ctrl-C while failing assertions settle finishes the run as cancelled, writes the reports and exits 130', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-cancel-'));
  // 27 failing assertions each settle for a second: the interrupt lands in a settle.
  const child = spawn(process.execPath, [MAIN, 'run', join(RUNS_DIR, 'assertions_fail.json'), '--out', join(dir, 'out'), '--target-wait', '300', '--no-android', '--no-ios', '--device', 'virtual-android-1'], {
    cwd: dir,
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    const interrupted = new Promise<void>((resolve) => {
      child.stderr.on('data', (b: Buffer) => {
        stderr += b.toString();
        // tap_email has failing assertions after it: it is settling them right now.
        if (/passed\s+tap_email/.test(stderr)) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await Promise.race([interrupted, exited]);
    child.kill('SIGINT');
    const code = await exited;
    assert.is(code, 130, stderr);
    assert.not.match(stderr, /INTERNAL/);
    const out = JSON.parse(stdout) as { data: { runs: { status: string; result: string }[] }; exit_code: number };
    assert.equal(out.data.runs.map((r) => r.status), ['cancelled']);
    const doc = JSON.parse(readFileSync(out.data.runs[0].result, 'utf8')) as ResultDocument;
    assert.is(doc.status, 'cancelled');
    assert.equal(validateResultValue(doc), []);
    assert.ok(doc.assertion_results.some((a) => a.status === 'skipped'), 'undecided checks are skipped');
    assert.ok(existsSync(join(dir, 'out', 'junit.xml')));
    assert.ok(existsSync(join(dir, 'out', 'report.html')));
    assert.equal(readdirSync(join(dir, 'out', 'results')).length, 1);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
