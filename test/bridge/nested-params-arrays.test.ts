import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RPC_ERRORS } from '../../src/protocol/index.js';
import { ANDROID, RawClient, testBridge, type Json } from './helpers.js';

const test = suite('bridge nested params refuse arrays');

/** The -32602 refusal of one request, with its issues. */
async function refusal(raw: RawClient, id: string, method: string, params: unknown): Promise<{ message: string; issues: { path: string; message: string }[] }> {
  raw.send({ jsonrpc: '2.0', id, method, params });
  const res = await raw.response(id);
  const error = res.error as { code: number; message: string; data: { issues: { path: string; message: string }[] } } | undefined;
  assert.is(error?.code, RPC_ERRORS.INVALID_PARAMS, `${method} ${JSON.stringify(params)}: ${JSON.stringify(res)}`);
  return { message: error!.message, issues: error!.data.issues };
}

test('an array where a method takes a nested object is -32602 naming the parameter, not taken as {}', async () => {
  const { bridge } = await testBridge();
  const raw = await RawClient.open(bridge.wsUrl);
  try {
    for (const screen of [[], [1], null]) {
      const r = await refusal(raw, `screen-${JSON.stringify(screen)}`, 'devices.subscribe', { device: ANDROID, screen });
      assert.equal(r.issues.map((i) => i.path), ['screen']);
      assert.match(r.message, /screen must be a JSON object of screen options/);
    }
    const step = await refusal(raw, 'step', 'verbs.run', { device: ANDROID, step: [] });
    assert.equal(step.issues.map((i) => i.path), ['step']);
    assert.match(step.message, /step must be a scenario step object/);
    const parameters = await refusal(raw, 'parameters', 'scenarios.run', { device: ANDROID, scenario: {}, parameters: [] });
    assert.equal(parameters.issues.map((i) => i.path), ['parameters']);
    assert.match(parameters.message, /parameters must be a JSON object/);
    const assertion = await refusal(raw, 'assertion', 'agent.assert', { device: ANDROID, assertion: Object.assign([], { type: 'element_exists' }) });
    assert.equal(assertion.issues.map((i) => i.path), ['assertion']);
    assert.match(assertion.message, /assertion must be a JSON object/);
    // Objects still pass: {} is the default screen.
    raw.send({ jsonrpc: '2.0', id: 'ok', method: 'devices.subscribe', params: { device: ANDROID, screen: {} } });
    const ok = (await raw.response('ok')).result as Json;
    assert.equal((ok.screen as Json).maxFps, 30);
  } finally {
    await raw.close();
    await bridge.close();
  }
});

test.run();
