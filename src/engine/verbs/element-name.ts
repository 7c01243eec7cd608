import { locatorKind } from '../../validate/index.js';
import { fieldName, isTextField, readableName } from '../readable-name.js';
import { textInside } from '../resolve/on-screen.js';
import type { ElementType, UiElement } from '../types.js';

/**
 * How a scenario names an element: by what a user sees on it. One rule for the recorder (which
 * names the element a verb acted on) and the inspector (which names the element a person clicked),
 * so a target copied from the viewer reads like one the recorder would write.
 */

/** What a user sees of the element: its text, else its accessibility label; never a locator-like string. */
export function seenName(e: { text?: string | null; label?: string | null }): string | undefined {
  const name = e.text?.trim() || e.label?.trim();
  return name && !locatorKind(name) ? name : undefined;
}

/**
 * The word a person uses for an element of this type, one the resolver's query parser maps back to
 * that type (src/engine/resolve/query.ts ROLE_WORDS); undefined where no word fits.
 */
export const ROLE_WORD: Partial<Record<ElementType, string>> = {
  button: 'button',
  edittext: 'field',
  checkbox: 'checkbox',
  switch: 'switch',
  radio: 'radio button',
  tab: 'tab',
  link: 'link',
  image: 'image',
  listitem: 'item',
  list: 'list',
  dialog: 'dialog',
  keyboard: 'keyboard',
  text: 'text',
};

/**
 * What a message calls an element, as the inspector and the resolver's "on screen" list do: a
 * field by its label, hint or id (its text is what someone typed), anything else by its text,
 * label or hint, and a row without any of its own by its title (the first text inside it).
 */
export function shownName(e: UiElement, elements: readonly UiElement[] = []): string | undefined {
  if (isTextField(e)) return fieldName(e);
  return readableName(e) ?? textInside(e, elements);
}
