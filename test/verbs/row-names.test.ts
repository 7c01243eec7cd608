import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';
import { errorResult } from '../../src/mcp/results.js';

/**
 * A list row without text of its own is named in messages by its title, as the inspector and the
 * resolver's candidates name it ("Item 4"), not by the app's id for it ("item_4"); the answer's
 * resolved.id stays that id.
 */

for (const device of ['virtual-android-1', 'virtual-ios-1']) {
  test(`${device}: tap, scroll_to, wait_for and read_text name a row by its title`, async () => {
    const engine = createEngine({ virtual: {}, android: false, ios: false });
    try {
      const ctx = await verbContext({ engine, device, targetWaitMs: 0 });
      assert.is((await runVerb(ctx, { action: 'open_url', value: 'mbdemo://screen/home' })).status, 'passed');
      for (const action of ['scroll_to_element', 'wait_for_element', 'capture_value', 'double_tap']) {
        const o = await runVerb(ctx, { action, target: 'Item 4', ...(action === 'wait_for_element' ? { wait_config: { type: 'element_visible', timeout_ms: 1000 } } : {}) });
        assert.is(o.status, 'passed', o.message);
        assert.match(o.message, '"Item 4" (listitem)', `${action}: ${o.message}`);
        assert.not.match(o.message, 'item_4', `${action}: ${o.message}`);
        assert.is(o.resolved?.id, 'item_4');
      }
    } finally {
      await engine.close();
    }
  });
}

test('a filled text field is named by its hint, not by what was typed into it', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const ctx = await verbContext({ engine, device: 'virtual-android-1', targetWaitMs: 0 });
    assert.is((await runVerb(ctx, { action: 'open_url', value: 'mbdemo://screen/signin' })).status, 'passed');
    assert.is((await runVerb(ctx, { action: 'type', target: 'the Email field', value: 'ada@example.com' })).status, 'passed');
    const o = await runVerb(ctx, { action: 'tap', target: 'the Email field' });
    assert.match(o.message, 'tapped "Email" (edittext)');
    assert.not.match(o.message, 'ada@');
  } finally {
    await engine.close();
  }
});

test('MCP: the closest elements of a near-tie are named by what rows show', () => {
  const text = (errorResult('ELEMENT_NOT_FOUND', 'ambiguous', [{ id: 'item_4', type: 'listitem', text: '', label: null, shows: 'Item 4', score: 0.9 }]).content[0] as { text: string }).text;
  assert.match(text, 'Closest elements: "Item 4" (listitem)');
});

test.run();
