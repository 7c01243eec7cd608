import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deadPort } from '../support/dead-port.js';
import { startBridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import { connectBridge } from '../../src/protocol/node.js';
import { testBridge, until } from '../bridge/helpers.js';
import { exitWithOutput } from '../support/child-exit.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

function serve(args: string[], state: string) {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--no-android', '--no-ios', '--no-virtual', ...args], {
    env: { ...process.env, MOBILEBRIDGE_STATE_DIR: state, MOBILEBRIDGE_TOKEN: '', MOBILEBRIDGE_PEER_TOKEN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c));
  const exited = exitWithOutput(child);
  return { child, out, exited };
}

test('serve --peer NAME=URL --peer-token T lists the token-protected peer\'s devices as its own; a peer that does not answer is logged once and shown in health; SIGTERM exits cleanly', async () => {
  const { bridge: peer } = await testBridge({ virtual: { devices: ['android'] }, token: 'peer-secret' });
  const state = mkdtempSync(join(tmpdir(), 'mb-serve-peer-'));
  const dead = await deadPort();
  const s = serve(['--peer', `lab1=ws://127.0.0.1:${peer.port}`, '--peer-token', 'peer-secret', '--peer', `lab2=ws://127.0.0.1:${dead}`], state);
  try {
    const url = await until('the aggregator listening', () => /websocket\s+(ws:\S+)/.exec(s.out.stdout)?.[1], 15_000);
    const client = await connectBridge(url, { client: 'test' });
    try {
      let devices: DeviceInfo[] = [];
      for (let i = 0; i < 100 && !devices.length; i++) {
        devices = ((await client.request('devices.list', {})) as { devices: DeviceInfo[] }).devices;
        if (!devices.length) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(devices.map((d) => [d.id, d.source]), [['virtual-android-1', 'lab1']]);
      const size = (await client.callTool('mobile_get_screen_size', { device: 'virtual-android-1' })) as { width?: number };
      assert.ok(size.width, JSON.stringify(size));
      // lab2 has no devices to show it by: the log and the health say it is down, and why.
      const health = (await (await fetch(url.replace(/^ws/, 'http').replace(/\/ws$/, '/api/health'))).json()) as { peers: Record<string, { up: boolean; error?: string }> };
      assert.is(health.peers.lab1.up, true);
      assert.is(health.peers.lab2.up, false);
      assert.match(health.peers.lab2.error ?? '', /ECONNREFUSED/);
      const down = `peer lab2: peer bridge ws://127.0.0.1:${dead}/ws is unreachable (connect ECONNREFUSED 127.0.0.1:${dead}); its devices appear by themselves once it answers`;
      await until('the log line of lab2', () => s.out.stderr.includes(down), 5000);
      await new Promise((r) => setTimeout(r, 1500)); // the link retries after 0.5 s, then 1 s
      assert.is(s.out.stderr.split(down).length - 1, 1, s.out.stderr);
      assert.not.match(s.out.stderr, 'peer lab1', 'a peer that answers has nothing to report');
      assert.match(s.out.stdout, /peer\s+lab1 ws:\/\/127\.0\.0\.1:\d+\/ws\n/);
      // And for viewers and agents: devices.list notes the peer that does not answer.
      const listed = (await client.request('devices.list', {})) as { notes?: string[] };
      assert.equal(listed.notes, [`peer lab2: peer bridge ws://127.0.0.1:${dead}/ws is unreachable (connect ECONNREFUSED 127.0.0.1:${dead})`]);
    } finally {
      await client.close();
    }
    s.child.kill('SIGTERM');
    assert.is(await s.exited, 0, s.out.stderr);
  } finally {
    s.child.kill('SIGKILL');
    await peer.close();
    rmSync(state, { recursive: true, force: true });
  }
});

test('serve refuses a --peer that is not a WebSocket URL, naming the fix', async () => {
  const state = mkdtempSync(join(tmpdir(), 'mb-serve-peer-'));
  try {
    const s = serve(['--peer', 'lab1=http://127.0.0.1:4800'], state);
    assert.is(await s.exited, 3);
    assert.match(s.out.stderr, /use ws:\/\/ or wss:\/\//);
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test('a peer refusing our token: the link says why, keeps retrying, and lists nothing', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] }, token: 'right' });
  let attempts = 0;
  const counting = (bridge as unknown as { onUpgrade: (...a: unknown[]) => void });
  const original = counting.onUpgrade.bind(bridge);
  counting.onUpgrade = (...a: unknown[]) => {
    attempts++;
    original(...a);
  };
  const peer = new Peer({ name: 'x', url: bridge.wsUrl, token: 'wrong' }, { firstRetryMs: 20, maxRetryMs: 40 });
  try {
    await until('a few refused attempts', () => attempts >= 3, 5000);
    assert.match(peer.link.lastError ?? '', /HTTP 401.*token/);
    assert.is(peer.up, false);
    assert.equal(await peer.listDevices({ signal: AbortSignal.timeout(1000) }), []);
    assert.match(peer.problems()[0]?.text ?? '', /refuses this bridge \(.*HTTP 401/);
  } finally {
    await peer.close();
    await bridge.close();
  }
});

test('a call on a device of a peer refusing our token says to fix the token, not to wait', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] }, token: 'right' });
  const peers = [new Peer({ name: 'x', url: bridge.wsUrl, token: 'wrong' }, { firstRetryMs: 20, maxRetryMs: 40 })];
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: peers }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers, log: () => undefined });
  const client = await connectBridge(agg.wsUrl, { client: 'ci' });
  try {
    const r = (await client.callTool('mobile_get_screen_size', { device: 'virtual-android-1@x' })) as { code?: string; message?: string };
    assert.is(r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
    assert.match(String(r.message), /refuses this bridge: .*HTTP 401/);
    assert.match(String(r.message), /token/);
    assert.not.match(String(r.message), /by themselves/);
  } finally {
    await client.close();
    await agg.close();
    await bridge.close();
  }
});

test('a peer URL with a wrong path: the link says to give the bridge\'s address, not only HTTP 404', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] } });
  const peer = new Peer({ name: 'x', url: bridge.wsUrl.replace(/\/ws$/, '/websocket') }, { firstRetryMs: 20, maxRetryMs: 40 });
  try {
    const why = await until('the refusal', () => peer.link.lastError, 5000);
    assert.match(why, /HTTP 404/);
    assert.match(why, /\/websocket/, 'names the path it tried');
    assert.match(why, /ws:\/\/HOST:PORT/, 'says what a peer URL looks like');
    assert.is(peer.up, false);
    const [note] = peer.problems();
    assert.match(note.text, /answers, but not as a bridge at this URL/);
    assert.not.match(note.text, /refuses this bridge/, 'a wrong path is not a refused token');
  } finally {
    await peer.close();
    await bridge.close();
  }
});

test.run();
