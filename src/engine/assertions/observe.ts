import { sharpOf, type ScreenCapture } from '../screen/capture.js';
import { normalizeText, readingOrder } from '../resolve/index.js';
import { fieldName, isTextField } from '../readable-name.js';
import type { UiElement } from '../types.js';
import type { ScreenSize } from '../ui-tree.js';
import { dialogTexts, isLoadingIndicator, isToast, permissionPrompt } from '../verbs/index.js';

export { dialogTexts };

/**
 * Readings of the screen that several assertions share. Every rule here is mechanical: class
 * names, resource ids and wording of the platforms' standard widgets, never a judgement.
 */

const TOP_BAND = 0.15;

/**
 * The screen's title: the toolbar title (Android), else the first text in the top band (iOS lists its
 * navigation bar's title as that text; the bar itself is left out of listings, wda-source.ts).
 */
export function screenTitle(elements: UiElement[], screen: ScreenSize): string | undefined {
  const byId = elements.find((e) => /(^|[/:_])(toolbar_title|action_bar_title|title)$/i.test(e.resource_id ?? e.id) && e.text);
  if (byId) return byId.text;
  const top = elements.filter((e) => e.type === 'text' && e.text && e.center.y < screen.height * TOP_BAND && !isToast(e)).sort(readingOrder);
  return top[0]?.text;
}

const ERROR_ID = /(^|[/:_])(error|error_title|error_message|errorText)($|_)/i;
const ERROR_TEXT = /\b(something went wrong|could ?n[o']t load|failed to|an error occurred|error loading|try again|unable to load|no connection|you(?:'|’)re offline)\b/i;
const EMPTY_ID = /(^|[/:_])empty(_|$)|empty_?(view|state|title|message)/i;
const EMPTY_TEXT = /^(no (items|messages|results|data|entries|notifications|[a-z]+ yet)|nothing (here|to show)|(list|inbox|cart) is empty|empty)\b/i;

export type VisualState = 'loading' | 'error' | 'empty' | 'loaded';

/** loading > error > empty > loaded: a spinner over an error page is still loading. */
export function visualState(elements: UiElement[]): { state: VisualState; because: string } {
  const spinner = elements.find((e) => isLoadingIndicator(e));
  if (spinner) return { state: 'loading', because: `loading indicator ${name(spinner)}` };
  const error = elements.find((e) => ERROR_ID.test(e.resource_id ?? '') || ERROR_TEXT.test(normalizeText(e.text)));
  if (error) return { state: 'error', because: `error marker ${name(error)}` };
  const empty = elements.find((e) => EMPTY_ID.test(e.resource_id ?? '') || EMPTY_TEXT.test(normalizeText(e.text)));
  if (empty) return { state: 'empty', because: `empty-state marker ${name(empty)}` };
  return { state: 'loaded', because: 'no loading indicator, error or empty-state marker on screen' };
}

/**
 * How a verdict names an element: by what it shows, but a text field by its label, hint or id, never
 * by its text, which is what someone typed (a message would read `"ada@example.com" reads
 * "ada@example.com"`, and a password field's bullets name nothing).
 */
export function name(e: UiElement): string {
  if (isTextField(e)) return `the ${JSON.stringify(fieldName(e) ?? e.id)} field`;
  return JSON.stringify(e.text || e.accessibility_label || e.id);
}

/** The element a check judged, with its type and id, so a report shows which of like-named elements it was. */
export function checked(e: UiElement): string {
  return e.text || e.accessibility_label ? `${name(e)} (${e.type}, id ${e.id})` : `${name(e)} (${e.type})`;
}

/** The system permission prompt's texts, if one is showing (verbs/permission-prompt.ts, which the permission verbs share). */
export function permissionDialog(elements: UiElement[]): { texts: string[] } | undefined {
  const prompt = permissionPrompt(elements);
  return prompt && { texts: prompt.texts };
}

/** Mean relative luminance (0 black … 1 white) of the screen, sampled on a grid. */
export async function meanLuminance(cap: ScreenCapture): Promise<number> {
  const { data, info } = await (await sharpOf(cap)).resize(64, 64, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (let i = 0; i < data.length; i += info.channels) sum += 0.2126 * data[i] + 0.7152 * data[i + 1] + 0.0722 * data[i + 2];
  return sum / (data.length / info.channels) / 255;
}
