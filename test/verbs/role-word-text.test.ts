import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';

/**
 * Audit: on the demo's "Item not found" screen, read_text "Item not found" was ambiguous with the
 * toolbar's "Not found", and a wait for "Item Welcome back" passed on the sign-in screen's
 * "Welcome back": "Item" was taken for a row and dropped.
 */

const DEMO = 'com.mobilebridge.demo';

for (const device of ['virtual-android-1', 'virtual-ios-1']) {
  test(`${device}: "Item not found" reads that text; "Item Welcome back" is not "Welcome back"`, async () => {
    const engine = createEngine({ virtual: {}, android: false, ios: false });
    try {
      const ctx = await verbContext({ engine, device, targetWaitMs: 0 });
      for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: 'mbdemo://item/999' }]) {
        assert.is((await runVerb(ctx, step)).status, 'passed');
      }
      const read = await runVerb(ctx, { action: 'capture_value', target: 'Item not found' });
      assert.equal([read.status, read.value, read.resolved?.id], ['passed', 'Item not found', 'not_found_title'], read.message);
      const seen = await runVerb(ctx, { action: 'wait_for_element', target: 'Item not found', wait_config: { type: 'element_visible', timeout_ms: 300 } });
      assert.equal([seen.status, seen.resolved?.id], ['passed', 'not_found_title'], seen.message);

      assert.is((await runVerb(ctx, { action: 'open_url', value: 'mbdemo://screen/signin' })).status, 'passed');
      const wrong = await runVerb(ctx, { action: 'wait_for_element', target: 'Item Welcome back', wait_config: { type: 'element_visible', timeout_ms: 300 } });
      assert.equal([wrong.status, wrong.error?.code, wrong.resolved], ['failed', 'TIMEOUT', null], `passed on ${JSON.stringify(wrong.resolved)}: ${wrong.message}`);
      const right = await runVerb(ctx, { action: 'wait_for_element', target: 'Welcome back', wait_config: { type: 'element_visible', timeout_ms: 300 } });
      assert.is(right.status, 'passed', right.message);
    } finally {
      await engine.close();
    }
  });
}

test.run();
