import { createHash } from 'node:crypto';
import type { UiElement } from '../types.js';

/**
 * Element listings for models: only what a model needs to pick and act on an element, with empty
 * and default fields left out, and pages for huge screens (a 2,000-node screen gives ~1,600
 * elements: ~590 KB as seed objects, a fraction of that here).
 */
export interface CompactElement {
  id: string;
  type: string;
  text?: string;
  label?: string;
  hint?: string;
  /** Centre in device pixels: what a coordinate tap takes. */
  center: [number, number];
  /** Width and height in device pixels. */
  size: [number, number];
  enabled?: false;
  checked?: boolean;
  selected?: true;
  focused?: true;
}

export interface CompactListing {
  /** Fingerprint of the whole listing: pages of one screen share it; a different value means the screen changed. */
  screen: string;
  total: number;
  offset: number;
  elements: CompactElement[];
  /** Where the next page starts; absent on the last page. */
  next_offset?: number;
  /** Set when the caller's `screen` is not the current one: earlier pages described another screen. */
  screen_changed?: true;
  /** Set when `offset` is past the last element: why the page is empty, and the offset to use. */
  note?: string;
}

export interface PageRequest {
  offset?: number;
  limit?: number;
  /** The `screen` of the previous page, to detect a change between pages. */
  screen?: string;
}

/** Elements per page unless the caller says otherwise: ~20–30 KB of JSON, easy on a model's context. */
export const DEFAULT_PAGE_SIZE = 300;
export const MAX_PAGE_SIZE = 2000;

export function compactElement(e: UiElement): CompactElement {
  // Words first, numbers after: the order a model reads a row in.
  const c: CompactElement = {
    id: e.id,
    type: e.type,
    ...(e.text ? { text: e.text } : {}),
    ...(e.accessibility_label && e.accessibility_label !== e.text ? { label: e.accessibility_label } : {}),
    ...(e.hint ? { hint: e.hint } : {}),
    center: [e.center.x, e.center.y],
    size: [e.width, e.height],
  };
  if (!e.enabled) c.enabled = false;
  if (e.checked !== undefined) c.checked = e.checked;
  if (e.selected) c.selected = true;
  if (e.focused) c.focused = true;
  return c;
}

/** One page of the compact listing. Linear in the number of elements. */
export function compactListing(elements: UiElement[], page: PageRequest = {}): CompactListing {
  const offset = page.offset ?? 0;
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`offset must be a whole number ≥ 0 (got ${offset})`);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new RangeError(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE} (got ${limit})`);
  const all = elements.map(compactElement);
  const hash = createHash('md5');
  for (const e of all) hash.update(JSON.stringify(e));
  const screen = hash.digest('hex').slice(0, 12);
  const out: CompactListing = { screen, total: all.length, offset, elements: all.slice(offset, offset + limit) };
  if (offset + limit < all.length) out.next_offset = offset + limit;
  if (page.screen !== undefined && page.screen !== screen) out.screen_changed = true;
  if (offset > 0 && offset >= all.length) out.note = pastTheEnd(offset, all.length, limit);
  return out;
}

/**
 * Why a page past the end is empty. Not an error (paging on while the screen shrank is normal),
 * but an empty page alone reads as an empty screen, so it says where the elements are.
 */
function pastTheEnd(offset: number, total: number, limit: number): string {
  if (total === 0) return `offset ${offset} is past the end: the screen lists no elements now`;
  const lastPage = Math.floor((total - 1) / limit) * limit;
  return `offset ${offset} is past the last element (total ${total}, offsets 0 to ${total - 1}): call again with offset 0 for the first page${lastPage > 0 ? ` or ${lastPage} for the last` : ''}`;
}
