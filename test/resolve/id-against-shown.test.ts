import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { evaluateLive, parseAssertion, watchHistory } from '../../src/engine/agent/live-assertion.js';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';

/**
 * Audit h8 finding 2: a button that keeps its id when its text flips (like_button showing "Unlike")
 * was tapped for "Like" on the id alone (0.48 + 0.1 interact bonus). An id names textless elements;
 * it does not outvote a text that says otherwise.
 */

const screen = { width: 1080, height: 2400 };
const resolver = new DeterministicResolver();

function el(id: string, type: string, y: number, extra: Partial<UiElement> = {}): UiElement {
  return { id, text: '', type, accessibility_label: null, x: 0, y, width: 1000, height: 100, center: { x: 500, y: y + 50 }, visible: true, enabled: true, ...extra } as UiElement;
}

const button = (text: string, rid: string, extra: Partial<UiElement> = {}) => el(rid, 'button', 500, { text, resource_id: `com.example:id/${rid}`, clickable: true, ...extra });

for (const [description, shown, rid] of [
  ['Like', 'Unlike', 'like_button'],
  ['the Like button', 'Unlike', 'like_button'],
  ['Follow', 'Unfollow', 'follow'],
  ['the Follow button', 'Unfollow', 'follow_button'],
  ['Unfollow', 'Follow', 'unfollow_button'],
  ['Mute', 'Unmute', 'mute'],
  ['Connect', 'Disconnect', 'connect_button'],
  ['Sign in', 'Sign out', 'sign_in'],
  ['Turn on', 'Turn off', 'turn_on'],
] as const) {
  for (const intent of ['interact', 'read'] as const) {
    test(`${intent}: ${JSON.stringify(description)} does not resolve to a button showing ${JSON.stringify(shown)} by its id ${rid}`, () => {
      for (const element of [button(shown, rid), button('', rid, { accessibility_label: shown })]) {
        const r = resolver.resolve({ description, intent, screen }, [element]);
        assert.is(r.ok, false, r.ok ? `resolved to "${r.element.text || r.element.accessibility_label}" (${r.confidence})` : '');
        if (!r.ok) {
          assert.is(r.reason, 'low_confidence');
          assert.is(r.candidates[0]?.id, rid);
          // 0.3 of the id's score and no interact bonus on top (or what the text itself scores, 0.3·F1 + 0.1).
          assert.ok(r.candidates[0].score <= 0.3, `score ${r.candidates[0].score}`);
        }
        assert.equal(resolver.findAll({ description, intent, screen }, [element]), []);
      }
    });
  }
}

test('a textless element is still found by its id, and an id still says what a changing text is about', () => {
  const icon = resolver.resolve({ description: 'Like', screen }, [el('like_button', 'button', 500, { resource_id: 'app:id/like_button', clickable: true })]);
  assert.ok(icon.ok, icon.ok ? '' : icon.message);
  if (icon.ok) assert.ok(icon.confidence >= 0.7, `${icon.confidence}`);
  const state = resolver.resolve({ description: 'the like state', intent: 'read', screen }, [el('like_state', 'text', 500, { text: 'Not liked yet', resource_id: 'app:id/like_state' })]);
  assert.ok(state.ok, state.ok ? '' : state.message);
  // A text that does not say otherwise keeps its id match as before.
  const liked = resolver.resolve({ description: 'Like', screen }, [button('♥', 'like_button')]);
  assert.ok(liked.ok, liked.ok ? '' : liked.message);
});

test('with both on screen, "Like" and "Unlike" each find their own', () => {
  const elements = [button('Unlike', 'like_button', { id: 'a', y: 300 }), button('Like', 'like_button', { id: 'b', y: 700 })];
  for (const [description, id] of [['Like', 'b'], ['Unlike', 'a'], ['the Like button', 'b']]) {
    const r = resolver.resolve({ description, screen }, elements);
    assert.ok(r.ok, r.ok ? '' : r.message);
    if (r.ok) assert.is(r.element.id, id, description);
  }
});

const DEMO = 'com.mobilebridge.demo';

for (const device of ['virtual-android-1', 'virtual-ios-1']) {
  test(`${device}: on a liked item, "Like" is not the Unlike button (id like_button)`, async () => {
    const engine = createEngine({ virtual: {}, android: false, ios: false });
    try {
      const ctx = await verbContext({ engine, device, targetWaitMs: 0 });
      for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: 'mbdemo://item/3' }, { action: 'tap', target: 'Like' }]) {
        const o = await runVerb(ctx, step);
        assert.is(o.status, 'passed', o.message);
      }
      const check = async (a: Record<string, unknown>) => evaluateLive(ctx, parseAssertion(a), watchHistory(ctx).history, 0);
      assert.is((await check({ type: 'element_text', element_description: 'the like state', expected_value: '♥ Liked' })).status, 'passed');

      const again = await runVerb(ctx, { action: 'tap', target: 'Like' });
      assert.is(again.status, 'failed', `tapped: ${again.message}`);
      assert.is(again.error?.code, 'ELEMENT_NOT_FOUND');
      assert.is((await check({ type: 'element_exists', element_description: 'the Like button' })).status, 'failed');
      // Still liked.
      assert.is((await check({ type: 'element_text', element_description: 'the like state', expected_value: '♥ Liked' })).status, 'passed');

      const unlike = await runVerb(ctx, { action: 'tap', target: 'Unlike' });
      assert.is(unlike.status, 'passed', unlike.message);
      assert.is(unlike.resolved?.text, 'Unlike');
    } finally {
      await engine.close();
    }
  });
}

test.run();
