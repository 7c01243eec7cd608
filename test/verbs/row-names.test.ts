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

test('virtual-ios-1: a row whose title scrolled off the top of its list is not named by its subtitle; what resolves is unchanged', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const ctx = await verbContext({ engine, device: 'virtual-ios-1', targetWaitMs: 0 });
    for (const step of [{ action: 'open_url', value: 'mbdemo://screen/home' }, { action: 'scroll_to_element', target: 'Item 25' }, { action: 'tap', target: 'Item 25' }, { action: 'press_back' }]) {
      const o = await runVerb(ctx, step);
      assert.is(o.status, 'passed', `${step.action}: ${o.message}`);
    }
    const o = await runVerb(ctx, { action: 'tap', target: 'item' });
    assert.is(o.error?.code, 'ELEMENT_NOT_FOUND', o.message);
    assert.match(o.message, /"item" is ambiguous: 11 elements match/);
    const cut = o.error?.candidates?.find((c) => c.id === 'item_18');
    assert.ok(cut, JSON.stringify(o.error?.candidates));
    assert.is(cut!.shows, undefined, 'only its subtitle shows, which is not its title');
    assert.not.match(o.message, 'Fresh today');
    assert.match(o.message, '"Item 19" (listitem, id item_19');
  } finally {
    await engine.close();
  }
});

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
