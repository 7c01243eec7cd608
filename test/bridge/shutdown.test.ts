import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RawClient, until } from './helpers.js';
import { exitWithOutput } from '../support/child-exit.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(ROOT, 'dist/src/cli/main.js');

const test = suite('bridge shutdown');

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(args: string[], env: NodeJS.ProcessEnv, onStdout?: (text: string, child: ReturnType<typeof spawn>) => void, timeoutMs = 20_000): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      onStdout?.(stdout, child);
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`process did not exit within ${timeoutMs} ms (open handles?)\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    void exitWithOutput(child).then((code) => {
      clearTimeout(timer);
      resolve({ code, signal: child.signalCode, stdout, stderr, ms: Date.now() - started });
    });
  });
}

test('close() leaves no open handles: the process exits by itself, even with a paused reader and subscriptions', async () => {
  const script = `
    import { startBridge } from './dist/src/bridge/index.js';
    import { createEngine } from './dist/src/engine/create.js';
    import { connectBridge } from './dist/src/protocol/node.js';
    import WebSocket from 'ws';
    const bridge = await startBridge({ engine: createEngine({ virtual: {} }), port: 0, log: () => {} });
    const client = await connectBridge(bridge.wsUrl, { client: 'child', reconnect: false });
    await client.subscribe('virtual-android-1', { screen: { format: 'png' }, elements: true });
    await client.callTool('mobile_open_url', { device: 'virtual-android-1', url: 'mbdemo://screen/home' });
    const paused = new WebSocket(bridge.wsUrl);
    await new Promise((r) => paused.once('open', r));
    paused.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'devices.subscribe', params: { device: 'virtual-android-1', screen: { format: 'png' } } }));
    await new Promise((r) => setTimeout(r, 300));
    paused._socket.pause();
    await new Promise((r) => setTimeout(r, 500));
    let closeInfo;
    client.onState((s) => { if (s === 'closed') closeInfo = s; });
    await bridge.close('test over');
    await new Promise((r) => setTimeout(r, 50));
    console.log('closed', closeInfo);
  `;
  const exit = await run(['--input-type=module', '-e', script], {});
  assert.is(exit.code, 0, exit.stderr);
  assert.match(exit.stdout, /closed closed/);
  assert.ok(exit.ms < 15_000, `took ${exit.ms} ms`);
});

test('mobilebridge serve: prints the URLs, and SIGTERM shuts down gracefully (sockets closed with a reason, exit 0)', async () => {
  const state = mkdtempSync(join(tmpdir(), 'mb-serve-'));
  let client: RawClient | undefined;
  let clientReady: Promise<void> | undefined;
  try {
    const exit = await run([MAIN, 'serve', '--port', '0', '--no-android', '--no-ios'], { MOBILEBRIDGE_STATE_DIR: state }, (stdout, child) => {
      const m = /websocket\s+(ws:\/\/127\.0\.0\.1:\d+\/ws)/.exec(stdout);
      if (!m || clientReady) return;
      clientReady = (async () => {
        client = await RawClient.open(m[1]);
        await client.call('devices.subscribe', { device: 'virtual-android-1', screen: { maxWidth: 100 }, elements: true });
        await until('a frame', () => client!.frames[0]);
        child.kill('SIGTERM');
      })();
    });
    await clientReady;
    assert.is(exit.code, 0, exit.stderr);
    assert.match(exit.stdout, /viewer\s+http:\/\/127\.0\.0\.1:\d+\//);
    assert.match(exit.stderr, /SIGTERM, shutting down/);
    await until('client saw the close', () => client!.closeEvent);
    assert.equal(client!.closeEvent, { code: 1001, reason: 'the bridge is shutting down (SIGTERM)' });
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test('mobilebridge serve refuses a non-loopback host without a token, and a busy port, with a clear message', async () => {
  const noToken = await run([MAIN, 'serve', '--host', '0.0.0.0', '--port', '0', '--no-android', '--no-ios'], { MOBILEBRIDGE_TOKEN: '' });
  assert.is(noToken.code, 3);
  assert.match(noToken.stderr, /without a token.*--token/s);
  const help = await run([MAIN, 'serve', '--help'], {});
  assert.match(help.stdout, /--allow-origin/);
});

test.run();
