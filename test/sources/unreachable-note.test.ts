import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deadPort } from '../support/dead-port.js';
import { startBridge } from '../../src/bridge/index.js';
import { createEngine } from '../../src/engine/create.js';
import { exitWithOutput } from '../support/child-exit.js';

/** A source that does not answer lists no devices, so `devices` says why on stderr; its JSON stays the tool's result. */
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function devices(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Through --bridge the device options are the bridge's own, and refused here.
  const local = args.includes('--bridge') ? [] : ['--no-virtual', '--no-ios'];
  const child = spawn(process.execPath, [MAIN, 'devices', ...local, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return exitWithOutput(child).then((code) => (clearTimeout(timer), { code, ...out }));
}

test('an adb server that does not answer: listed nothing, and stderr says where and what to do', async () => {
  const state = mkdtempSync(join(tmpdir(), 'mb-unreachable-'));
  try {
    const port = await deadPort();
    const r = await devices(['--adb', `127.0.0.1:${port}`], { ...process.env, MOBILEBRIDGE_STATE_DIR: state });
    assert.is(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout), { devices: [] });
    assert.match(r.stderr, `mobilebridge devices: source 127.0.0.1-${port}: the adb server at 127.0.0.1:${port}`);
    assert.match(r.stderr, 'is not reachable (nothing listens there); start it with "adb start-server", or point mobilebridge at another one with --adb host:port');
    assert.not.match(r.stderr, /nonexistent/, 'not the path adbkit was given so that it starts nothing');
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test('no adb server and no adb to start one: the note says to install platform-tools', async () => {
  const state = mkdtempSync(join(tmpdir(), 'mb-unreachable-'));
  try {
    // A PATH with no adb in it (node runs from its absolute path): adbkit's `adb start-server` cannot
    // run, and so starts no server on the port.
    const port = await deadPort();
    const r = await devices([], { ...process.env, PATH: join(state, 'empty'), ANDROID_ADB_SERVER_PORT: String(port), MOBILEBRIDGE_STATE_DIR: state });
    assert.is(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout), { devices: [] });
    assert.match(r.stderr, `source local: the adb server at 127.0.0.1:${port} (from ANDROID_ADB_SERVER_PORT=${port})`);
    assert.match(r.stderr, 'no `adb` on PATH could start a server: install Android platform-tools (Debian: apt-get install adb)');
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test('through --bridge: the bridge\'s notes are printed the same way', async () => {
  const port = await deadPort();
  const bridge = await startBridge({ engine: createEngine({ virtual: {}, sources: { adb: [{ name: 'lab', host: '127.0.0.1', port, startServer: false }], wda: [] } }), host: '127.0.0.1', port: 0, log: () => undefined });
  try {
    const r = await devices(['--bridge', bridge.wsUrl], { ...process.env, MOBILEBRIDGE_TOKEN: '' });
    assert.is(r.code, 0, r.stderr);
    assert.ok((JSON.parse(r.stdout) as { devices: unknown[] }).devices.length > 0, 'the bridge\'s virtual phones');
    assert.match(r.stderr, `mobilebridge devices: source lab: the adb server at 127.0.0.1:${port}`);
  } finally {
    await bridge.close();
  }
});

test('a call to a device not listed while a source does not answer says that source may be where it is', async () => {
  const port = await deadPort();
  const engine = createEngine({ virtual: {}, sources: { adb: [{ name: 'lab', host: '127.0.0.1', port, startServer: false }], wda: [] } });
  try {
    const r = (await engine.call('mobile_get_screen_size', { device: 'emulator-5554' })) as { code: string; message: string };
    assert.is(r.code, 'DEVICE_NOT_FOUND');
    assert.match(r.message, 'device "emulator-5554" not found; connected devices: virtual-android-1, virtual-ios-1; not answering: source lab: the adb server at 127.0.0.1:');
    assert.match(r.message, / \(call mobile_list_available_devices\)$/);
  } finally {
    await engine.close();
  }
});

test.run();
