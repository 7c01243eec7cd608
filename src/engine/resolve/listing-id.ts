import { fieldName, isTextField, readableName } from '../readable-name.js';
import type { UiElement } from '../types.js';
import { isPositionalId } from '../ui-tree.js';
import { textInside } from './on-screen.js';

/**
 * A description that is a listing's place-in-tree id ("n0.0.1.0.0.1.0"): list_elements gives one to
 * every element without an id of its own, and models hand it back as the target. Scored as words it
 * matched nothing or a wrong row; taken as an id it would be the element at that place in the tree
 * now, another one once the screen changed since the listing. So it is refused, naming the element
 * at that place now, which is what the caller should describe instead.
 */
export function listingIdMessage(description: string, elements: readonly UiElement[]): string | undefined {
  if (!isPositionalId(description)) return undefined;
  const what = `${JSON.stringify(description)} is a listing id (an element's place in the screen's tree, which list_elements gives elements without an id of their own), not a description: it names another element once the screen changes, so targets never take it`;
  const element = elements.find((e) => e.id === description);
  if (!element) return `${what}; no element has it now (the screen changed since it was listed): list the elements again and describe the one you mean by its text or label`;
  const name = nameOf(element, elements);
  return name
    ? `${what}; it is ${JSON.stringify(name)} (${element.type}) now: describe it by that, e.g. target ${JSON.stringify(name)}`
    : `${what}; it is a ${element.type} with no text or label now: describe it by its role and place, e.g. "the first ${element.type}"`;
}

/** A field by its label, hint or id (never its typed text); a row without text by its first text. */
function nameOf(e: UiElement, elements: readonly UiElement[]): string | undefined {
  if (isTextField(e)) {
    const field = fieldName(e);
    return field && `the ${field} field`;
  }
  return readableName(e) ?? textInside(e, elements);
}
