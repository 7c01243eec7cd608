import type { UiElement } from '../../src/engine/types.js';
import type { ElementDescription } from '../../src/protocol/methods.js';

/** What a Copy button puts on the clipboard. */
export interface Copyable {
  label: string;
  text: string;
}

/**
 * What to copy for a description: the accepted target (the plain one when unique, else the
 * alternative, with its target_pattern), the ready steps, and the raw attributes. Pure.
 */
export function copyables(element: UiElement, d: ElementDescription | undefined): Copyable[] {
  const out: Copyable[] = [];
  const ex = d?.step_examples;
  if (ex) {
    const { target, target_pattern: pattern } = ex.tap as { target: string; target_pattern?: string };
    out.push({ label: 'Copy target', text: pattern ? `"target": ${JSON.stringify(target)}, "target_pattern": ${JSON.stringify(pattern)}` : target });
    out.push({ label: 'Copy tap step', text: JSON.stringify(ex.tap, null, 2) });
    if (ex.type) out.push({ label: 'Copy type step', text: JSON.stringify(ex.type, null, 2) });
    out.push({ label: 'Copy assertion', text: JSON.stringify(ex.assert, null, 2) });
  }
  out.push({ label: 'Copy attributes', text: JSON.stringify(element, null, 2) });
  return out;
}

/** The badge beside the target: whether it names this element, and if not, what it does name. */
export function verdict(d: ElementDescription): string {
  if (d.unique) return 'unique on this screen';
  if (!d.target) return 'no text to name it by';
  if (d.matches.length === 0) return 'fits nothing here';
  return d.matches.length > 1 ? `not unique: ${d.matches.length} fit` : 'leads to another element';
}
