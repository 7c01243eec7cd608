import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectBridge } from '../../src/protocol/node.js';
import { testBridge, until } from '../bridge/helpers.js';

const run = promisify(execFile);
const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

async function mb(...args: string[]): Promise<{ code: number; json: any }> {
  try {
    const { stdout } = await run(process.execPath, [MAIN, ...args]);
    return { code: 0, json: JSON.parse(stdout) };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, json: JSON.parse(e.stdout) };
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

test('call --bridge to a bridge that is not there says how to start one', async () => {
  const r = await mb('call', 'mobile_list_available_devices', '--bridge', 'ws://127.0.0.1:9/ws');
  assert.is(r.code, 1);
  assert.is(r.json.status, 'error');
  assert.match(r.json.message, /cannot reach the bridge at ws:\/\/127\.0\.0\.1:9\/ws .*mobilebridge serve/);
});

test.run();
