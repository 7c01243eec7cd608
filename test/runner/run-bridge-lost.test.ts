import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { testBridge, until } from '../bridge/helpers.js';
import { ScriptedPeer } from '../peers/scripted-peer.js';
import { RUNS_DIR } from './harness.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const PHONE = 'scripted-phone';

/**
 * `run --bridge` tells a run the bridge refused (nothing ran) from one whose answer was lost (the
 * peer running it, or the bridge itself, went away mid-run): the latter's outcome is unknown.
 */
async function runOn(bridge: string, device: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'mb-run-lost-'));
  const args = [MAIN, 'run', join(RUNS_DIR, 'actions_android.json'), '--bridge', bridge, '--device', device, '--out', join(dir, 'out')];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
      env: { ...process.env, MOBILEBRIDGE_STATE_DIR: join(dir, 'state') },
      // Not a verdict: a CLI that hangs is stopped, and the test then fails on its output.
      timeout: 60_000,
      killSignal: 'SIGKILL',
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function assertUnknownOutcome(r: { code: number; stdout: string; stderr: string }, cause: RegExp): void {
  assert.is(r.code, 2, r.stderr);
  assert.not.match(r.stderr, 'the bridge refused a run');
  assert.match(r.stderr, "a run's outcome is unknown (not refused)");
  assert.match(r.stderr, cause);
  assert.match(r.stderr, 'check the device, the bridge\'s log on the host that ran it, and its result document there');
  const json = JSON.parse(r.stdout) as { ok: boolean; exit_code: number; error: { kind: string; message: string } };
  assert.equal([json.ok, json.exit_code, json.error.kind], [false, 2, 'device']);
  assert.match(json.error.message, "a run's outcome is unknown");
}

test('through an aggregator whose peer dies mid-run: the outcome is unknown, not a refusal', async () => {
  const scripted = await ScriptedPeer.start();
  const shared = new Peer({ name: 'lab1', url: scripted.url }, { firstRetryMs: 50, maxRetryMs: 200 });
  const agg = await startBridge({ engine: createEngine({ virtual: false, extraDrivers: [shared] }), host: '127.0.0.1', port: 0, webRoot: '/nonexistent', peers: [shared], log: () => undefined });
  try {
    await until('the peer listed', () => shared.up && shared.owns(PHONE), 5000);
    scripted.crashOn = 'scenarios.run';
    const r = await runOn(agg.wsUrl, PHONE);
    assert.ok(scripted.requests.some((q) => q.method === 'scenarios.run'), 'the peer read the run');
    assertUnknownOutcome(r, /actions_android\.json on scripted-phone: .*was lost while the call was out/);
  } finally {
    await agg.close();
    await scripted.close();
  }
});

test('a bridge that dies mid-run: the outcome is unknown, not a refusal', async () => {
  const scripted = await ScriptedPeer.start();
  const { bridge } = await testBridge({ virtual: { devices: [] } });
  try {
    // A real bridge's hello (its limits), so that the CLI's client takes the stand-in for one.
    const probe = await connectBridge(bridge.wsUrl, { client: 'probe', reconnect: false });
    scripted.hello = { ...(probe.hello as unknown as Record<string, unknown>), resumed: false };
    await probe.close();
    scripted.crashOn = 'scenarios.run';
    const r = await runOn(scripted.url, PHONE);
    assert.ok(scripted.requests.some((q) => q.method === 'scenarios.run'), 'the bridge read the run');
    assertUnknownOutcome(r, /actions_android\.json on scripted-phone: the connection to the bridge at ws:\/\/127\.0\.0\.1:\d+\/ws was lost while it ran/);
  } finally {
    await bridge.close();
    await scripted.close();
  }
});

test('a run the bridge refuses is still called a refusal', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] } });
  const holder = await connectBridge(bridge.wsUrl, { client: 'holder', reconnect: false });
  try {
    await holder.request('devices.lock', { device: 'virtual-android-1' });
    const r = await runOn(bridge.wsUrl, 'virtual-android-1');
    assert.is(r.code, 2, r.stderr);
    assert.match(r.stderr, 'the bridge refused a run: ', r.stderr);
    assert.not.match(r.stderr, 'outcome is unknown');
  } finally {
    await holder.close();
    await bridge.close();
  }
});

test.run();
