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
  /**
   * Fingerprint of the whole listing: pages of one screen share it; a different value means the
   * screen changed. Its first half covers the elements without their words (ids, kinds, places,
   * states), so a page can tell a screen whose texts moved on (a clock) from another screen.
   */
  screen: string;
  total: number;
  offset: number;
  elements: CompactElement[];
  /** Where the next page starts; absent on the last page. */
  next_offset?: number;
  /** Set when the caller's `screen` is not the current one: earlier pages described another screen. */
  screen_changed?: true;
  /**
   * Set when `offset` is past the last element (why the page is empty, and the offset to use), when
   * the page stopped short of `limit` to stay under PAGE_CHARS, or when long texts were cut.
   */
  note?: string;
}

export interface PageRequest {
  offset?: number;
  limit?: number;
  /** The `screen` of the previous page, to detect a change between pages. */
  screen?: string;
}

/** Elements per page unless the caller says otherwise: ~25–35 KB of JSON, easy on a model's context. */
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

/**
 * A page stops before this many characters of elements, whatever `limit` says: MCP clients refuse
 * bigger results (Claude Code: 25,000 tokens by default, about 3 characters each in this JSON),
 * and a refused listing leaves the agent nothing to go on.
 */
export const PAGE_CHARS = 50_000;
/** Longer texts, labels and hints are cut here (a web view's paragraph, a log screen): a page of them would pass PAGE_CHARS. */
export const TEXT_CHARS = 500;

const cut = (s: string): string => `${s.slice(0, TEXT_CHARS)}…`;

/** `e` with its over-long words cut, or `e` itself. */
function shortened(e: CompactElement): CompactElement {
  const long = (s: string | undefined) => s !== undefined && s.length > TEXT_CHARS;
  if (!long(e.text) && !long(e.label) && !long(e.hint)) return e;
  const c = { ...e };
  if (long(c.text)) c.text = cut(c.text!);
  if (long(c.label)) c.label = cut(c.label!);
  if (long(c.hint)) c.hint = cut(c.hint!);
  return c;
}

/**
 * One page of the compact listing, with `deviceNote` (the listing tool's own note) leading its
 * `note`. Linear in the number of elements.
 */
export function compactListing(elements: UiElement[], page: PageRequest = {}, deviceNote?: string): CompactListing {
  const offset = page.offset ?? 0;
  const limit = page.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`offset must be a whole number ≥ 0 (got ${offset})`);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new RangeError(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE} (got ${limit})`);
  const all = elements.map(compactElement);
  // The fingerprint covers whole texts: an edit past the cut is a changed screen too.
  const json = all.map((e) => JSON.stringify(e));
  const whole = createHash('md5');
  for (const j of json) whole.update(j);
  const screen = `${layoutOf(all)}${whole.digest('hex').slice(0, 8)}`;
  const taken: CompactElement[] = [];
  const sizes: number[] = [];
  let chars = 0;
  for (let i = offset; i < all.length && taken.length < limit; i++) {
    const e = shortened(all[i]);
    const size = (e === all[i] ? json[i] : JSON.stringify(e)).length + 1;
    if (taken.length > 0 && chars + size > PAGE_CHARS) break;
    taken.push(e);
    sizes.push(size);
    chars += size;
  }
  const assemble = (count: number): CompactListing => {
    const end = offset + count;
    const out: CompactListing = { screen, total: all.length, offset, elements: taken.slice(0, count) };
    if (end < all.length) out.next_offset = end;
    const changed = page.screen !== undefined && page.screen !== screen;
    if (changed) out.screen_changed = true;
    const longTexts = out.elements.filter((e, k) => e !== all[offset + k]).length;
    const notes: string[] = deviceNote ? [deviceNote] : [];
    // Live text (a clock, a countdown, "5 s ago") changes every listing: telling the agent to start
    // over would never let it through a big screen, and the offsets still line up.
    if (changed && page.screen!.slice(0, LAYOUT_CHARS) === screen.slice(0, LAYOUT_CHARS)) {
      notes.push('only texts changed since the earlier pages (the same elements in the same places), so the offsets still line up: go on with next_offset; list again from offset 0 only if texts you read earlier matter');
    }
    if (offset > 0 && offset >= all.length) notes.push(pastTheEnd(offset, all.length, limit));
    if (end < all.length && count < limit) notes.push(`this page stops at ${count} elements (not ${limit}) to stay under ${PAGE_CHARS} characters, which MCP clients accept; pass next_offset ${end} as offset for the rest`);
    if (longTexts) notes.push(`${longTexts} element${longTexts === 1 ? "'s" : "s'"} text, label or hint is cut at ${TEXT_CHARS} characters (ending in …); read_text with the element's description gives a whole text`);
    if (notes.length) out.note = notes.join('; ');
    return out;
  };
  // What a client measures is the whole result: the page's other fields and its note count too.
  let count = taken.length;
  let out = assemble(count);
  for (let over = JSON.stringify(out).length - PAGE_CHARS; over > 0 && count > 1; over = JSON.stringify(out).length - PAGE_CHARS) {
    while (over > 0 && count > 1) over -= sizes[--count];
    out = assemble(count);
  }
  return out;
}

const LAYOUT_CHARS = 8;

/** The hash of the elements without their words: what decides whether offsets still name the same elements. */
function layoutOf(all: readonly CompactElement[]): string {
  const hash = createHash('md5');
  for (const e of all) hash.update(`${e.id}\u0000${e.type}\u0000${e.center}\u0000${e.size}\u0000${e.enabled}${e.checked}${e.selected}${e.focused}\u0001`);
  return hash.digest('hex').slice(0, LAYOUT_CHARS);
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
