import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge } from '../../src/bridge/server.js';
import { createEngine } from '../../src/engine/create.js';
import type { CallEvent } from '../../src/engine/engine.js';
import { connectBridge } from '../../src/protocol/node.js';

const PASSWORD = 'secret123';

const scenario = {
  $schema_version: '2.2',
  scenario_id: 'bridge_secret',
  name: 'Sign in over the bridge',
  description: 'Types a secret parameter',
  platform: 'android',
  app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1', environment: 'test' },
  parameters: { PASSWORD: { secret: true } },
  steps: [
    { id: 'open', action: 'open_url', description: 'sign-in', value: 'mbdemo://screen/signin' },
    { id: 'email', action: 'type', description: 'email', target: 'Email', value: 'demo@example.com', clear_first: true },
    { id: 'password', action: 'type', description: 'password', target: 'Password', value: '${PASSWORD}' },
    { id: 'submit', action: 'tap', description: 'submit', target: 'Sign in' },
  ],
  assertions: [
    { id: 'home', after_step: 'submit', type: 'element_exists', description: 'list', element_description: 'Item 1', timeout_ms: 8000 },
    { id: 'quotes_it', after_step: 'submit', type: 'text_contains', description: 'fails, quoting the secret', expected_substring: '${PASSWORD}' },
  ],
};

test('scenarios.run takes parameters; the secret is ••• in the document, progress and the activity feed', async () => {
  const out = mkdtempSync(join(tmpdir(), 'mb-bridge-params-'));
  const engine = createEngine({ virtual: {} });
  const bridge = await startBridge({ engine, host: '127.0.0.1', port: 0 });
  const client = await connectBridge(bridge.wsUrl);
  const activity: CallEvent[] = [];
  const off = engine.onCall((e) => activity.push(e));
  try {
    await client.request('session.hello', { client: 'test' });
    const progress: unknown[] = [];
    client.on('scenario.progress', (p) => progress.push(p));
    const missing = (await client.requestRaw('scenarios.run', { device: 'virtual-android-1', scenario, out })) as { status: string; summary: string; steps_executed: unknown[] };
    assert.is(missing.status, 'error');
    assert.match(missing.summary, /no value for parameter PASSWORD/);
    assert.equal(missing.steps_executed, []);

    const doc = (await client.requestRaw('scenarios.run', { device: 'virtual-android-1', scenario, out, parameters: { PASSWORD } })) as { status: string; assertion_results: { assertion_id: string; status: string }[] };
    assert.equal(doc.assertion_results.map((a) => [a.assertion_id, a.status]), [['home', 'passed'], ['quotes_it', 'failed']]);
    for (const [where, value] of Object.entries({ doc, progress, activity: activity.map((e) => [e.tool, e.parameters, e.result]) })) {
      const text = JSON.stringify(value);
      assert.not.ok(text.includes(PASSWORD), `the secret leaked into ${where}`);
      if (where !== 'activity') assert.ok(text.includes('•••'), `${where} shows the mask`);
    }
    const bad = (await client.requestRaw('scenarios.run', { device: 'virtual-android-1', scenario, out, parameters: { password: 'x' } }).catch((e: Error) => e)) as Error;
    assert.match(String(bad.message ?? JSON.stringify(bad)), /upper case/);
  } finally {
    off();
    await client.close();
    await bridge.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test.run();
