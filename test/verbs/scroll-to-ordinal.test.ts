import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { ManualClock } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';

/**
 * scroll_to_element with an ordinal ("the last row") follows the element it chose before scrolling:
 * resolving the description again after each short scroll chased a new last row and failed with "the
 * list may not scroll further" on a 60-row list.
 */

const ANDROID = 'virtual-android-1';
const test = suite<{ engine: Engine; clock: ManualClock }>('scroll_to_element follows the element an ordinal chose');

test.before.each((c) => {
  c.clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 30));
  c.engine = createEngine({ virtual: { clock: c.clock }, android: false, ios: false });
});
test.after.each(async (c) => {
  await c.engine.close();
});

test('"the last row", cut by its list, is brought in whole, and it is the row that was last', async ({ engine, clock }) => {
  const ctx = await verbContext({ engine, device: ANDROID, targetWaitMs: 500, clock: { now: () => clock.now(), sleep: async (ms) => clock.advance(ms) } });
  await runVerb(ctx, { action: 'open_url', value: 'mbdemo://screen/home' });
  const rows = ((await engine.call('mobile_list_elements_on_screen', { device: ANDROID })) as { elements: UiElement[] }).elements.filter((e) => /^item_\d+$/.test(e.id));
  const last = rows.at(-1)!;
  assert.ok(last.height < Math.max(...rows.map((r) => r.height)), 'the last row shows in part');
  const o = await runVerb(ctx, { action: 'scroll_to_element', target: 'the last row' });
  assert.is(o.status, 'passed', o.message);
  assert.is(o.resolved?.id, last.id, o.message);
  const now = ((await engine.call('mobile_list_elements_on_screen', { device: ANDROID })) as { elements: UiElement[] }).elements.find((e) => e.id === last.id);
  assert.is(now?.height, Math.max(...rows.map((r) => r.height)), 'all of it shows');
});

test.run();
