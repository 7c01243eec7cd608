import type { AssertionResult } from '../../../validate/index.js';

/** Longer values are cut: a summary line or a CI failure message is read at a glance. */
const SHOWN_CHARS = 200;

function shown(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

/**
 * An assertion's message, and for one that did not pass what was expected and what was seen. Many
 * messages give only what was seen (`"Item 3" reads "Item 3"`, the element named by its own text),
 * which read like a pass where only the message is shown: a CI failure view, the summary line.
 */
export function verdictText(a: Pick<AssertionResult, 'status' | 'message' | 'expected' | 'actual'>): string {
  if ((a.status !== 'failed' && a.status !== 'error') || a.expected === null || a.expected === undefined) return a.message;
  return `${a.message} (expected ${shown(a.expected)}, got ${shown(a.actual)})`;
}
