import { cutAtListEdge } from '../list-edge.js';
import { readableName } from '../readable-name.js';
import type { UiElement } from '../types.js';
import { readingOrder } from './geometry.js';
import { isActionable } from './score.js';

const SHOWN = 8;
const LONGEST = 32;

/** One line of at most LONGEST characters, for a message. */
export function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > LONGEST ? `${one.slice(0, LONGEST - 1)}…` : one;
}

/**
 * What a miss tells about the screen: the names a person would read there, controls first, in
 * reading order ("Items" (text), "Settings" (button), …). An agent learns from the failure itself
 * whether it is on the wrong screen or used the wrong words, without listing the elements again.
 */
export function namedOnScreen(elements: readonly UiElement[]): string {
  const named = elements.filter((e) => e.visible !== false && readableName(e));
  if (!named.length) return 'nothing on screen has a text or label';
  const ordered = [...named.filter(isActionable).sort(readingOrder), ...named.filter((e) => !isActionable(e)).sort(readingOrder)];
  const seen = new Set<string>();
  const shown: string[] = [];
  let cut = false;
  for (const e of ordered) {
    const name = clip(readableName(e)!);
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

const textsIn = (container: UiElement, elements: readonly UiElement[]): UiElement[] =>
  elements.filter(
    (e) =>
      e !== container &&
      e.type === 'text' &&
      e.visible !== false &&
      readableName(e) !== undefined &&
      e.center.x >= container.x &&
      e.center.x < container.x + container.width &&
      e.center.y >= container.y &&
      e.center.y < container.y + container.height,
  );

/**
 * A row its list cuts at the top that shows fewer texts than a whole row of its kind has lost its
 * first ones, its title among them: what shows is a subtitle ("Fresh today"), which names no row.
 */
function titleScrolledOff(container: UiElement, shown: number, elements: readonly UiElement[]): boolean {
  if (cutAtListEdge(container, elements)?.edge !== 'top') return false;
  const whole = elements.filter((e) => e !== container && e.type === container.type && !cutAtListEdge(e, elements));
  return whole.some((e) => textsIn(e, elements).length > shown);
}

/**
 * The first text drawn inside `container`, in reading order: a list row's title, where the row
 * itself has none. The resolver names such a candidate by it, the recorder a tap on such a row.
 * None when the row's title has scrolled off the top of its list.
 */
export function textInside(container: UiElement, elements: readonly UiElement[]): string | undefined {
  const texts = textsIn(container, elements);
  if (!texts.length || titleScrolledOff(container, texts.length, elements)) return undefined;
  return readableName(texts.sort(readingOrder)[0]);
}
