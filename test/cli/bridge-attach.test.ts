import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectBridge } from '../../src/protocol/node.js';
import { testBridge, until } from '../bridge/helpers.js';
import { deadPort } from '../support/dead-port.js';
import { FIXTURES } from '../validate/helpers.js';

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
// The CLI's state (virtual phones, leases) stays out of the user's home folder.
const STATE = mkdtempSync(join(tmpdir(), 'mb-attach-state-'));
const env = { ...process.env, MOBILEBRIDGE_STATE_DIR: STATE };
test.after(() => rmSync(STATE, { recursive: true, force: true }));

async function mb(...args: string[]): Promise<{ code: number; json: any }> {
  try {
    const { stdout } = await run(process.execPath, [MAIN, ...args], { env });
    return { code: 0, json: JSON.parse(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, json: JSON.parse(e.stdout) };
  }
}

async function runCli(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    // Bounded: a command that wrongly waits (mcp reading stdin) fails the test instead of hanging it.
    const { stderr } = await run(process.execPath, [MAIN, ...args], { env, timeout: 60_000 });
    return { code: 0, stderr };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

test('call --bridge runs the tool in the bridge, and a watching client sees it as activity', async () => {
  const { bridge } = await testBridge();
  const watcher = await connectBridge(bridge.wsUrl, { client: 'watcher', reconnect: false });
  try {
    const seen: { tool?: string; session?: string }[] = [];
    watcher.on('device.activity', (a: { tool?: string; session?: string }) => seen.push(a));
    await watcher.subscribe('virtual-android-1', { elements: true });

    const devices = await mb('devices', '--bridge', bridge.wsUrl);
    assert.is(devices.code, 0);
    assert.equal(devices.json.devices.map((d: { id: string }) => d.id), ['virtual-android-1', 'virtual-ios-1']);

    const launched = await mb('call', 'mobile_launch_app', '{"device":"virtual-android-1","packageName":"com.mobilebridge.demo"}', '--bridge', bridge.wsUrl);
    assert.equal(launched.json, { status: 'success', message: 'launched com.mobilebridge.demo on virtual-android-1' });
    await until('activity of the CLI call', () => seen.find((a) => a.tool === 'mobile_launch_app'));

    const failed = await mb('call', 'mobile_get_screen_size', '{"device":"nope"}', '--bridge', bridge.wsUrl);
    assert.is(failed.code, 2);
    assert.is(failed.json.code, 'DEVICE_NOT_FOUND');
  } finally {
    await watcher.close();
    await bridge.close('test over');
  }
});

test('devices, call and run --bridge to a bridge that is not there: each says no bridge runs there and how to start one, exit 2 (a connection problem)', async () => {
  const url = `ws://127.0.0.1:${await deadPort()}/ws`;
  const notRunning = `no bridge is running at ${url} (connection refused); start one with 'mobilebridge serve'`;
  for (const args of [['devices'], ['call', 'mobile_list_available_devices']]) {
    const r = await mb(...args, '--bridge', url);
    assert.is(r.code, 2, `${args[0]}: ${JSON.stringify(r.json)}`);
    assert.is(r.json.status, 'error');
    assert.is(r.json.code, 'DEVICE_NOT_FOUND');
    assert.match(r.json.message, notRunning);
  }
  const out = mkdtempSync(join(tmpdir(), 'mb-attach-'));
  try {
    const r = await mb('run', `${FIXTURES}/valid/android_core_actions.json`, '--out', out, '--bridge', url);
    assert.is(r.code, 2);
    assert.is(r.json.exit_code, 2);
    assert.is(r.json.error.kind, 'device');
    assert.match(r.json.error.message, notRunning);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a wrong token and a missing token are told apart from a bridge that is not running', async () => {
  const { bridge } = await testBridge({ token: 'right-token' });
  try {
    const wrong = await mb('devices', '--bridge', bridge.wsUrl, '--token', 'wrong-token');
    assert.is(wrong.code, 2);
    assert.match(wrong.json.message, `the bridge at ${bridge.wsUrl} refused the token (HTTP 401): wrong token`);
    const missing = await mb('call', 'mobile_list_available_devices', '--bridge', bridge.wsUrl);
    assert.match(missing.json.message, `the bridge at ${bridge.wsUrl} needs a token (HTTP 401); pass the one it was started with`);
    const mcp = await runCli(['mcp', '--bridge', bridge.wsUrl, '--token', 'wrong-token']);
    assert.is(mcp.code, 2);
    assert.match(mcp.stderr, 'refused the token (HTTP 401): wrong token');
    const right = await mb('devices', '--bridge', bridge.wsUrl, '--token', 'right-token');
    assert.is(right.code, 0);
    assert.ok(right.json.devices.length > 0);
  } finally {
    await bridge.close('test over');
  }
});

test('an http:// URL given to --bridge is explained with the ws://…/ws form, exit 3', async () => {
  const r = await mb('devices', '--bridge', 'http://127.0.0.1:4800/?token=abc');
  assert.is(r.code, 3);
  assert.is(r.json.code, 'INVALID_PARAMETER');
  assert.match(r.json.message, 'is the web address of the viewer');
  assert.match(r.json.message, '--bridge ws://127.0.0.1:4800/ws ');
  const out = mkdtempSync(join(tmpdir(), 'mb-attach-'));
  const run = await runCli(['run', `${FIXTURES}/valid/android_core_actions.json`, '--out', out, '--bridge', 'https://lab.example:4800/']).finally(() => rmSync(out, { recursive: true, force: true }));
  assert.is(run.code, 3);
  assert.match(run.stderr, '--bridge wss://lab.example:4800/ws');
  const mcp = await runCli(['mcp', '--bridge', 'http://127.0.0.1:4800/']);
  assert.is(mcp.code, 3);
  assert.match(mcp.stderr, '--bridge ws://127.0.0.1:4800/ws');
});

test('run --bridge: a lease refusal names the --lease-timeout flag, not the protocol\'s timeout_ms (which protocol callers still get)', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] } });
  const holder = await connectBridge(bridge.wsUrl, { client: 'holder', reconnect: false });
  const other = await connectBridge(bridge.wsUrl, { client: 'other', reconnect: false });
  const out = mkdtempSync(join(tmpdir(), 'mb-attach-'));
  try {
    await holder.request('devices.lock', { device: 'virtual-android-1' });
    const direct = (await other.requestRaw('devices.lease', { platform: 'android', timeout_ms: 0 })) as { message?: string };
    assert.match(String(direct.message), 'raise timeout_ms to wait longer');
    assert.match(String(direct.message), 'devices.unlock');
    const file = `${FIXTURES}/valid/android_core_actions.json`;
    const atOnce = await runCli(['run', file, '--out', join(out, 'a'), '--bridge', bridge.wsUrl, '--devices', 'any:android']);
    assert.is(atOnce.code, 2, atOnce.stderr);
    assert.match(atOnce.stderr, 'virtual-android-1 locked by session');
    assert.match(atOnce.stderr, 'pass --lease-timeout 10m to wait in line');
    assert.not.match(atOnce.stderr, 'timeout_ms');
    assert.match(atOnce.stderr, 'ask the holder to release it, or take control of it in the viewer');
    assert.not.match(atOnce.stderr, 'devices.unlock', 'run has no devices.unlock to offer');
    const waited = await runCli(['run', file, '--out', join(out, 'b'), '--bridge', bridge.wsUrl, '--devices', 'any:android', '--lease-timeout', '1s']);
    assert.is(waited.code, 2, waited.stderr);
    assert.match(waited.stderr, 'raise --lease-timeout (it was 1 s) to wait longer');
    assert.not.match(waited.stderr, 'timeout_ms');
  } finally {
    rmSync(out, { recursive: true, force: true });
    await other.close();
    await holder.close();
    await bridge.close('test over');
  }
});

test('--reset and the device flags with --bridge are refused (exit 3, named), not ignored: the run would use the bridge\'s phone as it is', async () => {
  const { bridge } = await testBridge();
  const out = mkdtempSync(join(tmpdir(), 'mb-attach-'));
  try {
    await mb('call', 'mobile_launch_app', '{"device":"virtual-android-1","packageName":"com.mobilebridge.demo"}', '--bridge', bridge.wsUrl);
    const call = await mb('call', 'mobile_get_foreground_app', '{"device":"virtual-android-1"}', '--bridge', bridge.wsUrl, '--reset');
    assert.is(call.code, 3, JSON.stringify(call.json));
    assert.is(call.json.code, 'INVALID_PARAMETER');
    assert.match(call.json.message, 'with --bridge the bridge\'s own devices and settings are used, and --reset would be ignored');
    assert.match(call.json.message, 'run mobilebridge reset on its host');
    const devices = await mb('devices', '--bridge', bridge.wsUrl, '--no-virtual', '--timeout', '5000');
    assert.is(devices.code, 3);
    assert.match(devices.json.message, '--no-virtual, --timeout would be ignored: leave them out');

    const run = await mb('run', `${FIXTURES}/valid/login.json`, '--out', out, '--bridge', bridge.wsUrl, '--reset', '--no-virtual');
    assert.is(run.code, 3);
    assert.equal([run.json.ok, run.json.data, run.json.error.kind, run.json.exit_code], [false, { runs: [] }, 'invalid_input', 3]);
    assert.match(run.json.error.message, '--reset, --no-virtual would be ignored');
    assert.equal(readdirSync(out), [], 'nothing ran, nothing was written');

    // mcp --bridge too (it exits before reading stdin); --allow-path still counts there: save_to is written locally.
    const mcp = await runCli(['mcp', '--bridge', bridge.wsUrl, '--no-virtual']);
    assert.is(mcp.code, 3, mcp.stderr);
    assert.match(mcp.stderr, '--no-virtual would be ignored: leave it out');
  } finally {
    rmSync(out, { recursive: true, force: true });
    await bridge.close('test over');
  }
});

test('call parameters that are not an object get the same answer through --bridge as without it: INVALID_PARAMETER, exit 3', async () => {
  const { bridge } = await testBridge();
  try {
    for (const json of ['[1]', '"x"']) {
      const local = await mb('call', 'mobile_get_screen_size', json, '--no-android', '--no-ios');
      const bridged = await mb('call', 'mobile_get_screen_size', json, '--bridge', bridge.wsUrl);
      assert.equal([bridged.code, bridged.json.code], [3, 'INVALID_PARAMETER'], JSON.stringify(bridged.json));
      assert.equal(bridged.json, local.json);
    }
    // null means no parameters, as the engine takes it: the tool then asks for its device.
    const none = await mb('call', 'mobile_get_screen_size', 'null', '--bridge', bridge.wsUrl);
    assert.equal([none.code, none.json.code], [3, 'INVALID_PARAMETER'], JSON.stringify(none.json));
    assert.match(none.json.message, 'device');
  } finally {
    await bridge.close('test over');
  }
});

test.run();
