import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planShards } from '../../scripts/test-shards.js';

const RUNNER = fileURLToPath(new URL('../../scripts/run-tests.js', import.meta.url));
const UVU = import.meta.resolve('uvu');
const ASSERT = import.meta.resolve('uvu/assert');
const ESCAPES = /\x1b\[[0-9;]*m/g;

/** A test folder of `files` (path → body of uvu tests) in a temp dir; the bodies see `test`, `assert` and `fs`. */
function suite(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mb-run-tests-'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), `import { test } from ${JSON.stringify(UVU)};\nimport * as assert from ${JSON.stringify(ASSERT)};\nimport fs from 'node:fs';\n${body}\ntest.run();\n`);
  }
  return dir;
}

function run(dir: string, jobs: number): Promise<{ code: number | null; out: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, MOBILEBRIDGE_TEST_JOBS: String(jobs) };
  delete env.MOBILEBRIDGE_STALL_MS;
  const child = spawn(process.execPath, [RUNNER, dir], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((done) => child.on('close', (code) => (clearTimeout(timer), done({ code, out: out.replace(ESCAPES, '') }))));
}

/** The summary the runner prints over all its processes. */
function summary(out: string): string {
  const from = out.indexOf('uvu processes:');
  return out.slice(from, out.indexOf('Duration:', from)).trimEnd();
}

test('planShards: every folder once, the longest first to the least busy process, never an empty process', () => {
  const shards = planShards(['android', 'ios', 'web', 'bridge', 'mcp', 'new-folder'], 3);
  assert.equal(shards.flatMap((s) => s.names).sort(), ['android', 'bridge', 'ios', 'mcp', 'new-folder', 'web']);
  assert.equal(shards.length, 3);
  // android (174 s) is alone until the other two have caught up: ios + mcp, web + bridge would be uneven otherwise.
  assert.ok(shards.some((s) => s.names.includes('android') && !s.names.includes('web') && !s.names.includes('ios')));
  assert.equal(planShards(['a', 'b'], 5).length, 2);
  assert.equal(planShards(['a', 'b', 'c'], 1)[0].names, ['a', 'b', 'c']);
});

test('the runner sums every process, runs zz-* after all the others, and fails on one failed test', async () => {
  const mark = (name: string) => `test('${name}', async () => { await new Promise((r) => setTimeout(r, 150)); fs.appendFileSync(new URL('./ran.txt', import.meta.url.replace(/[^/]*\\/[^/]*$/, '')), '${name}\\n'); });`;
  const dir = suite({
    'one/a.test.js': `${mark('a1')}\n${mark('a2')}`,
    'two/b.test.js': `${mark('b1')}\ntest('b fails', () => assert.is(1, 2));`,
    'three/c.test.js': mark('c1'),
    'zz-last.test.js': `test('every other test has run', () => assert.equal(fs.readFileSync(new URL('./ran.txt', import.meta.url), 'utf8').split('\\n').filter(Boolean).sort(), ['a1', 'a2', 'b1', 'c1']));`,
  });
  try {
    const { code, out } = await run(dir, 2);
    assert.is(code, 1, out);
    assert.match(out, /in 2 uvu processes at once/);
    assert.is(summary(out), 'uvu processes:\n  Total:     6\n  Passed:    5\n  Skipped:   0', out);
    // The end of the log names the failure with its file, though its process finished first.
    assert.match(out.slice(out.lastIndexOf('Duration:')), /Failed, again[^]*two\/b\.test\.js[^]*b fails/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the runner passes a passing suite and fails a process that dies before its summary', async () => {
  const passing = suite({ 'one/a.test.js': "test('a', () => assert.ok(true));", 'two/b.test.js': "test('b', () => assert.ok(true));" });
  const dying = suite({ 'one/a.test.js': "test('a', () => assert.ok(true));", 'two/b.test.js': "test('b', () => process.exit(0));" });
  try {
    const ok = await run(passing, 3);
    assert.is(ok.code, 0, ok.out);
    assert.is(summary(ok.out), 'uvu processes:\n  Total:     2\n  Passed:    2\n  Skipped:   0', ok.out);
    assert.not.match(ok.out, /Failed, again/);
    const died = await run(dying, 2);
    assert.is(died.code, 1, died.out);
    assert.match(died.out, /the uvu process for two exited with \d+ before printing uvu's summary/);
  } finally {
    rmSync(passing, { recursive: true, force: true });
    rmSync(dying, { recursive: true, force: true });
  }
});

test.run();
