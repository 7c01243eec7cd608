import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { UiElement } from '../../src/engine/types.js';
import { closeKey, returnKeyOf } from '../../src/engine/verbs/keyboard-spots.js';

/** Where dismiss_keyboard may tap on iOS: keys that close the keyboard, never one that types or submits. */

function el(id: string, type: UiElement['type'], x: number, y: number, width: number, height: number, extra: Partial<UiElement> = {}): UiElement {
  return {
    id, type, text: '', accessibility_label: null, x, y, width, height, visible: true, enabled: true,
    center: { x: Math.round(x + width / 2), y: Math.round(y + height / 2) }, ...extra,
  } as UiElement;
}

const keyboard = el('kb', 'keyboard', 0, 1800, 1170, 732);
const returnKey = el('ret', 'button', 900, 2400, 250, 120, { accessibility_label: 'return' });
const field = (cls: string) => el('f', 'edittext', 40, 400, 1090, 300, { focused: true, class: cls });

test('the return key ends editing in a single-line field, and is never tapped in a text view (it types a newline there)', () => {
  assert.is(returnKeyOf([field('XCUIElementTypeTextField'), keyboard, returnKey], keyboard)?.element.id, 'ret');
  assert.is(returnKeyOf([field('XCUIElementTypeTextView'), keyboard, returnKey], keyboard), undefined);
});

test('a Done key closes; Go, Send and Next are not closing keys', () => {
  for (const label of ['Go', 'Send', 'Next', 'Search']) {
    assert.is(closeKey([keyboard, el('k', 'button', 900, 2400, 250, 120, { accessibility_label: label })], keyboard), undefined, label);
  }
  assert.is(closeKey([keyboard, el('d', 'button', 1000, 1740, 150, 50, { text: 'Done' })], keyboard)?.element.id, 'd');
});

test.run();
