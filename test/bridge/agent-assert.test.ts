/**
 * An agent's live checks and verbs over the bridge. agent.assert judges the 2.2 fields as a replay
 * does (SPEC §8): a false `condition` makes the check skipped, and `timeout_ms` keeps looking until
 * it passes; accepting them and ignoring them told an agent a check failed that its recorded
 * scenario would pass. Both say when another session acted on the device meanwhile.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, testBridge } from './helpers.js';

const test = suite('agent checks and verbs');

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

test('value_matches_variable compares with what the session read with capture_to, not with nothing', async () => {
  const c = await connectBridge(bridge.wsUrl, { client: 'asserter' });
  try {
    await c.request('verbs.run', { device: ANDROID, step: { action: 'open_url', value: 'mbdemo://screen/signin' } });
    await c.request('verbs.run', { device: ANDROID, step: { action: 'capture_value', target: 'Welcome back', capture_to: 'greeting' } });
    const same = (await c.requestRaw('agent.assert', { device: ANDROID, assertion: { type: 'value_matches_variable', element_description: 'Welcome back', variable_name: 'greeting' } })) as Outcome;
    assert.is(same.status, 'passed', JSON.stringify(same));
    const other = (await c.requestRaw('agent.assert', { device: ANDROID, assertion: { type: 'value_matches_variable', element_description: 'the Sign in button', variable_name: 'greeting' } })) as Outcome;
    assert.is(other.status, 'failed', JSON.stringify(other));
  } finally {
    await c.close();
  }
});

test('a verb or check after another session acted says so (others_acted), as tools.call does', async () => {
  const a = await connectBridge(bridge.wsUrl, { client: 'agent-a' });
  const b = await connectBridge(bridge.wsUrl, { client: 'agent-b' });
  try {
    const signin = { device: ANDROID, step: { action: 'open_url', value: 'mbdemo://screen/signin' } };
    const first = (await a.requestRaw('verbs.run', signin)) as { others_acted?: unknown };
    assert.is(first.others_acted, undefined, 'nobody else acted');
    await b.request('verbs.run', { device: ANDROID, step: { action: 'open_url', value: 'mbdemo://screen/home' } });
    const tap = (await a.requestRaw('verbs.run', { device: ANDROID, step: { action: 'tap', target: 'the Settings button' } })) as { status: string; others_acted?: { actions: { origin: string }[] } };
    assert.ok(tap.others_acted?.actions.some((x) => x.origin === b.session), JSON.stringify(tap));
    const again = (await a.requestRaw('verbs.run', signin)) as { others_acted?: unknown };
    assert.is(again.others_acted, undefined, 'told once');
    await b.request('verbs.run', { device: ANDROID, step: { action: 'open_url', value: 'mbdemo://screen/home' } });
    const check = (await a.requestRaw('agent.assert', { device: ANDROID, assertion: { type: 'screen_title', expected_text: 'Sign in' } })) as { status: string; others_acted?: { actions: { origin: string }[] } };
    assert.is(check.status, 'failed');
    assert.ok(check.others_acted?.actions.some((x) => x.origin === b.session), JSON.stringify(check));
  } finally {
    await a.close();
    await b.close();
  }
});

test.run();
