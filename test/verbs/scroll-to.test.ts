import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { listElements, runVerb, verbContext } from '../../src/engine/verbs/index.js';
import { VERB_TOOLS } from '../../src/mcp/verb-tools.js';

/** scroll_to_element (MCP scroll_to) says "scrolled to" only when the whole element is in view. */

const DEMO = 'com.mobilebridge.demo';

for (const [device, setUp, target, id] of [
  // The demo's home screen ends its list on a 27-px strip of item 12, cut by the list's bottom edge.
  ['virtual-android-1', [] as { action: string; value: string }[], 'Item 12', 'item_12'],
  ['virtual-ios-1', [{ action: 'swipe', value: 'up' }], 'Item 14', 'item_14'],
] as const) {
  test(`${device}: a row cut by its list's edge is scrolled fully into view, then its title reads`, async () => {
    const engine = createEngine({ virtual: {}, android: false, ios: false });
    try {
      const ctx = await verbContext({ engine, device, targetWaitMs: 0 });
      for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: 'mbdemo://screen/home' }, ...setUp]) {
        assert.is((await runVerb(ctx, step)).status, 'passed');
      }
      const o = await runVerb(ctx, { action: 'scroll_to_element', target });
      assert.is(o.status, 'passed', o.message);
      const rows = (await listElements(ctx)).filter((e) => e.type === 'listitem');
      const row = rows.find((e) => e.id === id);
      assert.ok(row, `${id} listed: ${rows.map((e) => e.id).join(', ')}`);
      assert.is(row!.height, Math.max(...rows.map((e) => e.height)), `${id} is whole (${row!.height} px)`);
      const read = await runVerb(ctx, { action: 'capture_value', target });
      assert.equal([read.status, read.value], ['passed', target], read.message);
    } finally {
      await engine.close();
    }
  });
}

test('without a target: INVALID_PARAMETER saying what to give, not "undefined did not appear" after scrolling', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const ctx = await verbContext({ engine, device: 'virtual-android-1', targetWaitMs: 0 });
    const o = await runVerb(ctx, { action: 'scroll_to_element' });
    assert.equal([o.status, o.error?.code], ['failed', 'INVALID_PARAMETER'], o.message);
    assert.match(o.message, 'scroll_to_element needs "target"');
  } finally {
    await engine.close();
  }
});

test('not found: it says how many swipes went each way, within the most the tool promises, and where the list ended', async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false });
  try {
    const ctx = await verbContext({ engine, device: 'virtual-ios-1', targetWaitMs: 0 });
    assert.is((await runVerb(ctx, { action: 'open_url', value: 'mbdemo://screen/home' })).status, 'passed');
    const o = await runVerb(ctx, { action: 'scroll_to_element', target: 'Item 99' });
    assert.equal([o.status, o.error?.code], ['failed', 'ELEMENT_NOT_FOUND'], o.message);
    const ways = [...o.message.matchAll(/(\d+) swipes (up|down) until the list stopped moving at its (bottom|top), at "([^"]+)"/g)].map((m) => [Number(m[1]), m[2], m[3], m[4]]);
    assert.equal(ways.map((w) => w.slice(1)), [['up', 'bottom', 'Item 60'], ['down', 'top', 'Item 1']], o.message);
    const most = Number(/at most (\d+) swipes each way/.exec(VERB_TOOLS.find((t) => t.name === 'scroll_to')!.description)?.[1]);
    for (const [swipes] of ways) assert.ok((swipes as number) <= most, `${o.message} (the tool says at most ${most} each way)`);
    assert.not.match(o.message, 'in both directions');
  } finally {
    await engine.close();
  }
});

test.run();
