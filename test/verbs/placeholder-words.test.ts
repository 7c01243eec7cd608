import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import { listElements, runVerb, verbContext } from '../../src/engine/verbs/index.js';

/**
 * From a session note: "Items" was taken for the search field hinted "Search your items" (one
 * word of three in its placeholder). A description names an element by its own text or label; a
 * placeholder names its field only when the description says the whole placeholder or speaks of
 * a field.
 */

const DEMO = 'com.mobilebridge.demo';

for (const device of ['virtual-android-1', 'virtual-ios-1']) {
  test(`${device}: "Items" is not the field hinted "Search your items"; the field is found when the description speaks of it`, async () => {
    const engine = createEngine({ virtual: {}, android: false, ios: false });
    try {
      const ctx = await verbContext({ engine, device, targetWaitMs: 0 });
      for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: 'mbdemo://screen/search' }]) {
        const o = await runVerb(ctx, step);
        assert.is(o.status, 'passed', o.message);
      }

      // Every item is listed while the field is empty: "Items" shares a word with each row, never the field.
      const rows = await runVerb(ctx, { action: 'tap', target: 'Items' });
      assert.is(rows.status, 'failed', `tapped ${rows.resolved?.id}: ${rows.message}`);
      assert.not.ok(rows.error?.candidates?.some((c) => c.id === 'search'), rows.message);
      assert.not.ok((await listElements(ctx)).some((e) => e.type === 'keyboard'), 'the search field was focused');

      for (const target of ['Search your items', 'the search field', 'the field hinted search', 'the Items field']) {
        const tap = await runVerb(ctx, { action: 'tap', target });
        assert.is(tap.status, 'passed', `${target}: ${tap.message}`);
        assert.is(tap.resolved?.id, 'search', target);
      }

      const typed = await runVerb(ctx, { action: 'type', target: 'the search field', value: 'zzz' });
      assert.is(typed.status, 'passed', typed.message);
      const empty = await runVerb(ctx, { action: 'wait_for_element', target: 'No items', wait_config: { type: 'element_visible', timeout_ms: 5000 } });
      assert.is(empty.status, 'passed', empty.message);
      // Only the placeholder and the negated "No items" hold the word now: nothing is called Items.
      const wrong = await runVerb(ctx, { action: 'tap', target: 'Items' });
      assert.is(wrong.status, 'failed', `tapped ${wrong.resolved?.id} beside "No items": ${wrong.message}`);
      assert.is(wrong.error?.code, 'ELEMENT_NOT_FOUND');
      // The miss still names the field, so the caller learns how to describe it.
      assert.ok(wrong.error?.candidates?.some((c) => c.id === 'search'), wrong.message);
    } finally {
      await engine.close();
    }
  });
}

test('virtual-android-1: on the list, "Items" is the title, and texts sharing only that word are not candidates', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const ctx = await verbContext({ engine, device: 'virtual-android-1', targetWaitMs: 0 });
    for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: 'mbdemo://screen/home' }]) {
      const o = await runVerb(ctx, step);
      assert.is(o.status, 'passed', o.message);
    }
    const r = new DeterministicResolver().resolve({ description: 'Items' }, await listElements(ctx));
    assert.ok(r.ok, r.ok ? '' : r.message);
    if (!r.ok) return;
    assert.is(r.element.id, 'toolbar_title');
    const others = r.candidates.filter((c) => c.id !== 'toolbar_title').map((c) => c.text || c.id);
    assert.ok(others.every((name) => !/^item \d+$/i.test(name)), `rows listed as candidates: ${others.join(', ')}`);

    // A description that names an element exactly still reaches it among the rows.
    const row = await runVerb(ctx, { action: 'tap', target: 'Item 2' });
    assert.is(row.status, 'passed', row.message);
  } finally {
    await engine.close();
  }
});

test('virtual-android-1: several words of a placeholder ("web address" of "Search or type web address") still point at its field', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const ctx = await verbContext({ engine, device: 'virtual-android-1', targetWaitMs: 0 });
    const launched = await runVerb(ctx, { action: 'launch_app', value: 'com.android.chrome' });
    assert.is(launched.status, 'passed', launched.message);
    // The new tab's text "Type a web address or search." holds the same two words: the caller is
    // asked to choose, the address bar among the candidates; the page text alone is never taken.
    const tap = await runVerb(ctx, { action: 'tap', target: 'web address' });
    assert.is.not(tap.resolved?.id, 'page_body', tap.message);
    assert.ok(tap.resolved?.id === 'url_bar' || tap.error?.candidates?.some((c) => c.id === 'url_bar'), tap.message);
  } finally {
    await engine.close();
  }
});

test.run();
