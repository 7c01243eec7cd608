/**
 * agent.assert judges the 2.2 fields as a replay does (SPEC §8): a false `condition` makes the
 * check skipped, and `timeout_ms` keeps looking until it passes. Accepting them and ignoring them
 * told an agent a check failed that its recorded scenario would pass.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, testBridge } from './helpers.js';

const test = suite('agent.assert 2.2 fields');

let bridge: Bridge;
test.before.each(async () => {
  ({ bridge } = await testBridge());
});
test.after.each(async () => {
  await bridge.close();
});

type Outcome = { status: string; message: string };

test('a false condition skips the check; a true one checks it', async () => {
  const c = await connectBridge(bridge.wsUrl, { client: 'asserter' });
  try {
    const onIos = { type: 'device_property', property: 'platform', value: 'ios' };
    const skipped = (await c.requestRaw('agent.assert', { device: ANDROID, assertion: { type: 'element_exists', element_description: 'the Banana button', condition: onIos } })) as Outcome;
    assert.is(skipped.status, 'skipped', JSON.stringify(skipped));
    assert.match(skipped.message, 'condition false: platform is "android"');
    const onAndroid = { ...onIos, value: 'android' };
    const checked = (await c.requestRaw('agent.assert', { device: ANDROID, assertion: { type: 'element_exists', element_description: 'the Banana button', condition: onAndroid } })) as Outcome;
    assert.is(checked.status, 'failed', JSON.stringify(checked));
  } finally {
    await c.close();
  }
});

test('timeout_ms waits for the screen: the list shown after the loading screen passes', async () => {
  const c = await connectBridge(bridge.wsUrl, { client: 'asserter' });
  try {
    // The demo's loading screen turns into the item list 1500 ms later, past the 1 s settle rule.
    await c.request('verbs.run', { device: ANDROID, step: { action: 'open_url', value: 'mbdemo://screen/loading' } });
    const waited = (await c.requestRaw('agent.assert', { device: ANDROID, assertion: { type: 'screen_title', expected_text: 'Items', timeout_ms: 20_000 } })) as Outcome;
    assert.is(waited.status, 'passed', JSON.stringify(waited));
  } finally {
    await c.close();
  }
});

test.run();
