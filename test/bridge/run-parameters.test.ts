/**
 * A scenario run over the bridge gets its parameters from scenarios.run's `parameters` alone, so
 * a missing one must be asked for there, not with the CLI's flags or the bridge's environment.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, testBridge } from './helpers.js';

const test = suite('scenarios.run parameters');

let bridge: Bridge;
let out: string;
test.before.each(async () => {
  ({ bridge } = await testBridge());
  out = mkdtempSync(join(tmpdir(), 'mb-run-params-'));
});
test.after.each(async () => {
  await bridge.close();
  rmSync(out, { recursive: true, force: true });
});

const scenario = {
  $schema_version: '2.2',
  scenario_id: 'sign_in_params',
  name: 'Sign in',
  description: 'Types the password given at run time.',
  platform: 'android',
  app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1.0.0', environment: 'development' },
  parameters: { PASSWORD: { secret: true } },
  steps: [
    { id: 'open', action: 'open_url', description: 'Open the sign-in screen', value: 'mbdemo://screen/signin' },
    { id: 'type_password', action: 'type', description: 'Type the password', target: 'the Password field', value: '${PASSWORD}' },
  ],
  assertions: [],
};

test('a missing parameter is asked for in scenarios.run parameters, and giving it there runs', async () => {
  const c = await connectBridge(bridge.wsUrl, { client: 'params-test' });
  try {
    const missing = (await c.requestRaw('scenarios.run', { device: ANDROID, scenario, out })) as { status: string; summary: string };
    assert.is(missing.status, 'error');
    assert.match(missing.summary, 'PASSWORD');
    assert.match(missing.summary, `scenarios.run's "parameters": {"PASSWORD": "..."}`);
    // Neither works over the bridge: it reads no flags, and not its own environment.
    assert.not.match(missing.summary, '--param');
    assert.not.match(missing.summary, 'MB_PARAM_');

    const given = (await c.requestRaw('scenarios.run', { device: ANDROID, scenario, out, parameters: { PASSWORD: 'secret123' } })) as { status: string; summary: string };
    assert.is(given.status, 'passed', given.summary);
  } finally {
    await c.close();
  }
});

test.run();
