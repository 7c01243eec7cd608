import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const LOGIN = fileURLToPath(new URL('../../../test/fixtures/scenarios/valid/login.json', import.meta.url));
const WORK = mkdtempSync(join(tmpdir(), 'mb-state-folder-'));
// A state "folder" that is a file: every command that keeps the virtual phones' state must refuse it.
const NOT_A_FOLDER = join(WORK, 'state.json');
writeFileSync(NOT_A_FOLDER, '{}');
test.after(() => rmSync(WORK, { recursive: true, force: true }));

async function mb(...args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  const env = { ...process.env, MOBILEBRIDGE_STATE_DIR: NOT_A_FOLDER, HOME: WORK };
  const r = await promisify(execFile)(process.execPath, [MAIN, ...args], { env, cwd: WORK }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => err,
  );
  return { code: r.code, json: JSON.parse(r.stdout), stderr: r.stderr };
}

const REFUSAL = `the virtual phones keep their state in ${NOT_A_FOLDER} (MOBILEBRIDGE_STATE_DIR), but it is a file, not a folder`;

test('reset and call --reset with a state folder that is a file: refused as without --reset (exit 3), not INTERNAL with the raw errno', async () => {
  for (const args of [['reset'], ['call', 'mobile_get_screen_size', '{"device":"virtual-android-1"}', '--reset', '--no-android', '--no-ios']]) {
    const r = await mb(...args);
    assert.is(r.code, 3, r.stderr);
    assert.is(r.json.code, 'INVALID_PARAMETER', args[0]);
    assert.match(r.json.message, REFUSAL);
    assert.not.match(r.json.message, 'ENOTDIR');
  }
});

test('run --reset with a state folder that is a file: refused in run\'s own shape, exit 3', async () => {
  const r = await mb('run', LOGIN, '--reset', '--no-virtual', '--no-android', '--no-ios', '--out', join(WORK, 'out'));
  assert.is(r.code, 3, r.stderr);
  assert.equal([r.json.ok, r.json.data, r.json.error.kind, r.json.exit_code], [false, { runs: [] }, 'invalid_input', 3]);
  assert.match(r.json.error.message, REFUSAL);
});

test.run();
