import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import type { UiElement } from '../../src/engine/types.js';

/**
 * A target that is only coordinates (models used to coordinate tools send "540, 966") is refused as
 * a bad request naming the element at that point, instead of "no element matches" (QA pass of the
 * MCP server), so the agent learns the description to give.
 */

function el(id: string, type: string, y: number, extra: Partial<UiElement> = {}): UiElement {
  return { id, text: '', type, accessibility_label: null, x: 0, y, width: 1000, height: 100, center: { x: 500, y: y + 50 }, visible: true, enabled: true, ...extra } as UiElement;
}

const screen = [
  el('screen', 'other', 0, { height: 2000 }),
  el('email', 'edittext', 500, { hint: 'Email' }),
  el('password', 'edittext', 700, { text: '••••••', hint: 'Password', password: true }),
  el('sign_in', 'button', 900, { text: 'Sign in' }),
];

for (const point of ['540, 950', '(540,950)', 'x=540 y=950', 'at x: 540, y: 950']) {
  test(`${JSON.stringify(point)} is a point: refused, naming "Sign in" (the element there)`, () => {
    const r = new DeterministicResolver().resolve({ description: point }, screen);
    assert.is(r.ok, false);
    if (r.ok) return;
    assert.is(r.reason, 'bad_request', r.message);
    assert.match(r.message, 'is a point, not a description');
    assert.match(r.message, 'at (540, 950) is "Sign in" (button)');
  });
}

test('a field is named by its hint, a password field never by its bullets, an empty spot says so', () => {
  const resolver = new DeterministicResolver();
  const message = (description: string) => {
    const r = resolver.resolve({ description }, screen);
    return r.ok ? 'resolved' : r.message;
  };
  assert.match(message('540, 550'), 'is "Email" (edittext)');
  assert.match(message('540, 750'), 'is "Password" (edittext)');
  assert.match(message('540, 1500'), 'no element with a text, label or hint is at (540, 1500)');
});

test('an element whose own text is a pair of numbers is still found by it', () => {
  const r = new DeterministicResolver().resolve({ description: '4, 2' }, [...screen, el('score', 'text', 1200, { text: '4, 2' })]);
  assert.ok(r.ok, r.ok ? '' : r.message);
  if (r.ok) assert.is(r.element.id, 'score');
});

test.run();
