import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, until } from './helpers.js';

/** Issue 16 item 4: a recording survives a real SIGKILL of `mobilebridge serve`. */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(ROOT, 'dist/src/cli/main.js');

interface Serve {
  child: ChildProcess;
  wsUrl: string;
  exited: Promise<void>;
}

/** `mobilebridge serve` on a free port over a private state folder; resolves once it prints its WebSocket URL. */
function serve(state: string, started: Serve[]): Promise<Serve> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--no-android', '--no-ios'], {
    cwd: ROOT,
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: state },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const s: Serve = { child, wsUrl: '', exited };
  // Listed before it is up, so that a serve which never prints its URL is killed too.
  started.push(s);
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL within 20 s\nstdout: ${stdout}\nstderr: ${stderr}`)), 20_000);
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      const m = /websocket\s+(ws:\/\/127\.0\.0\.1:\d+\/ws)/.exec(stdout);
      if (!m) return;
      clearTimeout(timer);
      s.wsUrl = m[1];
      resolve(s);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`serve exited early (${code ?? signal})\nstderr: ${stderr}`));
    });
  });
}

async function kill(s: Serve): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  await s.exited;
}

test('a recording survives SIGKILL of mobilebridge serve: a new serve on the same state folder finds it and stops it with its steps', async () => {
  const state = mkdtempSync(join(tmpdir(), 'mb-sigkill-'));
  const started: Serve[] = [];
  try {
    const first = await serve(state, started);
    const a = await connectBridge(first.wsUrl, { reconnect: false });
    try {
      await a.requestRaw('session.hello', { client: 'agent' });
      await a.requestRaw('recording.start', { device: ANDROID, name: 'Killed mid-recording' });
      await a.requestRaw('tools.call', { tool: 'mobile_open_url', parameters: { device: ANDROID, url: 'mbdemo://screen/signin' } });
      const typed = (await a.requestRaw('verbs.run', { device: ANDROID, step: { action: 'type', target: 'the Email field', value: 'killed@example.com' } })) as { status: string };
      assert.is(typed.status, 'passed');
      const file = join(state, 'recordings', `${ANDROID}.recording.json`);
      // The step reaches the disk while the bridge runs; the kill then gives it no chance to flush anything more.
      await until('the typed step on disk', () => existsSync(file) && readFileSync(file, 'utf8').includes('killed@example.com'));
      first.child.kill('SIGKILL');
      await first.exited;
      assert.is(first.child.signalCode, 'SIGKILL');
    } finally {
      await a.close();
    }

    const second = await serve(state, started);
    const b = await connectBridge(second.wsUrl, { reconnect: false });
    try {
      await b.requestRaw('session.hello', { client: 'agent (after the crash)' });
      const status = (await b.requestRaw('recording.status', {})) as { recordings: { device: string; name: string; steps: number }[] };
      assert.equal(status.recordings.map((r) => [r.device, r.name]), [[ANDROID, 'Killed mid-recording']]);
      assert.ok(status.recordings[0].steps >= 2, `${status.recordings[0].steps} steps`);
      const stopped = (await b.requestRaw('recording.stop', { device: ANDROID })) as { scenario: { steps: { action: string; value?: string }[] }; validation: { valid: boolean } };
      assert.ok(stopped.scenario.steps.some((s) => s.action === 'type' && s.value === 'killed@example.com'), JSON.stringify(stopped.scenario.steps));
      assert.is(stopped.validation.valid, true);
      assert.equal(readdirSync(join(state, 'recordings')).filter((f) => f.endsWith('.recording.json')), [], 'removed once stopped');
    } finally {
      await b.close();
    }
  } finally {
    await Promise.all(started.map(kill));
    rmSync(state, { recursive: true, force: true });
  }
});

test.run();
