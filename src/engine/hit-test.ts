import type { Point, Rect } from './types.js';

function contains(r: Rect, p: Point): boolean {
  return p.x >= r.x && p.y >= r.y && p.x < r.x + r.width && p.y < r.y + r.height;
}

/**
 * The element a user means when pointing at a device pixel ([x, x+1) × [y, y+1), as element bounds
 * are): the smallest one containing it. Containers (lists, dialogs) enclose their children, so the
 * smallest is the most specific; on equal areas the later one in the list wins because it is drawn
 * on top. One rule for the viewer's hover and the bridge's activity feed.
 */
export function elementAt<T extends Rect>(elements: readonly T[], p: Point): T | undefined {
  let best: T | undefined;
  for (const el of elements) {
    if (!contains(el, p)) continue;
    if (!best || el.width * el.height <= best.width * best.height) best = el;
  }
  return best;
}
