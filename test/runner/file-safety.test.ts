import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { injectWriteFault } from '../../src/engine/files/safe-fs.js';
import { prepareOutput } from '../../src/engine/runner/index.js';
import { rig, run, scenario } from './harness.js';
import { runScenario } from '../../src/engine/runner/index.js';

/** Issue 16: the runner's files — references stay in the scenario's folder, crashes and full disks leave a true record. */
const ANDROID = 'virtual-android-1';
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function withReference(r: ReturnType<typeof rig>, reference: string) {
  const s = scenario(r, 'assertions_pass');
  const a = s.assertions.find((x) => x.type === 'screenshot_match') as { reference_screenshot: string };
  a.reference_screenshot = reference;
  return s;
}

const screenshotAssertion = (doc: { assertion_results: { type: string; status: string; message: string }[] }) => doc.assertion_results.find((x) => x.type === 'screenshot_match')!;

test('reference_screenshot escaping the scenario folder is refused at run time: nothing created outside, no existence oracle', async () => {
  const r = rig();
  try {
    const outside = join(r.dir, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'exists.png'), 'not a png');
    const base = { engine: r.engine, device: ANDROID, scenarioDir: join(r.dir, 'scenarios'), outDir: r.out, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'none' as const };
    // A path climbing out with ".." is refused before the first step, as validation refuses it.
    const created = (await runScenario({ ...base, scenario: withReference(r, '../outside/ref/baseline.png') })).document;
    assert.is(created.status, 'error');
    assert.equal(created.steps_executed, []);
    assert.match(created.summary, /reference_screenshot "\.\.\/outside\/ref\/baseline\.png" leaves the scenario's folder/);
    assert.not.ok(existsSync(join(outside, 'ref')), 'no folder created outside');
    const existing = (await runScenario({ ...base, scenario: withReference(r, '../outside/exists.png') })).document;
    assert.is(existing.summary.replaceAll('exists.png', 'X'), created.summary.replaceAll('ref/baseline.png', 'X'), 'the same answer whether or not the file exists');
    // A symlink out of the folder is seen only on disk: the run refuses it at the assertion.
    symlinkSync(outside, join(r.dir, 'scenarios', 'baselines-link'));
    const linked = screenshotAssertion((await runScenario({ ...base, scenario: withReference(r, 'baselines-link/new.png') })).document);
    assert.is(linked.status, 'error');
    assert.match(linked.message, /outside the allowed folders/);
    assert.equal(readdirSync(outside), ['exists.png']);
  } finally {
    await r.close();
  }
});

test('a full disk mid-run ends the run as error with a clear message; no temp or 0-byte files; next start marks the document interrupted', async () => {
  const r = rig();
  try {
    let writes = 0;
    injectWriteFault(() => (++writes > 3 ? Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }) : undefined));
    const { document, resultFile } = await run(r, 'assertions_pass', ANDROID, { screenshots: 'steps' });
    injectWriteFault(undefined);
    assert.is(document.status, 'error');
    assert.match(document.summary, /disk is full/);
    assert.ok(document.steps_executed.length < 11, 'the run stopped early');
    const onDisk = JSON.parse(readFileSync(resultFile, 'utf8')) as { status: string; steps_executed: unknown[] };
    assert.is(onDisk.status, 'running', 'what was written is kept as it was');
    const all = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(join(dir, e.name)) : [join(dir, e.name)]));
    for (const f of all(r.out)) {
      assert.not.match(f, /\.tmp$/, `temp file left: ${f}`);
      assert.ok(statSync(f).size > 0 || f.endsWith('.lock'), `0-byte file: ${f}`);
    }
    const recovered = await prepareOutput(r.out);
    assert.equal(recovered.interrupted, [resultFile], 'the stopped run is recovered as interrupted');
  } finally {
    injectWriteFault(undefined);
    await r.close();
  }
});

test('a document left running by a killed process is marked error (interrupted) and its temp files removed at the next start', async () => {
  const r = rig();
  try {
    const results = join(r.out, 'results');
    mkdirSync(results, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const pid = Number(dead.stdout);
    writeFileSync(join(results, 'run_20260101_000000_dead.json'), JSON.stringify({ run_id: 'run_20260101_000000_dead', status: 'running', started_at: '2026-01-01T00:00:00.000Z', steps_executed: [{ step_id: 'a' }] }));
    writeFileSync(join(results, 'run_20260101_000000_dead.lock'), String(pid));
    writeFileSync(join(results, `.run_20260101_000000_dead.json.${pid}.abcd1234.tmp`), '');
    writeFileSync(join(results, 'run_20260101_000000_live.json'), JSON.stringify({ run_id: 'run_20260101_000000_live', status: 'running' }));
    writeFileSync(join(results, 'run_20260101_000000_live.lock'), String(process.pid));
    const { interrupted, removed } = await prepareOutput(r.out);
    assert.equal(interrupted, [join(results, 'run_20260101_000000_dead.json')]);
    assert.is(removed.length, 1);
    const doc = JSON.parse(readFileSync(interrupted[0], 'utf8')) as { status: string; summary: string; steps_executed: unknown[] };
    assert.equal([doc.status, doc.steps_executed.length], ['error', 1]);
    assert.match(doc.summary, /^interrupted/);
    assert.is((JSON.parse(readFileSync(join(results, 'run_20260101_000000_live.json'), 'utf8')) as { status: string }).status, 'running', 'a live run is left alone');
  } finally {
    await r.close();
  }
});

test('run --out into /proc answers with a clear message at once', () => {
  const r = spawnSync(process.execPath, [MAIN, 'run', join(fileURLToPath(new URL('../../../test/fixtures/runs/', import.meta.url)), 'semantic_cross.json'), '--out', '/proc/mobilebridge-nope', '--no-android', '--no-ios'], { encoding: 'utf8', timeout: 60_000 });
  assert.is(r.status, 3, r.stderr);
  assert.match(r.stderr, /--out: cannot create the output folder \/proc\/mobilebridge-nope: /);
});

test('run finds and reads scenarios as validate does: a FIFO or a missing file is refused at once saying why, a folder skips node_modules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-run-read-'));
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [MAIN, 'run', ...args, '--no-android', '--no-ios'], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state') } });
  const unreadable = (r: ReturnType<typeof cli>): string => {
    assert.is(r.status, 1, r.stderr);
    const errors = (JSON.parse(r.stdout) as { data: { errors: { rule: string; message: string }[] } }).data.errors;
    assert.equal(errors.map((e) => e.rule), ['file-unreadable']);
    return errors[0].message;
  };
  try {
    const fifo = join(dir, 'pipe.json');
    execFileSync('mkfifo', [fifo]);
    // Reading a FIFO used to wait for a writer forever.
    assert.match(unreadable(cli(fifo)), /pipe\.json: it is a FIFO/);
    assert.match(unreadable(cli(join(dir, 'nothere.json'))), /nothere\.json: no such file/);
    mkdirSync(join(dir, 'suite', 'node_modules'), { recursive: true });
    copyFileSync(fileURLToPath(new URL('../../../test/fixtures/runs/semantic_cross.json', import.meta.url)), join(dir, 'suite', 'a.json'));
    writeFileSync(join(dir, 'suite', 'node_modules', 'broken.json'), '{');
    const listed = cli(join(dir, 'suite'), '--list');
    assert.is(listed.status, 0, listed.stdout + listed.stderr);
    assert.equal((JSON.parse(listed.stdout) as { data: { runs: { scenario: string }[] } }).data.runs.map((r) => r.scenario), ['suite/a.json']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
