import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import type { Engine } from '../../src/engine/engine.js';
import type { UiElement } from '../../src/engine/types.js';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import { findTarget, listElements, runVerb, verbContext, realClock, type VerbContext } from '../../src/engine/verbs/index.js';

/**
 * A type step types into the focused field whatever its target was; it must never report
 * "typed into X" when X is not the field that took the text (tester's report: "Welcome back").
 */

const DEMO = 'com.mobilebridge.demo';

function el(id: string, type: UiElement['type'], y: number, extra: Partial<UiElement> = {}): UiElement {
  const height = extra.height ?? 100;
  return { id, text: '', type, accessibility_label: null, x: 0, y, width: 1000, height, visible: true, enabled: true, center: { x: 500, y: y + height / 2 }, ...extra };
}

/** A screen that never changes; taps and typing are counted. */
function fakeScreen(elements: UiElement[]): { ctx: VerbContext; calls: string[] } {
  const calls: string[] = [];
  const engine = {
    async call(tool: string) {
      calls.push(tool);
      if (tool === 'mobile_list_elements_on_screen') return { elements };
      if (tool === 'mobile_get_screen_size') return { width: 1000, height: 2000 };
      return { status: 'success', message: 'done' };
    },
    hold: (_device: string, _what: string, work: (hold: unknown) => Promise<unknown>) => work({ covers: () => true }),
  } as unknown as Engine;
  const ctx: VerbContext = { engine, device: 'fake-1', os: 'Android', origin: 'test', resolver: new DeterministicResolver(), clock: realClock, targetWaitMs: 0, pollMs: 10 };
  return { ctx, calls };
}

test('typing prefers the field when a label and a field match the description alike; a tap keeps the plain resolution', async () => {
  const label = el('label', 'text', 400, { text: 'Email' });
  const field = el('field', 'edittext', 520, { hint: 'Email', clickable: true });
  const { ctx } = fakeScreen([label, field]);
  const isField = (e: UiElement) => e.type === 'edittext';
  const typing = await findTarget(ctx, { action: 'type', target: 'Email' }, 'interact', 0, isField);
  assert.is(typing.element.id, 'field');
  const plain = await findTarget(ctx, { action: 'tap', target: 'Email' }, 'interact', 0).then((r) => r.element.id, (err: Error) => err.message);
  assert.is.not(plain, 'field', 'without the preference the label ties with the field (or wins)');
});

test('typing still finds a field by the label above it, and does not turn a heading into a field', async () => {
  const heading = el('heading', 'text', 100, { text: 'Welcome back' });
  const label = el('label', 'text', 400, { text: 'Email' });
  const field = el('field', 'edittext', 520, { clickable: true });
  const { ctx } = fakeScreen([heading, label, field]);
  const isField = (e: UiElement) => e.type === 'edittext';
  assert.is((await findTarget(ctx, { action: 'type', target: 'the Email field' }, 'interact', 0, isField)).element.id, 'field');
  assert.is((await findTarget(ctx, { action: 'type', target: 'Welcome back' }, 'interact', 0, isField)).element.id, 'heading');
});

test('a target that is not a field: types into the focused field inside it, and says which', async () => {
  const row = el('notes_row', 'listitem', 400, { height: 300, clickable: true, accessibility_label: 'Notes' });
  const field = el('notes', 'edittext', 450, { focused: true, hint: 'Write a note' });
  const { ctx, calls } = fakeScreen([row, field]);
  const o = await runVerb(ctx, { action: 'type', target: 'the Notes row', value: 'hello' });
  assert.is(o.status, 'passed', o.message);
  assert.is(o.resolved?.id, 'notes', 'resolved is the field that took the text');
  assert.match(o.message, /into "notes"/);
  assert.ok(calls.includes('mobile_type_keys'));
});

test('the message names the field by its label or id, never by what it holds (earlier typing, a secret among it)', async () => {
  const label = el('label', 'text', 100, { text: 'Account code' });
  const field = el('code', 'edittext', 220, { focused: true, text: 'Quartz-Vortex_88!' });
  const { ctx } = fakeScreen([label, field]);
  const o = await runVerb(ctx, { action: 'type', target: 'the field below Account code', value: 'x' });
  assert.is(o.status, 'passed', o.message);
  assert.match(o.message, /into "code"/);
  assert.not.ok(o.message.includes('Quartz'), o.message);
});

test('a target that is not a field, with no field focused afterwards: fails and types nothing', async () => {
  const heading = el('heading', 'text', 100, { text: 'Welcome back' });
  const field = el('email', 'edittext', 520, { hint: 'Email' });
  const { ctx, calls } = fakeScreen([heading, field]);
  const o = await runVerb(ctx, { action: 'type', target: 'Welcome back', value: 'zzz' });
  assert.is(o.status, 'failed');
  assert.is(o.error?.code, 'INVALID_PARAMETER');
  assert.match(o.message, /"Welcome back" \(text\).*is not a text field.*no text field has the focus.*nothing was typed/);
  assert.not.ok(calls.includes('mobile_type_keys'), 'nothing typed');
});

// The demo on iOS ends editing on a tap outside a field (the field resigns first responder), so there
// the tap leaves no field focused; on Android the focus stays on the field.
for (const [device, focusFirst, target, where] of [
  ['virtual-android-1', 'the Email field', 'Welcome back', /focus is on another field/],
  ['virtual-ios-1', 'the Password field', 'Sign in to see your items.', /no text field has the focus after the tap/],
] as const) {
  test(`${device}: type into "${target}" (static text) while ${focusFirst} has the focus fails naming both, and the focused field gets nothing`, async () => {
    const engine = createEngine({ virtual: {}, android: false, ios: false });
    try {
      const ctx = await verbContext({ engine, device, targetWaitMs: 0 });
      for (const step of [{ action: 'launch_app', value: DEMO }, { action: 'open_url', value: 'mbdemo://screen/signin' }, { action: 'type', target: focusFirst, value: 'a' }]) {
        const o = await runVerb(ctx, step);
        assert.is(o.status, 'passed', o.message);
      }
      const before = (await listElements(ctx)).filter((e) => e.type === 'edittext').map((e) => [e.id, e.text]);
      const o = await runVerb(ctx, { action: 'type', target, value: 'zzz' });
      assert.is(o.status, 'failed', o.message);
      assert.is(o.error?.code, 'INVALID_PARAMETER');
      assert.is(o.resolved, null);
      assert.ok(o.message.includes(`${JSON.stringify(target)} (text)`), o.message);
      assert.match(o.message, /is not a text field.*nothing was typed/);
      assert.match(o.message, where);
      assert.not.match(o.message, /typed 3/);
      const after = (await listElements(ctx)).filter((e) => e.type === 'edittext').map((e) => [e.id, e.text]);
      assert.equal(after, before, 'no field took the text');
      const field = await runVerb(ctx, { action: 'type', target: 'the Email field', value: 'b' });
      assert.is(field.status, 'passed', field.message);
      assert.is(field.resolved?.id, 'email');
    } finally {
      await engine.close();
    }
  });
}

test.run();
