import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** `mobilebridge mcp …` run to its end with stdin closed at once: its exit code, stdout and stderr. */
function runMcp(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const state = mkdtempSync(join(tmpdir(), 'mb-mcp-hygiene-'));
  const child = spawn(process.execPath, [MAIN, 'mcp', '--no-android', '--no-ios'], { env: { ...process.env, ...env, MOBILEBRIDGE_STATE_DIR: state }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdin.end();
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      rmSync(state, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

test('mcp that cannot start (a bad setting read as a module loads) says so on stderr only: stdout carries nothing but MCP messages', async () => {
  const { code, stdout, stderr } = await runMcp({ MOBILEBRIDGE_BACKGROUND_NICE: 'lots' });
  assert.is(stdout, '', 'the client would read this as a broken JSON-RPC message');
  assert.match(stderr, /MOBILEBRIDGE_BACKGROUND_NICE must be a whole number from 0 to 19 \(got "lots"\)/);
  assert.is(code, 3);
});

test.run();
