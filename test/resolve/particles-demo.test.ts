import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { evaluateLive, parseAssertion, watchHistory } from '../../src/engine/agent/live-assertion.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';

/**
 * Audit h8 finding 1 on the virtual demo app: the settings screen shows "Sign out" only. A tap on
 * "Sign in" signed the user out and passed, and element_exists "Sign in" passed on "Sign out".
 */

const DEMO = 'com.mobilebridge.demo';

for (const device of ['virtual-android-1', 'virtual-ios-1']) {
  test(`${device}: on the settings screen "Sign in" is not the Sign out button, for taps, waits and element checks`, async () => {
    const engine = createEngine({ virtual: {}, android: false, ios: false });
    try {
      const ctx = await verbContext({ engine, device, targetWaitMs: 0 });
      for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: 'mbdemo://screen/settings' }]) {
        const o = await runVerb(ctx, step);
        assert.is(o.status, 'passed', o.message);
      }
      const check = async (a: Record<string, unknown>) => evaluateLive(ctx, parseAssertion(a), watchHistory(ctx).history, 0);

      const tap = await runVerb(ctx, { action: 'tap', target: 'Sign in' });
      assert.is(tap.status, 'failed', `tapped: ${tap.message}`);
      assert.is(tap.error?.code, 'ELEMENT_NOT_FOUND');
      const wait = await runVerb(ctx, { action: 'wait_for_element', target: 'the Sign in button', wait_config: { type: 'element_visible', timeout_ms: 300 } });
      assert.is(wait.status, 'failed', `waited: ${wait.message}`);
      assert.is((await check({ type: 'element_exists', element_description: 'Sign in' })).status, 'failed');
      assert.is((await check({ type: 'element_not_exists', element_description: 'the Sign in button' })).status, 'passed');
      // Still signed in: the Sign out button is where it was.
      assert.is((await check({ type: 'element_exists', element_description: 'the Sign out button' })).status, 'passed');

      const out = await runVerb(ctx, { action: 'tap', target: 'Sign out' });
      assert.is(out.status, 'passed', out.message);
      const shown = await runVerb(ctx, { action: 'wait_for_element', target: 'the Sign in button', wait_config: { type: 'element_visible', timeout_ms: 5000 } });
      assert.is(shown.status, 'passed', shown.message);
      assert.is(shown.resolved?.text, 'Sign in');
    } finally {
      await engine.close();
    }
  });
}

test.run();
