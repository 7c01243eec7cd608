import type { UiElement } from './types.js';

/**
 * Where a listed element is cut by the scrolling list it lies in, and by how many pixels. Listings
 * report the visible part of an element: one flush with its list's edge and shorter than the
 * tallest of its kind is cut there (element_fully_visible judges it the same way).
 */
export function cutAtListEdge(el: UiElement, elements: readonly UiElement[]): { edge: 'top' | 'bottom'; missing: number; height: number; list: UiElement } | undefined {
  const list = elements.find((o) => o.scrollable && o !== el && el.x >= o.x && el.x + el.width <= o.x + o.width && el.y >= o.y && el.y + el.height <= o.y + o.height);
  if (!list) return undefined;
  const sameKind = elements.filter((o) => o.type === el.type && o !== el);
  const height = sameKind.length ? Math.max(...sameKind.map((o) => o.height)) : el.height;
  if (el.height >= height) return undefined;
  if (el.y + el.height === list.y + list.height) return { edge: 'bottom', missing: height - el.height, height, list };
  if (el.y === list.y) return { edge: 'top', missing: height - el.height, height, list };
  return undefined;
}
