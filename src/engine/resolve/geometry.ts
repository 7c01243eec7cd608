import type { UiElement } from '../types.js';
import type { ScreenSize } from '../ui-tree.js';
import type { Direction, Position } from './query.js';

/** Reading order: top to bottom, and left to right within a row (centres within half a height). */
export function readingOrder(a: UiElement, b: UiElement): number {
  const tolerance = Math.min(a.height, b.height) / 2;
  if (Math.abs(a.center.y - b.center.y) > tolerance) return a.center.y - b.center.y;
  return a.center.x - b.center.x;
}

export function extentOf(elements: readonly UiElement[]): ScreenSize {
  let width = 1;
  let height = 1;
  for (const e of elements) {
    width = Math.max(width, e.x + e.width);
    height = Math.max(height, e.y + e.height);
  }
  return { width, height };
}

/** Share of the screen height counted as the toolbar / the bottom bar. */
const BAR_SHARE = 0.15;

export function isBar(position: Position): boolean {
  return position === 'toolbar' || position === 'bottom_bar';
}

/** Elements inside the bar a position word names. */
export function inBar(group: readonly UiElement[], position: Position, screen: ScreenSize): UiElement[] {
  if (position === 'toolbar') return group.filter((e) => e.center.y < screen.height * BAR_SHARE);
  return group.filter((e) => e.center.y > screen.height * (1 - BAR_SHARE));
}

/** The element a side word ("top", "leftmost") means among equally good matches. */
export function extreme(group: readonly UiElement[], position: Position, screen: ScreenSize): UiElement | undefined {
  const pick = (better: (a: UiElement, b: UiElement) => boolean) => group.reduce<UiElement | undefined>((best, e) => (!best || better(e, best) ? e : best), undefined);
  const d = (e: UiElement) => Math.hypot(e.center.x - screen.width / 2, e.center.y - screen.height / 2);
  switch (position) {
    case 'top': return pick((a, b) => a.center.y < b.center.y);
    case 'bottom': return pick((a, b) => a.center.y > b.center.y);
    case 'left': return pick((a, b) => a.center.x < b.center.x);
    case 'right': return pick((a, b) => a.center.x > b.center.x);
    case 'center': return pick((a, b) => d(a) < d(b));
    case 'toolbar':
    case 'bottom_bar': return [...inBar(group, position, screen)].sort(readingOrder)[0];
  }
}

/**
 * Distance from the anchor in the asked direction, or undefined when the element does not lie that way.
 * Sideways offset counts double so that "the field below Email" prefers the one in the same column.
 */
export function relationDistance(e: UiElement, anchor: UiElement, direction: Direction): number | undefined {
  const dx = e.center.x - anchor.center.x;
  const dy = e.center.y - anchor.center.y;
  const overlapX = Math.min(e.x + e.width, anchor.x + anchor.width) - Math.max(e.x, anchor.x) > 0;
  const overlapY = Math.min(e.y + e.height, anchor.y + anchor.height) - Math.max(e.y, anchor.y) > 0;
  switch (direction) {
    // The element's near edge must pass the anchor's middle: a button inside a row is right of it, not below.
    case 'below': return dy > 0 && e.y >= anchor.center.y ? dy + (overlapX ? 0 : 2 * Math.abs(dx)) : undefined;
    case 'above': return dy < 0 && e.y + e.height <= anchor.center.y ? -dy + (overlapX ? 0 : 2 * Math.abs(dx)) : undefined;
    case 'right_of': return dx > 0 && e.x >= anchor.center.x ? dx + (overlapY ? 0 : 2 * Math.abs(dy)) : undefined;
    case 'left_of': return dx < 0 && e.x + e.width <= anchor.center.x ? -dx + (overlapY ? 0 : 2 * Math.abs(dy)) : undefined;
    case 'next_to': return Math.hypot(dx, dy);
  }
}
