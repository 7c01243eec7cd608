import { readableName } from '../readable-name.js';
import type { UiElement } from '../types.js';

/**
 * A description that is only a point ("540, 966", "(540,966)", "x=540 y=966", "at x: 540, y: 966"):
 * models used to coordinate tools send one as a target. It names no element, and scoring its
 * digits against texts finds nothing or a wrong row, so it is refused with the element at that
 * point named, which is what the caller should describe instead.
 */
const POINT = /^(?:at\s+)?\(?\s*(?:x\s*[=:]\s*)?(\d{1,5})\s*(?:,\s*|\s+)(?:y\s*[=:]\s*)?(\d{1,5})\s*\)?$/i;

export function pointIn(description: string): { x: number; y: number } | undefined {
  const m = POINT.exec(description.trim());
  return m ? { x: Number(m[1]), y: Number(m[2]) } : undefined;
}

/** Why a point is not a target, naming the smallest element with a text, label or hint that holds it. */
export function pointMessage(description: string, point: { x: number; y: number }, elements: readonly UiElement[]): string {
  // A password field's text is its bullets: it is named by its label or hint (readableName).
  const named = (e: UiElement) => readableName(e) ?? '';
  const under = elements
    .filter((e) => named(e) && point.x >= e.x && point.x <= e.x + e.width && point.y >= e.y && point.y <= e.y + e.height)
    .sort((a, b) => a.width * a.height - b.width * b.height)[0];
  const there = under
    ? `at (${point.x}, ${point.y}) is ${JSON.stringify(named(under))} (${under.type}): describe it by that, e.g. target ${JSON.stringify(named(under))}`
    : `no element with a text, label or hint is at (${point.x}, ${point.y}); describe the element by what it shows`;
  return `${JSON.stringify(description)} is a point, not a description: targets name an element by its text, label or role, never coordinates; ${there}`;
}
