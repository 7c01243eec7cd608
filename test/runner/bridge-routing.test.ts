import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocketServer } from 'ws';
import { passedResult } from './result-doc.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

const BRIDGE_DEVICES = [
  { id: 'lab-android-1', name: 'Pixel', os: 'Android', version: '14', model: 'Pixel', state: 'ready', source: 'lab' },
  { id: 'lab-ios-1', name: 'iPhone', os: 'iOS', version: '17', model: 'iPhone', state: 'ready', source: 'lab' },
];

const scenario = (id: string, platform: string, appPackage: string) =>
  JSON.stringify({ $schema_version: '2.2', scenario_id: id, name: id, description: id, platform, app_package: appPackage, metadata: { app_version: '1', environment: 'test' }, steps: [{ id: 'open', action: 'launch_app', description: 'open the app' }], assertions: [] });

/** A valid result document for `scenario` on `device`, as a bridge answers scenarios.run. */
function resultFor(scenarioId: string, device: string, n: number): Record<string, unknown> {
  return passedResult({ runId: `run_20261129_12000${n}`, scenarioId, device, stepId: 'open', environment: 'test' });
}

/** A stand-in bridge with an Android and an iOS device; it records which device each scenarios.run named. */
async function labBridge(): Promise<{ url: string; runs: { device: string; scenario: string }[]; close(): Promise<void> }> {
  const runs: { device: string; scenario: string }[] = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws' });
  await new Promise<void>((resolve, reject) => (wss.once('listening', resolve), wss.once('error', reject)));
  wss.on('connection', (ws) =>
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; method: string; params?: { device: string; scenario: string } };
      if (msg.id === undefined) return;
      let reply: unknown = {};
      if (msg.method === 'session.hello') reply = { session: 's1', server: { name: 'mobilebridge', version: '0.1.0' }, protocol: 1, resumed: false };
      else if (msg.method === 'devices.list') reply = { devices: BRIDGE_DEVICES };
      else if (msg.method === 'scenarios.run') {
        const id = (JSON.parse(msg.params!.scenario) as { scenario_id: string }).scenario_id;
        runs.push({ device: msg.params!.device, scenario: id });
        reply = resultFor(id, msg.params!.device, runs.length);
      }
      ws.send(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: reply }));
    }),
  );
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws`,
    runs,
    close: () => new Promise<void>((resolve) => (wss.clients.forEach((c) => c.terminate()), wss.close(() => resolve()))),
  };
}

/**
 * `mobilebridge run` against the stand-in bridge. No adb on PATH and an adb port nobody serves: a
 * run that opened local devices anyway (the defect under test) could neither start nor reach an adb server.
 */
async function run(dir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, PATH: join(dir, 'no-bin'), ANDROID_ADB_SERVER_PORT: '1', MOBILEBRIDGE_STATE_DIR: join(dir, 'state'), HOME: dir, MOBILEBRIDGE_TOKEN: '' };
  return promisify(execFile)(process.execPath, [MAIN, 'run', ...args, '--out', join(dir, 'out')], { cwd: dir, env, timeout: 60_000, killSignal: 'SIGKILL' }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

async function withLab(fn: (dir: string, bridge: Awaited<ReturnType<typeof labBridge>>) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mb-bridge-routing-'));
  const bridge = await labBridge();
  try {
    writeFileSync(join(dir, 'a_android.json'), scenario('a_android', 'android', 'com.example.app'));
    writeFileSync(join(dir, 'b_ios.json'), scenario('b_ios', 'ios', 'com.example.app'));
    await fn(dir, bridge);
  } finally {
    await bridge.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('run --bridge of Android and iOS files runs each on a bridge device of its platform, as a local run does', async () => {
  await withLab(async (dir, bridge) => {
    const r = await run(dir, ['a_android.json', 'b_ios.json', '--bridge', bridge.url]);
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.equal(
      bridge.runs.sort((x, y) => x.scenario.localeCompare(y.scenario)),
      [
        { device: 'lab-android-1', scenario: 'a_android' },
        { device: 'lab-ios-1', scenario: 'b_ios' },
      ],
    );
  });
});

test('run --list --bridge plans over the bridge\'s devices, not this machine\'s', async () => {
  await withLab(async (dir, bridge) => {
    const [all, android] = await Promise.all([run(dir, ['a_android.json', 'b_ios.json', '--bridge', bridge.url, '--list']), run(dir, ['a_android.json', '--bridge', bridge.url, '--device', 'lab-android-1', '--list'])]);
    assert.is(all.code, 0, all.stdout + all.stderr);
    const plan = JSON.parse(all.stdout) as { data: { runs: { scenario: string; devices: string[] }[]; bridge: string } };
    assert.equal(
      plan.data.runs.map((r) => [r.scenario, r.devices]),
      [
        ['a_android.json', ['lab-android-1']],
        ['b_ios.json', ['lab-ios-1']],
      ],
    );
    assert.is(plan.data.bridge, bridge.url);
    assert.is(android.code, 0, android.stdout + android.stderr);
    assert.equal(bridge.runs, [], 'nothing ran');
  });
});

test.run();
