import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AgentSession } from '../../src/engine/agent/agent-session.js';
import { createEngine } from '../../src/engine/create.js';

/**
 * launch_app and clear_app_data given what list_apps shows people, an app's name, were refused by
 * the engine as 'packageName "MobileBridge Demo" is not a valid package name' (a parameter the MCP
 * tool does not have, and no word of which package was meant). The refusal now gives the package id
 * of the app so named, or of apps with a name like it (MCP audit: a model's first launch_app).
 */

const A = 'virtual-android-1';
const I = 'virtual-ios-1';

function session(): { agent: AgentSession; close(): void } {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  const agent = new AgentSession(engine, 'test');
  return { agent, close: () => agent.close() };
}

test("an app's name is refused giving its package id, on either platform, and nothing is launched", async () => {
  const { agent, close } = session();
  try {
    for (const device of [A, I]) {
      const out = await agent.run(device, { action: 'launch_app', value: 'MobileBridge Demo' });
      assert.is(out.status, 'failed');
      assert.is(out.error?.code, 'INVALID_PARAMETER', out.message);
      assert.match(out.message, 'launch_app: "MobileBridge Demo" is not a package id');
      assert.match(out.message, `it is the name of the app com.mobilebridge.demo on ${device}; give that package id instead`);
      assert.not.match(out.message, 'packageName');
    }
    const cleared = await agent.run(A, { action: 'clear_app_data', value: 'settings' });
    assert.match(cleared.message, 'clear_app_data: "settings" is not a package id');
    assert.match(cleared.message, 'the name of the app com.android.settings');
  } finally {
    close();
  }
});

test('a part of a name lists the apps named like it; a name no app has points to list_apps', async () => {
  const { agent, close } = session();
  try {
    const part = await agent.run(A, { action: 'launch_app', value: 'demo' });
    assert.match(part.message, 'installed apps with a name like it: com.mobilebridge.demo ("MobileBridge Demo")');
    const none = await agent.run(A, { action: 'launch_app', value: 'Calculator' });
    assert.is(none.error?.code, 'INVALID_PARAMETER');
    assert.match(none.message, /"Calculator" is not a package id .*; list_apps gives each installed app's package id$/);
    assert.is((await agent.run(A, { action: 'launch_app', value: 'com.mobilebridge.demo' })).status, 'passed');
  } finally {
    close();
  }
});

test.run();
