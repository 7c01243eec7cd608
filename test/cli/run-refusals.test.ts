import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deadPort } from '../support/dead-port.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const LOGIN = fileURLToPath(new URL('../../../test/fixtures/scenarios/valid/login.json', import.meta.url));
const WORK = mkdtempSync(join(tmpdir(), 'mb-run-refusals-'));
test.after(() => rmSync(WORK, { recursive: true, force: true }));

// Never the user's adb server: every run here is refused before a device is opened, and Android is off besides.
async function run(...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  const env = { ...process.env, MOBILEBRIDGE_STATE_DIR: join(WORK, 'state'), HOME: WORK };
  const r = await promisify(execFile)(process.execPath, [MAIN, 'run', LOGIN, ...args], { env, cwd: WORK }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
  return { code: r.code, json: JSON.parse(r.stdout), stderr: r.stderr };
}

test('a device flag run cannot start with is answered in run\'s shape (exit_code, error.kind), before the output folder is made', async () => {
  const cases: [string[], string][] = [
    [['--timeout', 'soon'], '--timeout must be a positive whole number of milliseconds (got soon)'],
    [['--adb', '127.0.0.1:1', '--no-android'], '--no-android turns Android off'],
    [['--timeout', 'soon', '--list'], '--timeout must be a positive whole number'],
  ];
  for (const [args, message] of cases) {
    const out = join(WORK, `out-${args.join('')}`);
    const r = await run('--no-ios', '--no-android', '--out', out, ...args);
    assert.is(r.code, 3, r.stderr);
    assert.equal([r.json.ok, r.json.data, r.json.error?.kind, r.json.exit_code], [false, { runs: [] }, 'invalid_input', 3], JSON.stringify(r.json));
    assert.match(r.json.error.message, message);
    assert.not.ok(existsSync(out), `${args.join(' ')}: --out was made for a run that never started`);
  }
});

test('no device of the platform while a device source does not answer: the refusal names the source (the adb server down), as call does', async () => {
  const port = await deadPort();
  for (const more of [[], ['--list']]) {
    const r = await run('--no-virtual', '--no-ios', '--adb', `127.0.0.1:${port}`, '--out', join(WORK, 'out-adb'), ...more);
    assert.is(r.code, 2, r.stderr);
    assert.is(r.json.error.kind, 'device');
    assert.match(r.json.error.message, 'no cross-platform device connected');
    assert.match(r.json.error.message, `not answering: source 127.0.0.1-${port}: the adb server at 127.0.0.1:${port}`);
  }
});

test.run();
