import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/server.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import { BridgeBackend } from '../../src/mcp/bridge-backend.js';
import { errorResult } from '../../src/mcp/results.js';
import { ANDROID, connectPair, DEMO, textOf, type Pair } from './helpers.js';

/** A locked device, as an MCP agent in --bridge mode meets it: only tools it has, and a Next for the lock alone. */
test('a device locked in the viewer is refused in terms of what the agent can do, with a Next about the lock', async () => {
  const bridge = await startBridge({ engine: createEngine({ virtual: {}, android: false, ios: false }), host: '127.0.0.1', port: 0, log: () => undefined });
  const viewer = await connectBridge(bridge.wsUrl, { client: 'viewer' });
  let backend: BridgeBackend | undefined;
  let pair: Pair | undefined;
  try {
    backend = await BridgeBackend.connect(bridge.wsUrl);
    pair = await connectPair(backend, { engineTools: true });
    await viewer.requestRaw('devices.lock', { device: ANDROID });
    for (const [tool, args] of [
      ['tap', { device: ANDROID, target: 'the Sign in button' }],
      ['launch_app', { device: ANDROID, package: DEMO }],
      ['mobile_click_on_screen_at_coordinates', { device: ANDROID, x: 10, y: 10 }],
    ] as const) {
      const r = await pair.call(tool, args);
      assert.ok(r.isError, `${tool}: ${textOf(r)}`);
      const [message, next] = textOf(r).split('\nNext: ');
      assert.match(message, new RegExp(`^PERMISSION_DENIED: refused: device ${ANDROID} is locked by session \\S+ \\(viewer\\), a person controlling it in the viewer, since \\S+; tools that only look \\(list_elements, take_screenshot, read_text, assert, wait_for\\) still work; ask the user to press Release in the viewer`), tool);
      assert.not.match(message, /devices\.lock|verbs\.run|takeover/, `${tool} names a method the agent cannot call: ${message}`);
      assert.match(next, /^A person or another program controls this device\. Ask the user to release it/);
      assert.not.match(next, /path|folder/, 'the Next says nothing of paths');
    }
    // Looking still works.
    const look = await pair.call('list_elements', { device: ANDROID });
    assert.not.ok(look.isError, textOf(look));
  } finally {
    await pair?.close();
    await backend?.close();
    await viewer.close();
    await bridge.close();
  }
});

test('the Next of PERMISSION_DENIED follows its cause', () => {
  const next = (message: string) => textOf(errorResult('PERMISSION_DENIED', message)).split('\nNext: ')[1];
  assert.match(next('save_to /etc/x.json is outside the allowed folders (/w, /tmp); use a path inside one of them'), /^Use a path under the working or temp directory, or ask the user to start mobilebridge with --allow-path/);
  assert.match(next('another caller (s-1) has a finger down on virtual-android-1; wait until it lifts (up or cancel), then try again'), /^Someone is touching this screen/);
  const device = next('the screen of emulator-5554 is off and did not wake for a tap; press its power button');
  assert.not.match(device, /lock|path/);
  assert.match(device, /^The device or its system refused this/);
});

test.run();
