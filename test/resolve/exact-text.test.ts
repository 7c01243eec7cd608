import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';

/**
 * An agent describes an element by its visible text. When that text starts with a role, place,
 * state or ordinal word ("Item not found", "Top stories", "Selected items", "Second opinion"), the
 * exact text is the element meant: it wins at full score instead of tying with, or losing to, an
 * element that shows the rest of the words.
 */

function el(id: string, type: string, y: number, extra: Partial<UiElement> = {}): UiElement {
  return { id, text: '', type, accessibility_label: null, x: 0, y, width: 100, height: 40, center: { x: 50, y: y + 20 }, visible: true, enabled: true, ...extra } as UiElement;
}

const resolver = new DeterministicResolver();

function resolvedId(description: string, elements: UiElement[], intent: 'interact' | 'read' = 'read'): string {
  const r = resolver.resolve({ description, intent }, elements);
  assert.ok(r.ok, `${description}: ${r.ok ? '' : r.message}`);
  return r.ok ? r.element.id : '';
}

for (const [description, other] of [
  ['Item not found', 'Not found'],
  ['Title missing', 'Missing'],
  ['Row count', 'Count'],
  ['Label printer', 'Printer'],
  ['Message sent', 'Sent'],
  ['Cell phone', 'Phone'],
] as const) {
  test(`"${description}" is the text that says it, not a "${other}" of another kind`, () => {
    const elements = [el('other', 'text', 0, { text: other }), el('exact', 'text', 200, { text: description })];
    for (const intent of ['read', 'interact'] as const) {
      const r = resolver.resolve({ description, intent }, elements);
      assert.ok(r.ok, `${intent}: ${r.ok ? '' : r.message}`);
      if (r.ok) assert.equal([r.element.id, r.confidence], ['exact', 1], intent);
    }
    assert.equal(resolver.findAll({ description }, elements).map((e) => e.id), ['exact']);
  });
}

test('the exact text is found whatever the case, accents or spacing', () => {
  assert.is(resolvedId('item  NOT found', [el('other', 'text', 0, { text: 'Not found' }), el('exact', 'text', 200, { text: 'Item not found' })]), 'exact');
  assert.is(resolvedId('Title café', [el('other', 'text', 0, { text: 'Café' }), el('exact', 'text', 200, { accessibility_label: 'Title Cafe' })]), 'exact');
});

test('place, state and ordinal words in an exact text are its words: "Top stories", "Selected items", "Second opinion"', () => {
  const news = [el('tab', 'tab', 900, { text: 'Stories' }), el('head', 'text', 300, { text: 'Top stories' })];
  assert.is(resolvedId('Top stories', news), 'head');
  assert.is(resolvedId('Top stories', news, 'interact'), 'head');
  // A state word: the text is not "selected", yet it is what is named.
  assert.is(resolvedId('Selected items', [el('items', 'text', 0, { text: 'Items' }), el('sel', 'text', 100, { text: 'Selected items' })]), 'sel');
  // An ordinal word: not "the second of the opinions" when only one shows.
  assert.is(resolvedId('Second opinion', [el('op', 'button', 0, { text: 'Second opinion', clickable: true })], 'interact'), 'op');
});

test('a role word before text no element shows does not let another element pass: "Item Welcome back"', () => {
  const elements = [el('welcome', 'text', 0, { text: 'Welcome back' }), el('email', 'edittext', 100, { hint: 'Email' })];
  for (const description of ['Item Welcome back', 'Row Welcome back', 'the Welcome back list item']) {
    const r = resolver.resolve({ description, intent: 'read' }, elements);
    assert.is(r.ok, false, `${description} resolved to ${r.ok ? r.element.id : ''}`);
    if (!r.ok) assert.is(r.reason, 'low_confidence', r.message);
    assert.equal(resolver.findAll({ description }, elements), [], description);
  }
});

test('a control of another kind still answers to its role: "the Sign in button" drawn as clickable text', () => {
  const elements = [el('title', 'text', 0, { text: 'Welcome' }), el('signin', 'text', 300, { text: 'Sign in', clickable: true })];
  assert.is(resolvedId('the Sign in button', elements, 'interact'), 'signin');
});

test('"Item 2" is still the row whose title says it, and "the Email field" the field under its label', () => {
  const row = el('row2', 'listitem', 100, { height: 80, clickable: true });
  const title = el('title2', 'text', 110, { text: 'Item 2' });
  const other = [el('row1', 'listitem', 0, { height: 80, clickable: true }), el('title1', 'text', 10, { text: 'Item 1' })];
  for (const intent of ['read', 'interact'] as const) assert.is(resolvedId('Item 2', [...other, row, title], intent), 'row2', intent);
  // Even when the title itself is clickable (an iOS cell's static text).
  assert.is(resolvedId('Item 2', [...other, row, { ...title, clickable: true }], 'interact'), 'row2');
  const form = [el('label', 'text', 0, { text: 'Email' }), el('field', 'edittext', 50)];
  assert.is(resolvedId('the Email field', form, 'interact'), 'field');
});

test('two elements showing the same exact text are still ambiguous', () => {
  const r = resolver.resolve({ description: 'Item not found', intent: 'interact' }, [el('a', 'button', 0, { text: 'Item not found' }), el('b', 'button', 200, { text: 'Item not found' })]);
  assert.is(r.ok, false);
  if (!r.ok) assert.is(r.reason, 'ambiguous');
});

test('quotes inside a longer text (an iOS permission title) are part of the text; a quoted text alone still means exactly that text', () => {
  const elements = [
    el('title', 'text', 0, { text: '\u201cMobileBridge Demo\u201d Would Like to Access the Camera' }),
    el('demo', 'text', 100, { text: 'MobileBridge Demo settings' }),
    el('ok', 'button', 200, { text: 'OK' }),
  ];
  assert.is(resolvedId('the \u201cMobileBridge Demo\u201d Would Like to Access the Camera text', elements), 'title');
  assert.is(resolvedId('the "MobileBridge Demo" Would Like to Access the Camera title', elements), 'title');
  // Nothing shows "MobileBridge Demo" alone: a quoted text is exact, so this is not "MobileBridge Demo settings".
  assert.not.ok(resolver.resolve({ description: 'the "MobileBridge Demo" text', intent: 'read' }, elements).ok);
  assert.is(resolvedId('the "OK" button', elements), 'ok');
});

test.run();
