import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { claimRunId } from '../../src/engine/runner/recover.js';
import { newRunId, paths } from '../../src/engine/runner/result-file.js';
import { run, rig } from './harness.js';

const AT = new Date(Date.UTC(2026, 10, 29, 9, 30, 5));
const draws = (...suffixes: string[]) => () => suffixes.shift() ?? 'ffff';

test('a run id held by a live run, or whose result document exists, is not taken again: a new suffix is drawn', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mb-runid-'));
  try {
    mkdirSync(join(out, 'results'));
    // A run of the same second still going (its lock), and one that has finished (its document).
    writeFileSync(paths.result(out, newRunId(AT, 'aaaa')).replace(/\.json$/, '.lock'), '1');
    writeFileSync(paths.result(out, newRunId(AT, 'bbbb')), '{"status":"passed"}');
    const claim = await claimRunId(out, AT, draws('aaaa', 'bbbb', 'cccc'));
    assert.is(claim.runId, 'run_20261129_093005_cccc');
    const lock = paths.result(out, claim.runId).replace(/\.json$/, '.lock');
    assert.is(readFileSync(lock, 'utf8'), String(process.pid));
    // The other runs' files are left as they were.
    assert.is(readFileSync(paths.result(out, newRunId(AT, 'aaaa')).replace(/\.json$/, '.lock'), 'utf8'), '1');
    assert.is(readFileSync(paths.result(out, newRunId(AT, 'bbbb')), 'utf8'), '{"status":"passed"}');
    assert.not.ok(existsSync(paths.result(out, newRunId(AT, 'bbbb')).replace(/\.json$/, '.lock')), 'the lock taken for the finished run\'s id is given back');
    await claim.release();
    assert.not.ok(existsSync(lock));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('two runs that draw the same id at once end up with two ids', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mb-runid-'));
  try {
    const [a, b] = await Promise.all([claimRunId(out, AT, draws('abcd', '0001')), claimRunId(out, AT, draws('abcd', '0002'))]);
    assert.is.not(a.runId, b.runId);
    assert.ok([a.runId, b.runId].includes('run_20261129_093005_abcd'));
    await Promise.all([a.release(), b.release()]);
    assert.equal(readdirSync(join(out, 'results')), []);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a source stuck on one suffix still gets an id (a longer suffix after a few draws)', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mb-runid-'));
  try {
    const first = await claimRunId(out, AT, () => 'dead');
    const second = await claimRunId(out, AT, () => 'dead');
    assert.is(first.runId, 'run_20261129_093005_dead');
    assert.match(second.runId, /^run_20261129_093005_[0-9a-f]{8}$/);
    await Promise.all([first.release(), second.release()]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a run holds its id\'s lock while it runs and gives it back at the end', async () => {
  const r = rig();
  try {
    let locked: string[] = [];
    const { document: d, resultFile } = await run(r, 'flow_control', 'virtual-android-1', {
      onProgress: (e) => {
        if (e.type === 'started') locked = readdirSync(join(r.out, 'results')).filter((n) => n.endsWith('.lock'));
      },
    });
    assert.equal(locked, [`${d.run_id}.lock`]);
    assert.ok(existsSync(resultFile));
    assert.equal(readdirSync(join(r.out, 'results')).filter((n) => n.endsWith('.lock')), []);
  } finally {
    await r.close();
  }
});

test.run();
