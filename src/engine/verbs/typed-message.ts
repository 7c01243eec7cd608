import { characterCount } from '../text-length.js';
import type { UiElement } from '../types.js';
import { isPositionalId } from '../ui-tree.js';

/**
 * How a type step names a field: by its label or the app's id for it, else its placeholder, never
 * by its text, which is what someone typed before, a password's bullets or another step's secret.
 */
export function fieldName(label: string | null | undefined, id: string, fallback?: string): string | undefined {
  const name = label || (isPositionalId(id) ? undefined : id) || fallback;
  return name === undefined ? undefined : JSON.stringify(name);
}

export function focusedFieldName(e: UiElement): string {
  return fieldName(e.accessibility_label, e.id, e.hint ? `the field hinted ${e.hint}` : undefined) ?? `the field at (${e.center.x}, ${e.center.y})`;
}

/** Whether typing `text` leaves characters after an ENTER: those may land in another field. */
export function typesAfterEnter(text: string): boolean {
  const at = text.indexOf('\n');
  return at >= 0 && text.slice(at + 1).replace(/\n/g, '') !== '';
}

const times = (n: number) => (n === 1 ? '1 more time' : `${n} more times`);

/**
 * What a type step did, as far as it knows. "\n" presses ENTER, which may move the focus (a sign-in
 * form's Email to Password), so only the text before the first ENTER is said to be in `field`; the
 * rest went to whichever field had the focus then. `focusedNow`: the field focused once typing
 * ended (null: none; undefined: not looked at).
 */
export function typedMessage(text: string, field: string | undefined, focusedNow?: string | null): string {
  const into = field ? ` into ${field}` : '';
  const at = text.indexOf('\n');
  if (at < 0) return `typed ${characterCount(text)}${into}`;
  const head = text.slice(0, at);
  const rest = text.slice(at + 1);
  const pressed = `pressed ENTER${head === '' && field ? ` in ${field}` : ''}`;
  if (rest === '') return head === '' ? pressed : `typed ${characterCount(head)}${into}, then ${pressed}`;
  const first = head === '' ? pressed : `typed ${characterCount(head)}${into}, ${pressed}`;
  const enters = rest.split('\n').length - 1;
  const chars = rest.replace(/\n/g, '');
  const after = chars === '' ? `pressed ENTER ${times(enters)}` : `typed ${characterCount(chars)}${enters ? ` and pressed ENTER ${times(enters)}` : ''}`;
  if (chars === '') return `${first}, then ${after}`;
  const now = focusedNow === undefined ? '' : focusedNow === null ? '; no field has the focus now' : `; the field focused now is ${focusedNow}`;
  return `${first}, then ${after}; ENTER may move the focus, so the text after it went to whichever field had the focus then${field ? `, not necessarily ${field}` : ''}${now}`;
}
