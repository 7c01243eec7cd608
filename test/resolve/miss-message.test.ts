import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';

/** A miss says what the screen does show, so an agent need not list the elements to learn it is on the wrong screen. */

function el(id: string, type: string, y: number, extra: Partial<UiElement> = {}): UiElement {
  return { id, text: '', type, accessibility_label: null, x: 0, y, width: 100, height: 40, center: { x: 50, y: y + 20 }, visible: true, enabled: true, ...extra } as UiElement;
}

test('a description nothing matches: the message names what is on screen, controls first, in reading order', () => {
  const elements = [
    el('title', 'text', 0, { text: 'Items' }),
    el('row1', 'text', 100, { text: 'Item 1' }),
    el('row1b', 'text', 150, { text: 'Item 1' }),
    el('hidden', 'text', 200, { text: 'Secret', visible: false }),
    el('pw', 'edittext', 250, { text: '••••', password: true, hint: 'Password' }),
    el('more', 'button', 300, { accessibility_label: 'More options' }),
    el('long', 'text', 400, { text: 'A very long paragraph of text that goes on and on past any sensible length' }),
    el('frame', 'other', 500),
  ];
  const r = new DeterministicResolver().resolve({ description: 'the Unicorn button' }, elements);
  assert.is(r.ok, false);
  if (r.ok) return;
  assert.is(r.reason, 'absent');
  assert.match(
    r.message,
    '(8 elements listed; on screen: "Password" (edittext), "More options" (button), "Items" (text), "Item 1" (text), "A very long paragraph of text t…" (text)).',
  );
  assert.not.match(r.message, /Secret|••/);
});

test('a pasted page as the description is quoted back cut, with its length, not whole', () => {
  const description = `the ${'very '.repeat(1000)}long button`;
  const r = new DeterministicResolver().resolve({ description }, [el('a', 'button', 0, { text: 'OK' })]);
  assert.is(r.ok, false);
  if (r.ok) return;
  assert.ok(r.message.length < 600, `${r.message.length} characters`);
  assert.match(r.message, `… (${description.length} characters)`);
});

test('a screen with no names says so', () => {
  const r = new DeterministicResolver().resolve({ description: 'Sign in' }, [el('a', 'other', 0), el('b', 'image', 50)]);
  assert.is(r.ok, false);
  if (!r.ok) assert.match(r.message, '(2 elements listed; nothing on screen has a text or label)');
});

test('more names than are shown: the count is given', () => {
  const elements = Array.from({ length: 12 }, (_, i) => el(`r${i}`, 'text', i * 50, { text: `Row ${i}` }));
  const r = new DeterministicResolver().resolve({ description: 'Unicorn' }, elements);
  assert.is(r.ok, false);
  if (!r.ok) assert.match(r.message, /"Row 7" \(text\), … \(12 named elements\)\)/);
});

test('a row without text of its own is named by the first text inside it, in the message and its candidates', () => {
  const elements: UiElement[] = [];
  for (const n of [20, 21]) {
    elements.push(el(`item_${n}`, 'listitem', n * 100, { width: 1000, height: 90, resource_id: `com.x:id/item_${n}` } as Partial<UiElement>));
    elements.push(el(`t${n}`, 'text', n * 100 + 10, { text: `Item ${n}` }));
    elements.push(el(`s${n}`, 'text', n * 100 + 50, { text: 'Back in stock' }));
  }
  for (const e of elements) e.center = { x: e.x + e.width / 2, y: e.y + e.height / 2 };
  const r = new DeterministicResolver().resolve({ description: 'Item 2' }, elements);
  assert.is(r.ok, false);
  if (r.ok) return;
  assert.match(r.message, '"Item 20" (listitem, id item_20');
  const row = r.candidates.find((c) => c.id === 'item_20');
  assert.equal([row?.text, row?.shows], ['', 'Item 20']);
  assert.is(r.candidates.find((c) => c.id === 't20')?.shows, undefined, 'an element with text of its own keeps it');
});

test.run();
