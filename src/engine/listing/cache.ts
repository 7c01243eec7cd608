import { createHash } from 'node:crypto';
import { RecentMap } from '../recent-map.js';
import type { UiElement } from '../types.js';

/**
 * Element listings by the hash of the hierarchy they were parsed from: an unchanged screen (an
 * agent polling, the next page of a listing, scroll_to's checks) skips parsing and filtering.
 * Bounded: a few screens per device, since a screen seen again after many others is rare.
 */
export class ListingCache {
  private readonly entries: RecentMap<string, UiElement[]>;

  constructor(capacity = 4) {
    this.entries = new RecentMap(capacity);
  }

  /** The listing for this hierarchy text (and whatever else changes the result, in `context`), computing it on a miss. */
  get(source: string, context: string, compute: () => UiElement[]): UiElement[] {
    const key = createHash('md5').update(context).update('\0').update(source).digest('hex');
    let hit = this.entries.get(key);
    if (!hit) this.entries.set(key, (hit = compute()));
    // Callers get their own array and objects: a listing handed out is theirs to change.
    return hit.map((e) => ({ ...e, center: { ...e.center } }));
  }

  get size(): number {
    return this.entries.size;
  }
}
