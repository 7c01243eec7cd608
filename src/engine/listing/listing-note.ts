import type { ElementListing } from '../driver.js';
import { appErrorNote } from './app-error.js';

/**
 * What a reader of a listing must know beside its elements: the device's own note (a tree cut at
 * its depth limit, a screen it could not read whole) and an app error dialog's. The listing tool
 * answers it as `note`, the element watch pushes it with its diffs.
 */
export function listingNote(elements: ElementListing): string | undefined {
  return [elements.note, appErrorNote(elements)].filter(Boolean).join('; ') || undefined;
}
