import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DeterministicResolver, type ResolveRequest } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';

/**
 * A check on one element's own properties (element_state, element_fully_visible, hint, label,
 * colour) asks with `inspect`: elements showing the same text are not told apart by reading order.
 */

function el(id: string, type: string, y: number, extra: Partial<UiElement> = {}): UiElement {
  const e = { id, type, text: '', accessibility_label: null, x: 60, y, width: 960, height: 120, visible: true, enabled: true, ...extra } as UiElement;
  e.center = { x: Math.round(e.x + e.width / 2), y: Math.round(e.y + e.height / 2) };
  return e;
}

const screen = { width: 1080, height: 2400 };
const resolver = new DeterministicResolver();
const ask = (description: string, elements: UiElement[], inspect = true) => resolver.resolve({ description, intent: 'read', screen, ...(inspect ? { inspect } : {}) } as ResolveRequest, elements);

// The demo app's sign-in screen: a toolbar title "Sign in" above a disabled Sign in button.
const signIn = [el('toolbar_title', 'text', 60, { text: 'Sign in' }), el('email', 'edittext', 500, { hint: 'Email' }), el('sign_in', 'button', 900, { text: 'Sign in', enabled: false, clickable: true })];

test('"Sign in" judged as an element is the one control of the tie, not the title read first', () => {
  const r = ask('Sign in', signIn);
  assert.ok(r.ok, r.ok ? '' : r.message);
  if (r.ok) assert.is(r.element.id, 'sign_in');
});

test('a text read keeps taking the first of elements showing the same text', () => {
  const r = ask('Sign in', signIn, false);
  assert.ok(r.ok);
  if (r.ok) assert.is(r.element.id, 'toolbar_title');
});

test('"the Sign in button" is the button either way', () => {
  const r = ask('the Sign in button', signIn);
  assert.ok(r.ok);
  if (r.ok) assert.is(r.element.id, 'sign_in');
});

test('two controls showing the same text: ambiguous, listing them with type and id', () => {
  const elements = [...signIn, el('sign_in_sso', 'button', 1100, { text: 'Sign in', clickable: true })];
  const r = ask('Sign in', elements);
  assert.not.ok(r.ok);
  if (!r.ok) {
    assert.is(r.reason, 'ambiguous');
    assert.match(r.message, /"Sign in" \(button, id sign_in,/);
    assert.match(r.message, /"Sign in" \(button, id sign_in_sso,/);
    assert.match(r.message, /"Sign in" \(text, id toolbar_title,/);
  }
});

test('two static texts showing the same text, no control: ambiguous', () => {
  const elements = [el('total_a', 'text', 300, { text: 'Total' }), el('total_b', 'text', 900, { text: 'Total' })];
  const r = ask('Total', elements);
  assert.not.ok(r.ok);
  if (!r.ok) assert.is(r.reason, 'ambiguous');
  assert.ok(ask('Total', elements, false).ok, 'a text read still takes the first');
});

test('an iOS navigation bar labelled like the title it holds is that title, not a tie', () => {
  const bar = el('Items', 'other', 160, { accessibility_label: 'Items', x: 0, width: 1080, height: 132 });
  const title = el('n0.0.0.0', 'text', 160, { text: 'Items', accessibility_label: 'Items', x: 324, width: 431, height: 132 });
  const r = ask('Items', [bar, title, el('row', 'listitem', 400, { clickable: true })]);
  assert.ok(r.ok, r.ok ? '' : r.message);
  if (r.ok) assert.is(r.element.id, 'n0.0.0.0');
});

test.run();
