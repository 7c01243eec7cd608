import type { UiElement } from './types.js';

/**
 * What a person reads on an element on screen: its text, else its label, else its hint (an empty
 * field). A password field's text is bullets, so it goes by its label or hint. The recorder names a
 * tapped element by it, the activity feed names where a tap landed, and the resolver names what a
 * screen shows when a description matched nothing.
 */
export function readableName(e: UiElement): string | undefined {
  return (e.password ? undefined : e.text) || e.accessibility_label || e.hint || undefined;
}

/** A field typed into: its text is typed text. */
export function isTextField(e: { type: string; password?: boolean }): boolean {
  return e.type === 'edittext' || e.password === true;
}

/**
 * A text field's name that is never typed text (what someone typed, a scenario's secret among it):
 * its label, its hint, the last part of its resource id. The activity feed names fields by it, and
 * the recorder when a tap lands on one.
 */
export function fieldName(e: UiElement): string | undefined {
  return e.accessibility_label?.trim() || e.hint?.trim() || e.resource_id?.split('/').pop()?.trim() || undefined;
}
