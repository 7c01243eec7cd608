import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';

/**
 * list_elements gives every element without an id of its own a place-in-tree id ("n0.0.1.0.0.1.0"),
 * and a model hands it back as the target (MCP audit: tap "n0.0.1.0.0.1.0" on the demo app's list
 * was ELEMENT_NOT_FOUND 'best "Item 1" (listitem), score 0.37'). It is refused as a bad request naming
 * the element at that place now, as a point is, never acted on: after a screen change the same place
 * holds another element.
 */

function el(id: string, type: string, y: number, extra: Partial<UiElement> = {}): UiElement {
  return { id, text: '', type, accessibility_label: null, x: 0, y, width: 1000, height: 100, center: { x: 500, y: y + 50 }, visible: true, enabled: true, ...extra } as UiElement;
}

const screen = [
  el('n0.0.1', 'list', 0, { height: 2000 }),
  el('n0.0.1.0', 'listitem', 200, { height: 180 }),
  el('n0.0.1.0.0', 'text', 220, { text: 'Item 1', height: 60 }),
  el('n0.0.2', 'edittext', 600, { text: 'ada@example.com', hint: 'Email' }),
  el('n0.0.3', 'button', 800, { accessibility_label: 'More options' }),
  el('n0.0.4', 'image', 1000),
];

function refusal(description: string, elements = screen): string {
  const r = new DeterministicResolver().resolve({ description }, elements);
  assert.is(r.ok, false, `${description} resolved`);
  if (r.ok) return '';
  assert.is(r.reason, 'bad_request', r.message);
  assert.match(r.message, `${JSON.stringify(description)} is a listing id`);
  return r.message;
}

test('a listing id is refused naming what the element shows: its text, its label, a row by its first text', () => {
  assert.match(refusal('n0.0.1.0.0'), 'it is "Item 1" (text) now: describe it by that, e.g. target "Item 1"');
  assert.match(refusal('n0.0.3'), 'it is "More options" (button) now');
  assert.match(refusal('n0.0.1.0'), 'it is "Item 1" (listitem) now');
});

test('a text field is named by its hint, never by what was typed into it', () => {
  const message = refusal('n0.0.2');
  assert.match(message, 'it is "the Email field" (edittext) now');
  assert.not.match(message, 'ada@example.com');
});

test('an element with nothing to read, and an id no element has now, say what to do', () => {
  assert.match(refusal('n0.0.4'), 'it is a image with no text or label now: describe it by its role and place');
  assert.match(refusal('n0.9.9'), 'no element has it now (the screen changed since it was listed): list the elements again');
});

test('an app id and an element whose text is such a string are still found', () => {
  const r = new DeterministicResolver().resolve({ description: 'n0.0.7' }, [...screen, el('n0.0.7', 'text', 1200, { text: 'n0.0.7' })]);
  assert.ok(r.ok, r.ok ? '' : r.message);
  const byId = new DeterministicResolver().resolve({ description: 'item_3' }, [...screen, el('item_3', 'listitem', 1400, { resource_id: 'com.example:id/item_3' })]);
  assert.ok(byId.ok, byId.ok ? '' : byId.message);
});

test.run();
