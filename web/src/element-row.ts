import type { UiElement } from '../../src/engine/types.js';
import { el } from './dom.js';

/** What a row calls an element: its text, else its label, else its hint, else its id. */
export function elementName(e: UiElement): string {
  return e.text || e.accessibility_label || e.hint || e.resource_id || e.id;
}

/** True when the element shows something a person reads (text, label or hint), not just an id. */
export function hasVisibleName(e: UiElement): boolean {
  return Boolean(e.text || e.accessibility_label || e.hint);
}

/**
 * The content of one element's row, in the list and in the tree alike: what a person sees first
 * (text, label, or a field's hint in italics), then the type, then the internal id, muted.
 */
export function rowContent(e: UiElement): HTMLElement[] {
  const named = hasVisibleName(e);
  const fromHint = !e.text && !e.accessibility_label && Boolean(e.hint);
  const label = el('span', { class: `label${named ? '' : ' unnamed'}${fromHint ? ' from-hint' : ''}` }, elementName(e));
  const parts = [label, el('span', { class: 'type' }, e.type)];
  if (named) parts.push(el('span', { class: 'rid' }, e.id));
  return parts;
}
