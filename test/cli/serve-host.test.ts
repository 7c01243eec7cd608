import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exitWithOutput } from '../support/child-exit.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** Starts serve on `host`, sends SIGINT as soon as it says "Press Ctrl-C", and reports how it went. */
async function serveThenCtrlC(host: string): Promise<{ listening: boolean; stdout: string; stderr: string; code: number | null; signal: string | null }> {
  const state = mkdtempSync(join(tmpdir(), 'mb-serve-host-'));
  const child = spawn(process.execPath, [MAIN, 'serve', '--host', host, '--port', '0', '--no-android', '--no-ios', '--no-video'], {
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: state, HOME: state, MOBILEBRIDGE_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // Listening, or gone: whichever comes first decides.
    const listening = await new Promise<boolean>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        if (stdout.includes('Press Ctrl-C')) resolve(true);
      });
      child.once('exit', () => resolve(false));
    });
    if (listening) child.kill('SIGINT');
    const code = await exitWithOutput(child);
    return { listening, stdout, stderr, code, signal: child.signalCode };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(state, { recursive: true, force: true });
  }
}

test('serve: a Ctrl-C right after "Press Ctrl-C to stop" shuts the bridge down gracefully (exit 0), not kills it', async () => {
  // The window was a race: a few tries, each of which must shut down.
  for (let i = 0; i < 4; i++) {
    const r = await serveThenCtrlC('127.0.0.1');
    assert.ok(r.listening, r.stderr);
    assert.equal([r.code, r.signal], [0, null], `try ${i + 1}: ${r.stderr}`);
    assert.match(r.stderr, 'SIGINT, shutting down');
  }
});

test('serve --host [::1] (an IPv6 loopback written as in a URL) listens there instead of failing with getaddrinfo ENOTFOUND', async () => {
  const r = await serveThenCtrlC('[::1]');
  assert.ok(r.listening, r.stderr);
  assert.match(r.stdout, /bridge listening on ::1:\d+/);
  assert.match(r.stdout, /websocket\s+ws:\/\/\[::1\]:\d+\/ws/);
  assert.is(r.code, 0, r.stderr);
});

test.run();
