import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { ManualClock } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { runVerb, verbContext, type VerbContext } from '../../src/engine/verbs/index.js';

/** capture_value (MCP read_text) never passes with a value it did not read (tester: "Item 12" read as ""). */

const A = 'virtual-android-1';
const DEMO = 'com.mobilebridge.demo';

const test = suite<{ engine: Engine; clock: ManualClock; ctx: () => Promise<VerbContext> }>('capture_value reads text or fails');
test.before.each((c) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 30));
  c.clock = clock;
  c.engine = createEngine({ virtual: { clock }, android: false, ios: false });
  c.ctx = () => verbContext({ engine: c.engine, device: A, targetWaitMs: 500, clock: { now: () => clock.now(), sleep: async (ms) => clock.advance(ms) } });
});
test.after.each(async (c) => {
  await c.engine.close();
});

async function open(ctx: VerbContext, url: string): Promise<void> {
  for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: url }]) {
    const o = await runVerb(ctx, step);
    assert.is(o.status, 'passed', o.message);
  }
}

test('a row cut by the screen edge, its texts off screen: not a read of "", a failure saying it shows no text', async ({ ctx }) => {
  const verbs = await ctx();
  await open(verbs, 'mbdemo://screen/home');
  const o = await runVerb(verbs, { action: 'capture_value', target: 'Item 12' });
  assert.is(o.status, 'failed', `${o.status}: ${JSON.stringify(o.value)} ${o.message}`);
  assert.is(o.value, undefined);
  assert.is(o.error?.code, 'ELEMENT_NOT_FOUND');
  assert.match(o.message, /"item_12" \(listitem\).*found on virtual-android-1 but shows no text.*Scroll it into view/);
  // Once it is in view, the same step reads the row's title.
  assert.is((await runVerb(verbs, { action: 'swipe', value: 'up' })).status, 'passed');
  const read = await runVerb(verbs, { action: 'capture_value', target: 'Item 12' });
  assert.is(read.status, 'passed', read.message);
  assert.is(read.value, 'Item 12');
});

test('an empty text field is a true read of ""', async ({ ctx }) => {
  const verbs = await ctx();
  await open(verbs, 'mbdemo://screen/signin');
  const o = await runVerb(verbs, { action: 'capture_value', target: 'the Email field' });
  assert.is(o.status, 'passed', o.message);
  assert.is(o.value, '');
  assert.is(o.resolved?.type, 'edittext');
});

test.run();
