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
import { startBridge } from '../../src/bridge/index.js';
import { createEngine } from '../../src/engine/create.js';
import { exitWithOutput } from '../support/child-exit.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** `mobilebridge run` on the virtual Android phone only, its output collected. */
function startRun(dir: string, files: string[]) {
  return spawn(process.execPath, [MAIN, 'run', ...files, '--out', join(dir, 'out'), '--target-wait', '300', '--no-android', '--no-ios', '--device', 'virtual-android-1'], {
    cwd: dir,
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Sends Ctrl-C once the run reports its first passed step; what the run printed and its exit code. */
async function interruptAfterFirstStep(child: ReturnType<typeof spawn>): Promise<{ stdout: string; stderr: string; code: number | null }> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
  const interrupted = new Promise<void>((resolve) => {
    child.stderr!.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (/passed\s+\S+/.test(stderr)) resolve();
    });
  });
  const exited = exitWithOutput(child);
  await Promise.race([interrupted, exited]);
  child.kill('SIGINT');
  const code = await exited;
  return { stdout, stderr, code };
}

test('run: Ctrl-C while failing assertions settle finishes the run as cancelled, writes the reports and exits 130', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-cancel-'));
  // 27 failing assertions each settle for a second: the interrupt lands in a settle.
  const child = startRun(dir, [join(RUNS_DIR, 'assertions_fail.json')]);
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
    const exited = exitWithOutput(child);
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

test('run: after Ctrl-C the scenarios never started are named on stdout, in junit.xml (skipped) and in report.html', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-cancel-'));
  // One phone, two scenarios: the interrupt lands in the first, the second never starts.
  const child = startRun(dir, [join(RUNS_DIR, 'assertions_fail.json'), join(RUNS_DIR, 'actions_android.json')]);
  try {
    const { stdout, stderr, code } = await interruptAfterFirstStep(child);
    assert.is(code, 130, stderr);
    const out = JSON.parse(stdout) as { data: { runs: { scenario: string; status: string }[]; not_started?: string[] } };
    assert.is(out.data.runs.length, 1, stdout);
    assert.equal(out.data.runs[0].status, 'cancelled');
    const [ran] = out.data.runs.map((r) => r.scenario);
    const never = ran.endsWith('assertions_fail.json') ? 'actions_android.json' : 'assertions_fail.json';
    assert.equal(out.data.not_started?.length, 1, stdout);
    assert.ok(out.data.not_started![0].endsWith(never), stdout);
    assert.match(stderr, /1 of 2 scenarios not started: /);
    const junit = readFileSync(join(dir, 'out', 'junit.xml'), 'utf8');
    assert.match(junit, /<testsuites name="mobilebridge" tests="2" /);
    assert.match(junit, new RegExp(`<testsuite name="not started" tests="1" failures="0" errors="0" skipped="1"[^>]*>\\n    <testcase [^>]*file="[^"]*${never.replace('.', '\\.')}"[^>]*><skipped message="not started: the run was cancelled`));
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    assert.match(html, /<h1>mobilebridge report · 0\/2 scenarios passed · 1 not started<\/h1>/);
    assert.match(html, new RegExp(`<code>[^<]*${never.replace('.', '\\.')}</code></td><td><span class="badge unreached">not started</span></td><td class="msg">not started: the run was cancelled`));
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run --bridge: after Ctrl-C the scenarios not sent to the bridge yet are named too, and the exit is 130', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-cli-cancel-'));
  const bridge = await startBridge({ engine: createEngine({ virtual: {}, android: false, ios: false }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent-mobilebridge-web', log: () => undefined });
  const child = spawn(process.execPath, [MAIN, 'run', join(RUNS_DIR, 'assertions_fail.json'), join(RUNS_DIR, 'actions_android.json'), '--bridge', bridge.wsUrl, '--device', 'virtual-android-1', '--out', join(dir, 'out')], {
    cwd: dir,
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state'), MOBILEBRIDGE_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const { stdout, stderr, code } = await interruptAfterFirstStep(child);
    assert.is(code, 130, stderr);
    const out = JSON.parse(stdout) as { data: { runs: { scenario: string }[]; not_started?: string[] } };
    assert.is(out.data.runs.length, 1, stdout);
    assert.is(out.data.not_started?.length, 1, stdout);
    assert.match(stderr, /1 of 2 scenarios not started: /);
    assert.match(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8'), /<testsuite name="not started" tests="1" failures="0" errors="0" skipped="1"/);
    // The bridge's run is reported as a local one: its steps never reached are rows of the report.
    const html = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    assert.match(html, /<tr><td><code>capture_title<\/code><\/td><td>[a-z_]+<\/td><td><span class="badge unreached">not run<\/span>/);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await bridge.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
