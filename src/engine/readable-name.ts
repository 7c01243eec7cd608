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
