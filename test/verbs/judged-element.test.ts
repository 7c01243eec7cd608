import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { evaluateLive, parseAssertion } from '../../src/engine/agent/live-assertion.js';
import { createEngine } from '../../src/engine/create.js';
import { ManualClock } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { runVerb, verbContext, type VerbContext } from '../../src/engine/verbs/index.js';

/**
 * Checks that judge one element's properties check the element meant: on the demo sign-in
 * screen "Sign in" is both the toolbar title (first in reading order) and the disabled button.
 */

const DEMO = 'com.mobilebridge.demo';

const test = suite<{ engine: Engine; dir: string; ctx: (device: string) => Promise<VerbContext> }>('element checks judge the element meant');
test.before.each((c) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9, 30));
  c.engine = createEngine({ virtual: { clock }, android: false, ios: false });
  c.dir = mkdtempSync(join(tmpdir(), 'mb-judged-'));
  c.ctx = (device) => verbContext({ engine: c.engine, device, targetWaitMs: 500, clock: { now: () => clock.now(), sleep: async (ms) => clock.advance(ms) } });
});
test.after.each(async (c) => {
  await c.engine.close();
  rmSync(c.dir, { recursive: true, force: true });
});

async function signInScreen(ctx: VerbContext): Promise<void> {
  for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: 'mbdemo://screen/signin' }]) {
    const o = await runVerb(ctx, step);
    assert.is(o.status, 'passed', o.message);
  }
}

for (const device of ['virtual-android-1', 'virtual-ios-1']) {
  test(`${device}: element_state "Sign in" enabled fails while the Sign in button is disabled, naming the button`, async ({ ctx, dir }) => {
    const verbs = await ctx(device);
    await signInScreen(verbs);
    const check = (a: Record<string, unknown>) => evaluateLive(verbs, parseAssertion(a), { toasts: [] }, 0, dir);
    const enabled = await check({ type: 'element_state', element_description: 'Sign in', state_property: 'enabled' });
    assert.is(enabled.status, 'failed', enabled.message);
    assert.match(enabled.message, '"Sign in" (button, id sign_in) is not enabled');
    const disabled = await check({ type: 'element_state', element_description: 'Sign in', state_property: 'disabled' });
    assert.is(disabled.status, 'passed', disabled.message);
    const button = await check({ type: 'element_state', element_description: 'the Sign in button', state_property: 'enabled' });
    assert.is(button.status, 'failed', button.message);
    assert.match(button.message, '(button, id sign_in)');
    const visible = await check({ type: 'element_fully_visible', element_description: 'Sign in' });
    assert.is(visible.status, 'passed', visible.message);
    assert.match(visible.message, '"Sign in" (button, id sign_in): it lies wholly on screen');
    // A text read is not a judgement of one element: the title reads as well as the button.
    const text = await check({ type: 'element_text', element_description: 'Sign in', expected_value: 'Sign in' });
    assert.is(text.status, 'passed', text.message);
  });

  test(`${device}: a failed element_text on a filled field names the field, not by what was typed`, async ({ ctx, dir }) => {
    const verbs = await ctx(device);
    await signInScreen(verbs);
    for (const step of [{ action: 'type', target: 'the Email field', value: 'ada@example.com' }]) {
      const o = await runVerb(verbs, step);
      assert.is(o.status, 'passed', o.message);
    }
    const read = await evaluateLive(verbs, parseAssertion({ type: 'element_text', element_description: 'the Email field', expected_value: 'bob@example.com' }), { toasts: [] }, 0, dir);
    assert.is(read.status, 'failed', read.message);
    assert.match(read.message, /the "(Email|email)" field reads "ada@example.com"/);
    assert.not.match(read.message, /"ada@example.com" reads/);
  });
}

test.run();
