import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';

/**
 * A target that can match nothing (none, a blank one, a bad regex) is INVALID_PARAMETER at once.
 * Read as "not on screen", a wait for it to go passed with "undefined is gone" (QA pass of the MCP
 * server), and scroll_to swiped the whole list for it before reporting ELEMENT_NOT_FOUND.
 */
const A = 'virtual-android-1';

for (const [what, target] of [
  ['no target', {}],
  ['a blank target', { target: '   ' }],
  ['a target_pattern that is not a regex', { target_pattern: '([' }],
] as const) {
  test(`wait_for_element_gone with ${what}: INVALID_PARAMETER, not passed`, async () => {
    const engine = createEngine({ virtual: {}, android: false, ios: false });
    try {
      const ctx = await verbContext({ engine, device: A, targetWaitMs: 0 });
      assert.is((await runVerb(ctx, { action: 'open_url', value: 'mbdemo://screen/home' })).status, 'passed');
      const o = await runVerb(ctx, { action: 'wait_for_element_gone', ...target, wait_config: { type: 'element_gone', timeout_ms: 1000 } });
      assert.is(o.status, 'failed', o.message);
      assert.is(o.error?.code, 'INVALID_PARAMETER', o.message);
      assert.match(o.message, /no target given|not a valid regular expression/);
    } finally {
      await engine.close();
    }
  });
}

test('scroll_to_element with a target_pattern that is not a regex: INVALID_PARAMETER before any swipe', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const ctx = await verbContext({ engine, device: A, targetWaitMs: 0 });
    assert.is((await runVerb(ctx, { action: 'open_url', value: 'mbdemo://screen/home' })).status, 'passed');
    const swipes: string[] = [];
    engine.onCall((e) => {
      if (e.tool === 'mobile_swipe_on_screen') swipes.push(e.tool);
    });
    const o = await runVerb(ctx, { action: 'scroll_to_element', target_pattern: '^Item (4' });
    assert.is(o.error?.code, 'INVALID_PARAMETER', o.message);
    assert.match(o.message, /not a valid regular expression/);
    assert.equal(swipes, [], 'the list was not scrolled');
  } finally {
    await engine.close();
  }
});

test.run();
