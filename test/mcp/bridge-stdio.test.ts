import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deadPort } from '../support/dead-port.js';
import { startBridge } from '../../src/bridge/server.js';
import { createEngine } from '../../src/engine/create.js';
import type { DeviceActivityParams } from '../../src/protocol/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { BridgeBackend } from '../../src/mcp/bridge-backend.js';
import { loadScenario } from '../../src/validate/index.js';
import { ANDROID, connectPair, DEMO, jsonOf, textOf, type Pair } from './helpers.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** A bridge on the virtual phones, a viewer watching its Android phone's activity, and an MCP agent in --bridge mode. */
async function withAgentThroughBridge(run: (pair: Pair, seen: DeviceActivityParams[]) => Promise<void>): Promise<void> {
  const bridge = await startBridge({ engine: createEngine({ virtual: {}, android: false, ios: false }), host: '127.0.0.1', port: 0, log: () => undefined });
  const watcher = await connectBridge(bridge.wsUrl, { client: 'viewer' });
  let backend: BridgeBackend | undefined;
  let pair: Pair | undefined;
  try {
    const seen: DeviceActivityParams[] = [];
    watcher.on('device.activity', (a) => seen.push(a));
    await watcher.subscribe(ANDROID, {});
    backend = await BridgeBackend.connect(bridge.wsUrl);
    pair = await connectPair(backend);
    await run(pair, seen);
  } finally {
    await pair?.close();
    await backend?.close();
    await watcher.close();
    await bridge.close();
  }
}

test('--bridge mode: the agent acts through a running bridge, a second client sees it live, and recording works there', () =>
  withAgentThroughBridge(async (pair, seen) => {
    const ok = async (name: string, args: Record<string, unknown>) => {
      const r: CallToolResult = await pair.call(name, args);
      assert.not.ok(r.isError, `${name}: ${textOf(r)}`);
      return jsonOf(r);
    };
    assert.ok((await ok('list_devices', {})).devices.some((d: { id: string }) => d.id === ANDROID));
    await ok('recording_start', { device: ANDROID, name: 'Bridge sign in', app_package: DEMO, app_state: 'logged_out' });
    await ok('launch_app', { device: ANDROID, package: DEMO });
    await ok('type_text', { device: ANDROID, target: 'the Email field', text: 'demo@example.com' });
    await ok('type_text', { device: ANDROID, target: 'the Password field', text: 'secret123' });
    await ok('tap', { device: ANDROID, target: 'the Sign in button' });
    await ok('wait_for', { device: ANDROID, until: 'visible', target: 'Item 1', timeout_ms: 10000 });
    assert.is((await ok('assert', { device: ANDROID, type: 'element_exists', element_description: 'Item 1' })).status, 'passed');
    const shot = await pair.call('take_screenshot', { device: ANDROID });
    assert.ok(shot.content.some((c) => c.type === 'image'));
    const stopped = await ok('recording_stop', { device: ANDROID });
    assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
    assert.ok(loadScenario(JSON.stringify(stopped.scenario)).scenario);
    assert.equal(stopped.scenario.steps.map((s: { action: string }) => s.action), ['launch_app', 'type', 'type', 'tap', 'wait_for_element']);

    const bad = await pair.call('tap', { device: 'pixel-99', target: 'the Sign in button' });
    assert.ok(bad.isError);
    assert.match(textOf(bad), /^DEVICE_NOT_FOUND: .*\nNext: Call list_devices/s);

    // The viewer's session saw each of the agent's actions once, under the MCP client's own name
    // (the last of them, wait_for_element, may still be on its way when the calls have answered).
    for (const until = Date.now() + 10_000; !seen.some((a) => a.verb === 'wait_for_element') && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
    assert.ok(seen.some((a) => a.verb === 'tap' && a.parameters.target === 'the Sign in button' && a.outcome.status === 'success'), JSON.stringify(seen.map((a) => a.verb ?? a.tool)));
    const agent = seen.filter((a) => a.verb || ['mobile_click_on_screen_at_coordinates', 'mobile_type_keys', 'mobile_launch_app'].includes(a.tool ?? ''));
    assert.equal(agent.map((a) => a.verb ?? a.tool), ['launch_app', 'type', 'type', 'tap', 'wait_for_element'], 'one entry per verb, none for the tool calls inside it');
    assert.ok(agent.every((a) => a.client === 'test-client'), JSON.stringify(agent.map((a) => a.client)));
  }));

test('--bridge mode: an MCP cancellation stops the verb on the bridge (requests.cancel), not at its own timeout', () =>
  withAgentThroughBridge(async (pair, seen) => {
    const controller = new AbortController();
    const call = pair.client.callTool({ name: 'wait_for', arguments: { device: ANDROID, target: 'the Nothing of the kind banner', timeout_ms: 45000 } }, undefined, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 500));
    controller.abort('the user stopped it');
    await call.then(() => assert.unreachable('a cancelled call has no result'), () => undefined);
    // The bridge's verb ends (its activity entry comes when it does) long before its 60 s.
    for (const until = Date.now() + 10_000; !seen.some((a) => a.verb === 'wait_for_element') && Date.now() < until; ) await new Promise((r) => setTimeout(r, 20));
    const ended = seen.find((a) => a.verb === 'wait_for_element');
    assert.ok(ended, 'the verb on the bridge ended within 10 s of the cancellation');
    assert.is(ended!.outcome.code, 'CANCELLED', JSON.stringify(ended!.outcome));
  }));

test('--bridge mode: list_devices passes on the bridge\'s notes on sources that did not answer', async () => {
  const dead = await deadPort();
  const sources = { adb: [{ name: 'lab', host: '127.0.0.1', port: dead, startServer: false }], wda: [] };
  const bridge = await startBridge({ engine: createEngine({ virtual: {}, sources }), host: '127.0.0.1', port: 0, log: () => undefined });
  let backend: BridgeBackend | undefined;
  let pair: Awaited<ReturnType<typeof connectPair>> | undefined;
  try {
    backend = await BridgeBackend.connect(bridge.wsUrl);
    pair = await connectPair(backend);
    const listed = jsonOf(await pair.call('list_devices', {}));
    assert.ok(listed.devices.some((d: { id: string }) => d.id === ANDROID));
    assert.equal(listed.notes.length, 1);
    assert.match(listed.notes[0], `source lab: the adb server at 127.0.0.1:${dead}`);
  } finally {
    await pair?.close();
    await backend?.close();
    await bridge.close();
  }
});

test('--bridge mode: after the client gave up reconnecting (the bridge was down too long), the next call connects again once the bridge is back', async () => {
  const engine = () => createEngine({ virtual: {}, android: false, ios: false });
  let bridge = await startBridge({ engine: engine(), host: '127.0.0.1', port: 0, log: () => undefined });
  const port = Number(new URL(bridge.wsUrl).port);
  const backend = await BridgeBackend.connect(bridge.wsUrl, undefined, 1);
  try {
    assert.ok(Array.isArray(await backend.listDevices()));
    await bridge.close();
    // The one reconnect attempt fails, and a call meanwhile fails saying so: the bridge is down.
    for (const until = Date.now() + 5000; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
      const down = await backend.listDevices();
      if (!Array.isArray(down)) break;
    }
    const down = await backend.listDevices();
    assert.not.ok(Array.isArray(down), JSON.stringify(down));
    bridge = await startBridge({ engine: engine(), host: '127.0.0.1', port, log: () => undefined });
    const back = await backend.listDevices();
    assert.ok(Array.isArray(back) && back.some((d) => d.id === ANDROID), JSON.stringify(back));
  } finally {
    await backend.close();
    await bridge.close();
  }
});

test('stdio: `mobilebridge mcp` speaks MCP on stdout only; tools, a verb and a screenshot work', async () => {
  const state = mkdtempSync(join(tmpdir(), 'mb-mcp-stdio-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MAIN, 'mcp', '--no-android', '--no-ios', '--device', ANDROID],
    env: { ...(process.env as Record<string, string>), MOBILEBRIDGE_STATE_DIR: state },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'recording_start'));
    const opened = (await client.callTool({ name: 'open_url', arguments: { url: 'mbdemo://screen/signin' } })) as CallToolResult;
    assert.not.ok(opened.isError, textOf(opened));
    const tapped = (await client.callTool({ name: 'tap', arguments: { target: 'the Email field' } })) as CallToolResult;
    assert.is(jsonOf(tapped).resolved.id, 'email');
    const shot = (await client.callTool({ name: 'take_screenshot', arguments: {} })) as CallToolResult;
    assert.ok(shot.content.some((c) => c.type === 'image'));
  } finally {
    await client.close();
    rmSync(state, { recursive: true, force: true });
  }
});

test.run();
