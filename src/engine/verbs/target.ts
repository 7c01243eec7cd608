import { CONFIDENCE_THRESHOLD, type ResolveRequest, type Resolution } from '../resolve/index.js';
import type { ElementListing } from '../driver.js';
import type { UiElement } from '../types.js';
import { showsAppError } from '../listing/app-error.js';
import type { ScreenSize } from '../ui-tree.js';
import { isDialog, isKeyboard, listElements, screenSize } from './screen.js';
import { VerbError, type ResolvedElement, type VerbContext, type VerbStep } from './types.js';

export function requestOf(step: VerbStep, intent: 'interact' | 'read'): ResolveRequest {
  return { description: step.target, pattern: step.target_pattern, intent };
}

export function resolvedOf(element: UiElement, confidence: number): ResolvedElement {
  const resolved: ResolvedElement = { id: element.id, text: element.text, label: element.accessibility_label, type: element.type, center: element.center, confidence };
  if (element.password) resolved.password = true;
  return resolved;
}

const sizes = new WeakMap<VerbContext, ScreenSize>();

async function sizeOf(ctx: VerbContext): Promise<ScreenSize> {
  let size = sizes.get(ctx);
  if (!size) {
    size = await screenSize(ctx);
    sizes.set(ctx, size);
  }
  return size;
}

/** Resolves against one listing, through the step cache when the runner gave one. */
export async function resolveOnce(ctx: VerbContext, request: ResolveRequest, elements: UiElement[]): Promise<Resolution> {
  const full = { ...request, screen: request.screen ?? (await sizeOf(ctx)) };
  if (ctx.cache && ctx.cacheScope) return ctx.cache.resolve(ctx.resolver, ctx.cacheScope, full, elements);
  return ctx.resolver.resolve(full, elements);
}

/**
 * When the description picked (or tied on) an element `prefer` rejects, the one element of the
 * best-matching group that `prefer` accepts, if there is exactly one. So "Email" on a screen with
 * an "Email" label and an Email field is the field for typing, while "Welcome back" stays the
 * heading: the group only holds elements the description fits about as well as its best match.
 */
async function preferred(ctx: VerbContext, request: ResolveRequest, elements: UiElement[], r: Resolution, prefer: (e: UiElement) => boolean): Promise<{ element: UiElement; confidence: number } | undefined> {
  if (r.ok ? prefer(r.element) : r.reason !== 'ambiguous') return undefined;
  const fits = (await ctx.resolver.findAll({ ...request, screen: request.screen ?? (await sizeOf(ctx)) }, elements)).filter(prefer);
  if (fits.length !== 1) return undefined;
  const score = r.candidates.find((c) => c.id === fits[0].id)?.score;
  // Not among the listed candidates: it passed the resolver's threshold, which is all that is known.
  return { element: fits[0], confidence: score ?? (r.ok ? r.confidence : CONFIDENCE_THRESHOLD) };
}

type Found = { element: UiElement; resolved: ResolvedElement; elements: UiElement[] };

/** The target is not on screen (a near-tie or a bad pattern is another VerbError): waiting may bring it. */
export class TargetMissing extends VerbError {}

/**
 * Finds the step's target, looking again until `waitMs` has passed (screens settle after
 * animations and loads). A near-tie or a bad pattern fails at once: waiting will not fix those.
 * `prefer` (typing prefers text fields) breaks a tie or overrides a pick in favour of the one
 * element of the best-matching group it accepts.
 */
export async function findTarget(ctx: VerbContext, step: VerbStep, intent: 'interact' | 'read', waitMs = ctx.targetWaitMs, prefer?: (e: UiElement) => boolean): Promise<Found> {
  const request = requestOf(step, intent);
  const deadline = ctx.clock.now() + waitMs;
  for (;;) {
    const elements = await listElements(ctx);
    const r = await resolveOnce(ctx, request, elements);
    const better = prefer && (await preferred(ctx, request, elements, r, prefer));
    if (better) return { element: better.element, resolved: resolvedOf(better.element, better.confidence), elements };
    if (r.ok) return { element: r.element, resolved: resolvedOf(r.element, r.confidence), elements };
    if (r.reason === 'ambiguous' || r.reason === 'bad_request') {
      throw new VerbError(r.reason === 'bad_request' ? 'INVALID_PARAMETER' : 'ELEMENT_NOT_FOUND', `${r.message} (on ${ctx.device})`, r.candidates);
    }
    if (ctx.clock.now() >= deadline) {
      // A dialog or the keyboard can hide a target, never make two elements match alike.
      throw new TargetMissing('ELEMENT_NOT_FOUND', `${r.message} (on ${ctx.device})${coverNote(elements)}${listingNote(elements)}`, r.candidates);
    }
    await ctx.clock.sleep(ctx.pollMs, ctx.signal);
  }
}

/**
 * What hides the rest of the app when a target is missing: a modal window (its dump lists only
 * itself) or the keyboard. Said in the error so the user closes it instead of hunting the target.
 */
function coverNote(elements: UiElement[]): string {
  // Android's app error dialog is a dialog too, but the listing's own note says what it is and which button closes it.
  if (showsAppError(elements)) return '';
  const dialog = elements.find(isDialog);
  if (dialog) {
    const title = dialog.accessibility_label || dialog.text;
    return `; a dialog${title ? ` ${JSON.stringify(title)}` : ''} covers the app: only its own elements can be used until it is closed (tap one of its buttons, or grant_permission / deny_permission for a permission prompt)`;
  }
  if (elements.some(isKeyboard)) return '; the keyboard is showing and may hide it: dismiss_keyboard first';
  return '';
}

/** What the listing itself says of the screen (an iOS tree cut at WDA's snapshot depth, Android's app error dialog). */
function listingNote(elements: ElementListing): string {
  return elements.note ? `; ${elements.note}` : '';
}

/**
 * Whether the target is on screen now, without waiting (conditions, wait_for_element_gone,
 * scroll_to). A request that can match nothing (no target, a blank one, a bad regex) is refused
 * with INVALID_PARAMETER: read as "absent", a wait for it to go would pass at once and a scroll
 * would swipe through the whole list for it.
 */
export async function targetPresent(ctx: VerbContext, request: ResolveRequest, elements?: UiElement[]): Promise<boolean> {
  const list = elements ?? (await listElements(ctx));
  const r = await ctx.resolver.resolve({ ...request, screen: request.screen ?? (await sizeOf(ctx)) }, list);
  if (!r.ok && r.reason === 'bad_request') throw new VerbError('INVALID_PARAMETER', `${r.message} (on ${ctx.device})`);
  return r.ok || r.reason === 'ambiguous';
}

/** Screen size for the verb context (cached; orientation changes go through `forgetSize`). */
export { sizeOf as verbScreenSize };

export function forgetSize(ctx: VerbContext): void {
  sizes.delete(ctx);
}
