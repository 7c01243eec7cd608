import { RecentMap } from './recent-map.js';
import type { UiElement } from './types.js';

/**
 * What each caller's last element listing of a device showed under each id. Ids without a unique resource id
 * follow the element's place in the hierarchy (SPEC §2), and a scrolled list recycles its rows, so
 * an id from a listing can name another row a moment later. Remembering what the id showed lets
 * mobile_scroll_to_element find the element the caller saw instead of whatever holds the id now.
 */
export interface ListedElement {
  text: string;
  label: string | null;
  type: UiElement['type'];
}

/** Callers × devices remembered; far more than one engine serves. */
const MAX_LISTINGS = 256;

export class ListedElements {
  private readonly listings = new RecentMap<string, Map<string, ListedElement>>(MAX_LISTINGS);

  /**
   * Per caller (`origin`: a bridge session, an agent, the runner; undefined for a caller that gives
   * none): the viewer's own listings must not stand in for what an agent saw.
   */
  remember(device: string, origin: string | undefined, elements: readonly UiElement[]): void {
    this.listings.set(key(device, origin), new Map(elements.map((e) => [e.id, { text: e.text, label: e.accessibility_label, type: e.type }])));
  }

  /** The caller is gone for good: its listings can no longer be asked about. */
  forgetCaller(origin: string): void {
    for (const k of [...this.listings.keys()]) if (k.endsWith(`\n${origin}`)) this.listings.delete(k);
  }

  /** What `id` showed in this caller's last listing of the device, if it was listed there. */
  seen(device: string, origin: string | undefined, id: string): ListedElement | undefined {
    return this.listings.get(key(device, origin))?.get(id);
  }
}

const key = (device: string, origin: string | undefined): string => `${device}\n${origin ?? ''}`;

export const showsAs = (e: UiElement, listed: ListedElement): boolean => e.text === listed.text && e.accessibility_label === listed.label && e.type === listed.type;

/** Whether a listed element can be told apart by what it shows (an empty container cannot). */
export const identifiable = (listed: ListedElement): boolean => listed.text !== '' || (listed.label ?? '') !== '';
