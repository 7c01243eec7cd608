import type { ResolveRequest, Resolution } from '../resolve/index.js';
import type { UiElement } from '../types.js';
import type { ScreenSize } from '../ui-tree.js';
import { listElements, screenSize } from './screen.js';
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
 * Finds the step's target, looking again until `waitMs` has passed (screens settle after
 * animations and loads). A near-tie or a bad pattern fails at once: waiting will not fix those.
 */
export async function findTarget(ctx: VerbContext, step: VerbStep, intent: 'interact' | 'read', waitMs = ctx.targetWaitMs): Promise<{ element: UiElement; resolved: ResolvedElement; elements: UiElement[] }> {
  const request = requestOf(step, intent);
  const deadline = ctx.clock.now() + waitMs;
  for (;;) {
    const elements = await listElements(ctx);
    const r = await resolveOnce(ctx, request, elements);
    if (r.ok) return { element: r.element, resolved: resolvedOf(r.element, r.confidence), elements };
    if (r.reason === 'ambiguous' || r.reason === 'bad_request' || ctx.clock.now() >= deadline) {
      throw new VerbError(r.reason === 'bad_request' ? 'INVALID_PARAMETER' : 'ELEMENT_NOT_FOUND', `${r.message} (on ${ctx.device})`, r.candidates);
    }
    await ctx.clock.sleep(ctx.pollMs, ctx.signal);
  }
}

/** Whether the target is on screen now, without waiting (conditions, wait_for_element_gone). */
export async function targetPresent(ctx: VerbContext, request: ResolveRequest, elements?: UiElement[]): Promise<boolean> {
  const list = elements ?? (await listElements(ctx));
  const r = await ctx.resolver.resolve({ ...request, screen: request.screen ?? (await sizeOf(ctx)) }, list);
  return r.ok || r.reason === 'ambiguous';
}

/** Screen size for the verb context (cached; orientation changes go through `forgetSize`). */
export { sizeOf as verbScreenSize };

export function forgetSize(ctx: VerbContext): void {
  sizes.delete(ctx);
}
