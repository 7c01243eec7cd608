import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import schemaCommand from '../../src/cli/commands/schema.js';
import validateCommand from '../../src/cli/commands/validate.js';
import { expandArgument, MAX_SCENARIO_BYTES, validateFiles } from '../../src/validate/files.js';
import { FIXTURES, captureStdout, readFixture } from './helpers.js';

const VALID = `${FIXTURES}/valid`;
const run = (args: string[]) => captureStdout(() => validateCommand.run(args));

test('one valid file: envelope with ok true, exit 0', async () => {
  const { code, out } = await run([`${VALID}/login.json`]);
  assert.is(code, 0);
  const env = JSON.parse(out);
  assert.equal([env.ok, env.data.valid, env.data.schema_version, env.schema_version], [true, true, '2.1', '2.1']);
});

test('one invalid file: exit 3, errors with pointer, line, column, rule', async () => {
  const { code, out } = await run([`${FIXTURES}/invalid/unknown-action.json`]);
  assert.is(code, 3);
  const env = JSON.parse(out);
  assert.equal([env.ok, env.error.kind, env.hint], [false, 'invalid_input', 'see data.errors']);
  const e = env.data.errors[0];
  assert.equal([e.rule, e.path, e.suggestion], ['unknown-action', '/steps/1/action', 'did you mean "tap"?']);
  assert.ok(e.line > 1 && e.column > 1);
});

test('a folder recurses over *.json and gives data.results[]', async () => {
  const { code, out } = await run([VALID]);
  assert.is(code, 0);
  const env = JSON.parse(out);
  assert.ok(env.data.valid);
  assert.is(env.data.results.length, expandArgument(VALID)!.length);
});

test('globs with * and **', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-validate-'));
  try {
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    for (const f of ['one.json', 'a/two.json', 'a/b/three.json', 'a/notes.txt']) writeFileSync(join(dir, f), '{}');
    assert.equal(expandArgument(`${dir}/*.json`)?.length, 1);
    assert.equal(expandArgument(`${dir}/**/*.json`)?.length, 3);
    assert.equal(expandArgument(`${dir}/a/**/t*.json`)?.length, 2);
    assert.is(expandArgument(`${dir}/*.yaml`), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file over the size limit is named with its size, and the way on is to split it into flows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-validate-big-'));
  try {
    const big = join(dir, 'huge.json');
    writeFileSync(big, Buffer.alloc(MAX_SCENARIO_BYTES + 1, 32));
    const { code, out } = await run([big]);
    assert.is(code, 1);
    const issue = JSON.parse(out).data.errors[0];
    assert.match(issue.message, `huge.json: it is ${MAX_SCENARIO_BYTES + 1} bytes, over the limit of ${MAX_SCENARIO_BYTES} bytes for a scenario`);
    assert.match(issue.suggestion, /split it: move groups of steps into flow files/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('unreadable file: exit 1, says so, other files still reported', async () => {
  const { code, out } = await run([`${VALID}/login.json`, '/nonexistent/scenario.json']);
  assert.is(code, 1);
  const env = JSON.parse(out);
  assert.is(env.error.kind, 'internal');
  assert.match(env.error.message, /cannot read \/nonexistent\/scenario.json: no such file/);
  assert.equal(env.data.results.map((r: { valid: boolean }) => r.valid), [true, false]);
  assert.is(env.data.results[1].errors[0].rule, 'file-unreadable');
});

test('scenario_id must be unique across the files validated together', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-validate-'));
  try {
    writeFileSync(join(dir, 'a.json'), readFixture('valid', 'login.json'));
    writeFileSync(join(dir, 'b.json'), readFixture('valid', 'login.json'));
    const [a, b] = validateFiles([dir]).map((o) => o.report);
    assert.ok(a.valid);
    assert.equal(b.errors.map((e) => [e.rule, e.path, e.line]), [['scenario-id-duplicate', '/scenario_id', 3]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file reached twice (a symlink beside it, or named again) is validated once, not as a duplicate scenario_id', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-validate-'));
  try {
    writeFileSync(join(dir, 'a.json'), readFixture('valid', 'login.json'));
    symlinkSync(join(dir, 'a.json'), join(dir, 'link.json'));
    const outcomes = validateFiles([dir, join(dir, 'a.json')]);
    assert.equal(outcomes.map((o) => [o.report.file, o.report.valid]), [[join(dir, 'a.json'), true]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--human shows the source line with a caret; --quiet prints nothing', async () => {
  const { code, out } = await run(['--human', `${FIXTURES}/invalid/target-is-locator.xpath.json`]);
  assert.is(code, 3);
  assert.match(out, /INVALID .*target-is-locator\.xpath\.json: 1 error/);
  assert.match(out, /error \[target-is-locator\] \/steps\/1\/target \(line \d+, column \d+\)/);
  const [source, caret] = out.split('\n').filter((l) => /^\s+\d* \| /.test(l));
  assert.match(source, /"target": "\/\/android\.widget/);
  assert.is(caret.indexOf('^'), source.indexOf('"//android'));
  const quiet = await run(['--quiet', `${FIXTURES}/invalid/json-syntax.truncated.json`]);
  assert.equal([quiet.code, quiet.out], [3, '']);
});

test('no path is a usage error with an envelope on stdout (exit 3)', async () => {
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    const { code, out } = await run([]);
    assert.is(code, 3);
    const env = JSON.parse(out);
    assert.equal([env.ok, env.error.kind, env.data.valid], [false, 'invalid_input', false]);
    assert.match(env.error.message, 'no scenario given');
  } finally {
    process.stderr.write = original;
  }
});

test('schema scenario|result prints JSON Schema', async () => {
  const scenario = await captureStdout(() => schemaCommand.run(['scenario']));
  assert.is(scenario.code, 0);
  assert.is(JSON.parse(scenario.out).$schema, 'https://json-schema.org/draft/2020-12/schema');
  const result = await captureStdout(() => schemaCommand.run(['result']));
  assert.ok(JSON.parse(result.out).properties.steps_executed);
  const original = process.stderr.write.bind(process.stderr);
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    assert.is((await captureStdout(() => schemaCommand.run(['scenarios']))).code, 3, 'a usage error');
  } finally {
    process.stderr.write = original;
  }
});

test.run();
