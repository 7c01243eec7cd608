import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocketServer } from 'ws';
import { loadSharp } from '../../src/engine/screen/sharp.js';
import { validateResultValue } from '../../src/validate/index.js';
import { RUNS_DIR } from './harness.js';
import { passedResult } from './result-doc.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** A result document as a bridge answers scenarios.run, valid unless the test spoils it. */
function answer(change: (doc: Record<string, any>) => void): Record<string, unknown> {
  const doc = passedResult({ runId: 'run_20260101_120000_abcd', scenarioId: 'actions_android', device: 'virtual-android-1', stepId: 'launch', environment: 'x' });
  change(doc);
  return { ...doc, result_file: '/tmp/elsewhere/result.json' };
}

/** A stand-in bridge that answers scenarios.run with `result`: what a buggy or compromised bridge (or a peer behind one) can send. */
async function fakeBridge(result: Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws' });
  await new Promise<void>((resolve, reject) => (wss.once('listening', resolve), wss.once('error', reject)));
  wss.on('connection', (ws) =>
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; method: string };
      if (msg.id === undefined) return;
      const reply = msg.method === 'session.hello' ? { session: 's1', server: { name: 'mobilebridge', version: '0.1.0' }, protocol: 1, resumed: false } : msg.method === 'scenarios.run' ? result : {};
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: reply }));
    }),
  );
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws`,
    close: () => new Promise<void>((resolve) => (wss.clients.forEach((c) => c.terminate()), wss.close(() => resolve()))),
  };
}

async function runThrough(dir: string, bridge: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = [MAIN, 'run', join(RUNS_DIR, 'actions_android.json'), '--bridge', bridge, '--device', 'virtual-android-1', '--out', join(dir, 'work', 'out')];
  return promisify(execFile)(process.execPath, args, { cwd: dir, env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state'), HOME: dir, MOBILEBRIDGE_TOKEN: '' }, timeout: 60_000, killSignal: 'SIGKILL' }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

async function withBridge(result: Record<string, unknown>, check: (dir: string, r: { code: number; stdout: string; stderr: string }) => void | Promise<void>, before?: (dir: string) => void | Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mb-bridge-answers-'));
  const bridge = await fakeBridge(result);
  try {
    await before?.(dir);
    await check(dir, await runThrough(dir, bridge.url));
  } finally {
    await bridge.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('the stand-in answer is a valid result document (so the refusals below are for what each test spoils)', () => {
  const { result_file: _f, ...doc } = answer(() => undefined);
  assert.equal(validateResultValue(doc), []);
});

test('run --bridge: a run_id that is a path is refused (exit 2), and nothing is written outside --out', async () => {
  await withBridge(
    answer((d) => (d.run_id = '../../../ESCAPED')),
    (dir, r) => {
      assert.is(r.code, 2, r.stderr);
      assert.match(r.stderr, 'the bridge answered');
      assert.match(r.stderr, 'with no valid result document (/run_id: ');
      assert.match(r.stderr, 'nothing was written for it');
      assert.not.ok(existsSync(join(dir, 'ESCAPED.json')), 'written outside --out');
      assert.equal(readdirSync(join(dir, 'work', 'out', 'results')), []);
    },
  );
});

test('run --bridge: a status outside the result schema (markup) is refused, not written into report.html with exit 0', async () => {
  await withBridge(
    answer((d) => (d.steps_executed[0].status = '"><img src=x onerror=alert(1)>')),
    (dir, r) => {
      assert.is(r.code, 2, r.stderr);
      assert.match(r.stderr, '/steps_executed/0/status: ');
      assert.not.match(readFileSync(join(dir, 'work', 'out', 'report.html'), 'utf8'), '<img src=x');
    },
  );
});

test('run --bridge: a run_id a run here already has is written under a new id, the earlier document kept', async () => {
  const earlier = '{"earlier": true}\n';
  await withBridge(
    answer(() => undefined),
    (dir, r) => {
      assert.is(r.code, 0, r.stderr);
      const results = join(dir, 'work', 'out', 'results');
      assert.is(readFileSync(join(results, 'run_20260101_120000_abcd.json'), 'utf8'), earlier);
      const written = JSON.parse(r.stdout).data.runs[0].result as string;
      assert.ok(written.startsWith(results), written);
      const doc = JSON.parse(readFileSync(written, 'utf8')) as { run_id: string };
      assert.match(doc.run_id, /^run_\d{8}_\d{6}_[0-9a-f]+$/);
      assert.is.not(doc.run_id, 'run_20260101_120000_abcd');
      assert.is(written, join(results, `${doc.run_id}.json`));
      assert.match(r.stderr, `the bridge's run id run_20260101_120000_abcd is taken here by another run: its result document is results/${doc.run_id}.json`);
      assert.equal(readdirSync(results).filter((f) => f.endsWith('.lock')), []);
    },
    (dir) => {
      mkdirSync(join(dir, 'work', 'out', 'results'), { recursive: true });
      writeFileSync(join(dir, 'work', 'out', 'results', 'run_20260101_120000_abcd.json'), earlier);
    },
  );
});

test('run --bridge: a screenshot path outside --out is not read into report.html', async () => {
  await withBridge(
    answer((d) => (d.steps_executed[0].screenshot = '../../private.png')),
    (dir, r) => {
      assert.is(r.code, 0, r.stderr);
      const html = readFileSync(join(dir, 'work', 'out', 'report.html'), 'utf8');
      assert.not.match(html, 'data:image/jpeg', 'the file outside --out was inlined');
      assert.match(html, 'missing ../../private.png');
    },
    async (dir) => {
      const sharp = await loadSharp();
      writeFileSync(join(dir, 'private.png'), await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } }).png().toBuffer());
    },
  );
});

test.run();
