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

/**
 * A running `mobilebridge mcp` fed `lines`, until `done` says the answers so far are enough (or a
 * guard gives up, only so that a server that never answers fails instead of hanging the run).
 */
async function converse(lines: string[], done: (answers: unknown[]) => boolean): Promise<unknown[]> {
  const state = mkdtempSync(join(tmpdir(), 'mb-mcp-lines-'));
  const child = spawn(process.execPath, [MAIN, 'mcp', '--no-android', '--no-ios'], { env: { ...process.env, MOBILEBRIDGE_STATE_DIR: state }, stdio: ['pipe', 'pipe', 'ignore'] });
  const answers: unknown[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const guard = setTimeout(resolve, 20_000);
      let rest = '';
      child.on('error', reject);
      child.stdout.on('data', (d: Buffer) => {
        rest += d.toString();
        for (let end = rest.indexOf('\n'); end >= 0; end = rest.indexOf('\n')) {
          answers.push(JSON.parse(rest.slice(0, end)));
          rest = rest.slice(end + 1);
        }
        if (done(answers)) {
          clearTimeout(guard);
          resolve();
        }
      });
      for (const line of lines) child.stdin.write(line + '\n');
    });
  } finally {
    const exited = new Promise((resolve) => child.on('close', resolve));
    child.stdin.end();
    await exited;
    rmSync(state, { recursive: true, force: true });
  }
  return answers;
}

const message = (value: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', ...value });
const INITIALIZE = message({ id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'batcher', version: '1' } } });

test('a JSON-RPC batch (MCP 2025-03-26: servers MUST accept them) is answered as one array holding an answer per request', async () => {
  const batch = JSON.stringify([
    { jsonrpc: '2.0', id: 2, method: 'ping' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'list_devices', arguments: {} } },
    { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'none', progress: 1 } },
  ]);
  const answers = await converse([INITIALIZE, message({ method: 'notifications/initialized' }), batch], (a) => a.some(Array.isArray));
  const together = answers.find(Array.isArray) as { id: number; result?: any }[] | undefined;
  assert.ok(together, `no batch answer in ${JSON.stringify(answers).slice(0, 400)}`);
  assert.equal(together.map((a) => a.id).sort(), [2, 3]);
  assert.ok(together.find((a) => a.id === 3)!.result.content[0].text.includes('virtual-android-1'));
});

test('a message with an id that is not JSON-RPC 2.0 (no "jsonrpc") is answered -32600 Invalid Request instead of left waiting', async () => {
  const answers = await converse([INITIALIZE, JSON.stringify({ id: 7, method: 'ping' })], (a) => a.some((m) => (m as { id?: number }).id === 7));
  const refusal = answers.find((m) => (m as { id?: number }).id === 7) as { error?: { code: number } } | undefined;
  assert.is(refusal?.error?.code, -32600, JSON.stringify(answers).slice(0, 400));
});

test.run();
