import { dirname } from 'node:path';
import type { UiElement } from '../types.js';
import type { ResolveRequest, Resolution, Resolver } from './types.js';
import { makeFolders, readInside, writeInside } from '../files/safe-fs.js';
import { parseQuery } from './query.js';
import { isPositionalId } from '../ui-tree.js';

/** A cache far larger than this is damaged or not ours: resolving afresh is always correct. */
const CACHE_MAX_BYTES = 8 * 1024 * 1024;

/** What is remembered of one resolution: enough to recognise the element on a later screen. */
export interface CachedResolution {
  id: string;
  type: string;
  text: string;
  label: string | null;
  confidence: number;
}

/**
 * Whether a remembered element can stand for the description on a later screen. Not when the
 * description picks by ordinal, position or relation ("the last Delete button", "… right of
 * Item 5"): the element it names changes as the screen changes. Not for an element whose id is
 * its place in the tree: every row's Delete button has such an id, so the same id is another
 * row's button once the list has scrolled.
 */
function rememberable(request: ResolveRequest, id: string): boolean {
  if (isPositionalId(id)) return false;
  if (request.description === undefined) return true;
  const q = parseQuery(request.description);
  return q.ordinal === undefined && !q.positions.length && !q.relation;
}

/**
 * Resolutions keyed by scenario, step and description (Midscene-style). On replay the cached
 * element is taken again only if an element with the same id, type, text and label is on screen
 * and no other element on screen shows its text (else the description may now be ambiguous);
 * otherwise the step resolves afresh and the entry is replaced. Descriptions with an ordinal,
 * position or relation, and elements with positional ids, are never cached.
 */
export class ResolutionCache {
  private readonly entries = new Map<string, CachedResolution>();
  hits = 0;
  misses = 0;

  static key(scope: string, request: ResolveRequest): string {
    return `${scope}\u0000${request.description ?? ''}\u0000${request.pattern ?? ''}`;
  }

  get size(): number {
    return this.entries.size;
  }

  async resolve(resolver: Resolver, scope: string, request: ResolveRequest, elements: readonly UiElement[]): Promise<Resolution> {
    const key = ResolutionCache.key(scope, request);
    const cached = this.entries.get(key);
    if (cached) {
      // Re-check: the remembered element must still be on screen unchanged; a model-based resolver
      // is then not asked again, and a deterministic one keeps choosing the same element.
      const same = rememberable(request, cached.id) ? elements.find((e) => e.id === cached.id && e.type === cached.type && e.text === cached.text && e.accessibility_label === cached.label) : undefined;
      // Another element showing its text: the description that was unique may now be ambiguous.
      const shown = cached.text || cached.label;
      const alone = same !== undefined && (!shown || !elements.some((e) => e !== same && (e.text === shown || e.accessibility_label === shown)));
      if (same && alone) {
        this.hits++;
        return { ok: true, element: same, confidence: cached.confidence, candidates: [{ id: same.id, type: same.type, text: same.text, label: same.accessibility_label, score: cached.confidence }] };
      }
      this.entries.delete(key);
    }
    this.misses++;
    const result = await resolver.resolve(request, elements);
    if (result.ok && rememberable(request, result.element.id)) {
      const e = result.element;
      this.entries.set(key, { id: e.id, type: e.type, text: e.text, label: e.accessibility_label, confidence: result.confidence });
    }
    return result;
  }

  toJSON(): Record<string, CachedResolution> {
    return Object.fromEntries(this.entries);
  }

  /** Loads a cache file written by `save`; a missing or unreadable file starts an empty cache. */
  static async load(file: string): Promise<ResolutionCache> {
    const cache = new ResolutionCache();
    try {
      const where = { roots: [dirname(file)], param: 'resolution cache' };
      const data = JSON.parse((await readInside(file, where, { maxBytes: CACHE_MAX_BYTES })).toString('utf8')) as Record<string, CachedResolution>;
      for (const [k, v] of Object.entries(data)) if (v && typeof v.id === 'string') cache.entries.set(k, v);
    } catch {
      // No cache yet (first run) or a damaged one: resolving afresh is always correct.
    }
    return cache;
  }

  /**
   * Atomic, inside the cache's folder (files/safe-fs). An entry for which `holdsSecret` is true of
   * its key or of any of its texts is left out, not masked: the run's secrets must never reach the
   * disk, and a masked entry could never be used again (its key is built from the real
   * description, its text compared with the real text on screen), so dropping it costs nothing but
   * one fresh resolution on the next run.
   */
  async save(file: string, holdsSecret: (text: string) => boolean = () => false): Promise<void> {
    const kept: Record<string, CachedResolution> = {};
    for (const [key, e] of this.entries) {
      if ([key, e.id, e.type, e.text, e.label ?? ''].some(holdsSecret)) continue;
      kept[key] = e;
    }
    await makeFolders(dirname(file));
    await writeInside(file, JSON.stringify(kept, null, 1), { roots: [dirname(file)], param: 'resolution cache' });
  }
}
