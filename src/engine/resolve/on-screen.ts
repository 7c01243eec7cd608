import type { UiElement } from '../types.js';
import { readingOrder } from './geometry.js';
import { isActionable } from './score.js';

const SHOWN = 8;
const LONGEST = 32;

const nameOf = (e: UiElement): string => (e.password ? '' : e.text) || e.accessibility_label || e.hint || '';

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > LONGEST ? `${one.slice(0, LONGEST - 1)}…` : one;
}

/**
 * What a miss tells about the screen: the names a person would read there, controls first, in
 * reading order ("Items" (text), "Settings" (button), …). An agent learns from the failure itself
 * whether it is on the wrong screen or used the wrong words, without listing the elements again.
 */
export function namedOnScreen(elements: readonly UiElement[]): string {
  const named = elements.filter((e) => e.visible !== false && nameOf(e));
  if (!named.length) return 'nothing on screen has a text or label';
  const ordered = [...named.filter(isActionable).sort(readingOrder), ...named.filter((e) => !isActionable(e)).sort(readingOrder)];
  const seen = new Set<string>();
  const shown: string[] = [];
  let cut = false;
  for (const e of ordered) {
    const name = clip(nameOf(e));
    const key = `${name}\u0000${e.type}`;
    if (seen.has(key)) continue;
    if (shown.length === SHOWN) {
      cut = true;
      break;
    }
    seen.add(key);
    shown.push(`${JSON.stringify(name)} (${e.type})`);
  }
  const more = cut ? `, … (${named.length} named elements)` : '';
  return `on screen: ${shown.join(', ')}${more}`;
}

/** The first text drawn inside `container` (reading order): a list row's title, where the row itself has none. */
export function textInside(container: UiElement, elements: readonly UiElement[]): string | undefined {
  const inside = (e: UiElement) =>
    e !== container && e.center.x >= container.x && e.center.x < container.x + container.width && e.center.y >= container.y && e.center.y < container.y + container.height;
  const texts = elements.filter((e) => e.visible !== false && !e.password && e.text && inside(e));
  const first = texts.sort(readingOrder)[0];
  return first ? clip(first.text) : undefined;
}
