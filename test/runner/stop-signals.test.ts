import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResultDocument } from '../../src/validate/index.js';
import { validateResultValue } from '../../src/validate/index.js';
import { RUNS_DIR } from './harness.js';
import { exitWithOutput } from '../support/child-exit.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const OLD_JUNIT = '<?xml version="1.0"?><testsuites name="mobilebridge" tests="1" failures="0" errors="0"><!-- the previous, green run --></testsuites>\n';
const OLD_HTML = '<!doctype html><h1>mobilebridge report · 1/1 scenarios passed</h1><!-- the previous, green run -->\n';

/** An output folder holding the previous run's green reports, and a run into it of a scenario that takes a while (failing assertions settle). */
function startOverOldReports(dir: string) {
  mkdirSync(join(dir, 'out'), { recursive: true });
  writeFileSync(join(dir, 'out', 'junit.xml'), OLD_JUNIT);
  writeFileSync(join(dir, 'out', 'report.html'), OLD_HTML);
  return spawn(process.execPath, [MAIN, 'run', join(RUNS_DIR, 'assertions_fail.json'), '--out', join(dir, 'out'), '--target-wait', '300', '--no-android', '--no-ios', '--device', 'virtual-android-1'], {
    cwd: dir,
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state'), HOME: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Sends `signal` once the run reports its first passed step; what the run printed and its exit code. */
async function signalAfterFirstStep(child: ReturnType<typeof spawn>, signal: NodeJS.Signals): Promise<{ stdout: string; stderr: string; code: number | null; signalled: NodeJS.Signals | null }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
  const reached = new Promise<void>((resolve) => {
    child.stderr!.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (/passed\s+\S+/.test(stderr)) resolve();
    });
  });
  const exited = exitWithOutput(child);
  await Promise.race([reached, exited]);
  child.kill(signal);
  const code = await exited;
  return { stdout, stderr, code, signalled: child.signalCode };
}

for (const [signal, exitCode] of [['SIGTERM', 143], ['SIGHUP', 129]] as const) {
  test(`run: ${signal} (a CI timeout or cancel, docker stop, a closed terminal) cancels as Ctrl-C does: cancelled documents, this run's reports, exit ${exitCode}`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mb-stop-signal-'));
    const child = startOverOldReports(dir);
    try {
      const { stdout, stderr, code, signalled } = await signalAfterFirstStep(child, signal);
      assert.is(signalled, null, `killed by ${signalled}, not cancelled: ${stderr}`);
      assert.is(code, exitCode, stderr);
      assert.match(stderr, `cancelling (the result documents are finished as cancelled; Ctrl-C again to quit at once) [${signal} received]`);
      const out = JSON.parse(stdout) as { data: { runs: { status: string; result: string }[] }; exit_code: number };
      assert.is(out.exit_code, exitCode);
      assert.equal(out.data.runs.map((r) => r.status), ['cancelled']);
      const doc = JSON.parse(readFileSync(out.data.runs[0].result, 'utf8')) as ResultDocument;
      assert.is(doc.status, 'cancelled');
      assert.equal(validateResultValue(doc), []);
      assert.equal(readdirSync(join(dir, 'out', 'results')).filter((f) => f.endsWith('.lock')), [], 'the run id lock is given back');
      const junit = readFileSync(join(dir, 'out', 'junit.xml'), 'utf8');
      assert.not.match(junit, 'the previous, green run');
      assert.match(junit, /<testcase [^>]*file="[^"]*assertions_fail\.json"[^>]*><skipped message="cancelled after/);
      assert.not.match(readFileSync(join(dir, 'out', 'report.html'), 'utf8'), 'the previous, green run');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('run: killed outright (SIGKILL, an OOM kill), it leaves an "incomplete run" junit.xml and report.html, never the previous run\'s', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-stop-signal-'));
  const child = startOverOldReports(dir);
  try {
    const { signalled } = await signalAfterFirstStep(child, 'SIGKILL');
    assert.is(signalled, 'SIGKILL');
    const junit = readFileSync(join(dir, 'out', 'junit.xml'), 'utf8');
    assert.not.match(junit, 'the previous, green run');
    assert.match(junit, /<testsuites name="mobilebridge" tests="1" failures="0" errors="1">/);
    assert.match(junit, /<testsuite name="incomplete run" tests="1" failures="0" errors="1" skipped="0"/);
    assert.match(junit, new RegExp(`<testcase classname="[^"]+" name="[^"]+" file="[^"]*assertions_fail\\.json" time="0.000"><error message="the run started at [^"]+ \\(pid ${child.pid}\\) has not written its results: it is still running, or it stopped before it could[^"]*" type="INCOMPLETE_RUN"/><\\/testcase>`));
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    assert.not.match(html, 'the previous, green run');
    assert.match(html, '<h1>mobilebridge report · incomplete run</h1>');
    assert.match(html, /assertions_fail\.json/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
