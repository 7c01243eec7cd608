import { isToolFailure, toFailure, ToolError } from '../errors.js';
import { normalizeText } from '../resolve/index.js';
import type { ElementListing } from '../driver.js';
import type { ScreenCapture } from '../screen/capture.js';
import type { UiElement } from '../types.js';
import type { ScreenSize } from '../ui-tree.js';
import { VerbError, type VerbContext } from './types.js';

/** One engine call; a tool failure becomes a VerbError carrying the tool's code and message. */
export async function call<T>(ctx: VerbContext, tool: string, parameters: Record<string, unknown> = {}): Promise<T> {
  if (ctx.signal?.aborted) throw new VerbError('CANCELLED', 'cancelled');
  // The verb's signal reaches the call: one waiting behind another caller's stops at once, one under way is told to stop.
  const result = await ctx.engine.call(tool, { device: ctx.device, ...parameters }, { origin: ctx.origin, hold: ctx.hold, partOf: ctx.partOf, redact: ctx.redact, signal: ctx.signal });
  if (isToolFailure(result)) throw ctx.signal?.aborted ? new VerbError('CANCELLED', 'cancelled') : new VerbError(result.code, result.message);
  return result as T;
}

/** Runs `work` as one unit on the device: no other caller's action lands between its calls. */
export async function asOneUnit<T>(ctx: VerbContext, what: string, work: (ctx: VerbContext) => Promise<T>): Promise<T> {
  if (ctx.hold?.covers(ctx.device)) return work(ctx);
  try {
    return await ctx.engine.hold(ctx.device, what, (hold) => work({ ...ctx, hold }), { signal: ctx.signal, origin: ctx.origin });
  } catch (err) {
    if (err instanceof ToolError) throw ctx.signal?.aborted ? new VerbError('CANCELLED', 'cancelled') : new VerbError(err.code, err.message);
    throw err;
  }
}

export async function listElements(ctx: VerbContext): Promise<ElementListing> {
  const { elements, note } = await call<{ elements: UiElement[]; note?: string }>(ctx, 'mobile_list_elements_on_screen');
  ctx.onElements?.(elements);
  // Carried on the array so verbs that report a missing target can say the listing may be incomplete.
  return note ? Object.assign(elements, { note }) : elements;
}

export async function screenSize(ctx: VerbContext): Promise<ScreenSize> {
  return call<ScreenSize>(ctx, 'mobile_get_screen_size');
}

/** The screen as the device hands it out, for checks that read pixels (no PNG encode and decode in between). */
export async function screenCapture(ctx: VerbContext): Promise<ScreenCapture> {
  if (ctx.signal?.aborted) throw new VerbError('CANCELLED', 'cancelled');
  try {
    return await ctx.engine.captureScreen(ctx.device, { origin: ctx.origin, hold: ctx.hold });
  } catch (err) {
    const f = toFailure(err);
    throw new VerbError(f.code, f.message);
  }
}

export async function screenshotPng(ctx: VerbContext): Promise<Buffer> {
  const shot = await call<{ image: string }>(ctx, 'mobile_take_screenshot');
  return Buffer.from(shot.image, 'base64');
}

const has = (e: UiElement, re: RegExp) => re.test(e.class ?? '') || re.test(e.resource_id ?? '') || re.test(e.id);

// Raw class names and resource ids of the platforms' standard widgets (Android SDK, XCUITest, Material).
export const isKeyboard = (e: UiElement) => e.type === 'keyboard' || has(e, /KeyboardView|XCUIElementTypeKeyboard|inputmethod/i);
export const isDialog = (e: UiElement) => e.type === 'dialog' || has(e, /XCUIElementTypeAlert|AlertDialog|alertTitle/i);
export const isToast = (e: UiElement) => has(e, /snackbar_text|(^|[/:_])toast$|android\.widget\.Toast/i);

const LOADING_CLASS: Record<string, RegExp> = {
  spinner: /ProgressBar|ActivityIndicator|CircularProgress|spinner/i,
  progress_bar: /ProgressBar|ProgressIndicator|progress/i,
  shimmer: /shimmer/i,
  skeleton: /skeleton|placeholder/i,
};
const LOADING_TEXT = /^(loading|please wait|chargement|cargando|wird geladen)\b|^loading(\.\.\.|…)?$/i;

/** A loading indicator of the asked kind (wait_config.indicator), or any kind. */
export function isLoadingIndicator(e: UiElement, indicator = 'any'): boolean {
  const classes = indicator === 'any' ? Object.values(LOADING_CLASS) : [LOADING_CLASS[indicator] ?? LOADING_CLASS.spinner];
  if (classes.some((re) => has(e, re))) return true;
  if (indicator !== 'any' && indicator !== 'spinner') return false;
  return LOADING_TEXT.test(normalizeText(e.text)) || LOADING_TEXT.test(normalizeText(e.accessibility_label ?? ''));
}

export function within(inner: UiElement, outer: UiElement): boolean {
  return inner.center.x >= outer.x && inner.center.x <= outer.x + outer.width && inner.center.y >= outer.y && inner.center.y <= outer.y + outer.height;
}

/** Whether the soft keyboard is up: the driver's report when it has one, else a keyboard element. */
export async function keyboardVisible(ctx: VerbContext, elements?: UiElement[]): Promise<boolean> {
  const props = await ctx.engine
    .withDevice(ctx.device, 'reading device properties', async (h, c) => (h.properties ? h.properties(c) : undefined))
    .catch(() => undefined);
  if (props?.keyboardVisible !== undefined) return props.keyboardVisible;
  return (elements ?? (await listElements(ctx))).some(isKeyboard);
}

/**
 * What an element says: its text, else its label, else the first text inside it (a list row's
 * title), so "capture Item 3" reads "Item 3" from a row that carries no text itself.
 */
export function textOf(element: UiElement, elements: readonly UiElement[]): string {
  if (element.text) return element.text;
  if (element.accessibility_label) return element.accessibility_label;
  const inside = elements
    .filter((e) => e !== element && e.text && within(e, element))
    .sort((a, b) => a.center.y - b.center.y || a.center.x - b.center.x);
  return inside[0]?.text ?? '';
}

/** What a listing shows, as one string: equal for two looks at an unchanged screen (ids, texts, places, states). */
export function screenFingerprint(elements: readonly UiElement[]): string {
  return JSON.stringify(elements.map((e) => [e.id, e.type, e.text, e.accessibility_label, e.x, e.y, e.width, e.height, e.enabled, e.checked, e.selected, e.focused]));
}

/** An element's text and label, normalised, as the words a user would read on it. */
export function words(e: UiElement): string[] {
  return [e.text, e.accessibility_label ?? ''].map(normalizeText).filter(Boolean);
}
