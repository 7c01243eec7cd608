import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { DEMO_CREDENTIALS } from '../../src/engine/drivers/virtual/apps/demo.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';

/**
 * Tester's report: a wait for "Items" passed on the sign-in screen, whose prompt "Sign in to see
 * your items." holds the word. A description names an element by its label, not by one word of
 * a sentence, so the wait must run out there and pass once the Items screen shows.
 */

const DEMO = 'com.mobilebridge.demo';

// A listing may also hold a container labelled "Items" like its title (an iOS navigation bar did): a
// near-tie that a wait, which only reads, must not call ambiguous.
for (const [device, target] of [
  ['virtual-android-1', 'Items'],
  ['virtual-ios-1', 'Items'],
  ['virtual-ios-1', 'the Items title'],
] as const) {
  test(`${device}: wait_for_element "${target}" times out on the sign-in screen, naming the sentence, and passes after signing in`, async () => {
    const engine = createEngine({ virtual: {}, android: false, ios: false });
    try {
      const ctx = await verbContext({ engine, device, targetWaitMs: 0 });
      for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: 'mbdemo://screen/signin' }]) {
        const o = await runVerb(ctx, step);
        assert.is(o.status, 'passed', o.message);
      }

      const early = await runVerb(ctx, { action: 'wait_for_element', target, wait_config: { type: 'element_visible', timeout_ms: 300 } });
      assert.is(early.status, 'failed', `passed on the sign-in screen: ${early.message}`);
      assert.is(early.error?.code, 'TIMEOUT');
      assert.is(early.resolved, null);
      assert.ok(early.message.includes('"Sign in to see your items."'), early.message);
      const tap = await runVerb(ctx, { action: 'tap', target });
      assert.is(tap.status, 'failed', `tapped on the sign-in screen: ${tap.message}`);
      assert.is(tap.error?.code, 'ELEMENT_NOT_FOUND');

      for (const step of [
        { action: 'type', target: 'the Email field', value: DEMO_CREDENTIALS.email },
        { action: 'type', target: 'the Password field', value: DEMO_CREDENTIALS.password },
        { action: 'tap', target: 'the Sign in button' },
      ]) {
        const o = await runVerb(ctx, step);
        assert.is(o.status, 'passed', o.message);
      }
      const shown = await runVerb(ctx, { action: 'wait_for_element', target, wait_config: { type: 'element_visible', timeout_ms: 15000 } });
      assert.is(shown.status, 'passed', shown.message);
      assert.is(shown.resolved?.text, 'Items');
    } finally {
      await engine.close();
    }
  });
}

test.run();
