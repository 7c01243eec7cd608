/**
 * What scenarios.run refuses before it locks the device or writes anything, as `mobilebridge run`
 * does: a flow it cannot run, parameter values nothing would read.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, testBridge } from './helpers.js';

const test = suite('scenarios.run checks before the run');

let bridge: Bridge;
let out: string;
test.before.each(async () => {
  ({ bridge } = await testBridge());
  out = mkdtempSync(join(tmpdir(), 'mb-run-checks-'));
});
test.after.each(async () => {
  await bridge.close();
  rmSync(out, { recursive: true, force: true });
});

const base = {
  $schema_version: '2.2',
  scenario_id: 'checks',
  name: 'Checks',
  description: 'd',
  platform: 'android',
  app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1.0.0', environment: 'development' },
  assertions: [],
};

test('a flow the run cannot read answers the validation envelope (flow-missing), and nothing is locked or written', async () => {
  const c = await connectBridge(bridge.wsUrl, { client: 'checks-test' });
  try {
    const scenario = { ...base, steps: [{ id: 'login', flow: 'mb-no-such-folder-xyz/login.json' }] };
    const r = (await c.requestRaw('scenarios.run', { device: ANDROID, scenario, out })) as { ok?: boolean; data?: { valid: boolean; errors: { rule: string }[] }; status?: string; summary?: string };
    assert.is(r.ok, false, JSON.stringify(r).slice(0, 400));
    assert.is(r.data?.valid, false);
    assert.equal(r.data?.errors.map((e) => e.rule), ['flow-missing']);
    assert.is(bridge.locks.holder(ANDROID), undefined);
    assert.not.ok(existsSync(join(out, 'results')) && readdirSync(join(out, 'results')).length, 'no result document');
  } finally {
    await c.close();
  }
});

test('a parameter name the scenario does not declare is refused by name with the one meant, not dropped for the default', async () => {
  const c = await connectBridge(bridge.wsUrl, { client: 'checks-test' });
  try {
    const scenario = {
      ...base,
      parameters: { EMAIL: { default: 'demo@example.com' }, PASSWORD: { secret: true } },
      steps: [
        { id: 'open', action: 'open_url', description: 'Open the sign-in screen', value: 'mbdemo://screen/signin' },
        { id: 'email', action: 'type', description: 'Type the email', target: 'the Email field', value: '${EMAIL}' },
        { id: 'password', action: 'type', description: 'Type the password', target: 'the Password field', value: '${PASSWORD}' },
      ],
    };
    const typo = (await c.requestRaw('scenarios.run', { device: ANDROID, scenario, out, parameters: { PASSWORD: 'hunter22', EMIAL: 'qa@example.com', ZZZ: '1' } })) as { status: string; code?: string; message?: string };
    assert.is(typo.code, 'INVALID_PARAMETER', JSON.stringify(typo).slice(0, 400));
    assert.is(typo.message, 'parameter EMIAL (did you mean EMAIL?), parameter ZZZ: neither the scenario nor its flows declare these parameters, so the value would be ignored; they declare EMAIL, PASSWORD');
    assert.not.match(JSON.stringify(typo), 'hunter22');
    assert.is(bridge.locks.holder(ANDROID), undefined);
    assert.not.ok(existsSync(join(out, 'results')) && readdirSync(join(out, 'results')).length, 'no result document');
    const right = (await c.requestRaw('scenarios.run', { device: ANDROID, scenario, out, parameters: { PASSWORD: 'hunter22', EMAIL: 'qa@example.com' } })) as { status: string; summary: string };
    assert.is(right.status, 'passed', right.summary);
  } finally {
    await c.close();
  }
});

test('refuse_missing_parameters: a flow parameter nobody gives refuses the run before any lock, naming it with what a form needs; given, the run goes', async () => {
  // scenarios.run reads flows from the bridge's working folder: a temporary folder inside it, removed after.
  const flows = mkdtempSync(join(process.cwd(), '.mb-run-checks-flows-'));
  const c = await connectBridge(bridge.wsUrl, { client: 'checks-test' });
  try {
    const flow = {
      ...base,
      scenario_id: 'sign_in_flow',
      parameters: { EMAIL: {}, PASSWORD: { secret: true, description: 'the account password' }, LABEL: { default: 'x' } },
      steps: [
        { id: 'open', action: 'open_url', description: 'Open the sign-in screen', value: 'mbdemo://screen/signin' },
        { id: 'email', action: 'type', description: 'Type the email', target: 'the Email field', value: '${EMAIL}' },
        { id: 'password', action: 'type', description: 'Type the password', target: 'the Password field', value: '${PASSWORD}' },
      ],
    };
    writeFileSync(join(flows, 'sign_in.json'), JSON.stringify(flow, null, 2));
    const scenario = { ...base, parameters: { USER: { default: 'qa@example.com' } }, steps: [{ id: 'login', flow: `${basename(flows)}/sign_in.json`, parameters: { EMAIL: '${USER}' } }] };
    const refused = (await c.requestRaw('scenarios.run', { device: ANDROID, scenario, out, refuse_missing_parameters: true })) as { code?: string; message?: string; missing_parameters?: unknown };
    assert.is(refused.code, 'INVALID_PARAMETER', JSON.stringify(refused).slice(0, 400));
    assert.equal(refused.missing_parameters, [{ name: 'PASSWORD', secret: true, description: 'the account password', flow_step: 'login', flow: `${basename(flows)}/sign_in.json` }]);
    assert.match(refused.message!, `scenarios.run's "parameters": {"PASSWORD": "..."}`);
    assert.is(bridge.locks.holder(ANDROID), undefined);
    assert.not.ok(existsSync(join(out, 'results')) && readdirSync(join(out, 'results')).length, 'no result document');

    const ran = (await c.requestRaw('scenarios.run', { device: ANDROID, scenario, out, refuse_missing_parameters: true, parameters: { PASSWORD: 'hunter22' } })) as { status: string; summary: string };
    assert.is(ran.status, 'passed', ran.summary);
  } finally {
    await c.close();
    rmSync(flows, { recursive: true, force: true });
  }
});

test.run();
