import type { TextMatch } from './score.js';

/** What the resolver knows of one element's fit while ranking. */
export interface Standing {
  score: number;
  /** The description said one of the element's own strings whole: its text, label or placeholder. */
  named: boolean;
  /** The element only shares one word of a longer string with the description ("Item 1", "My items" for "Items"). */
  loose: boolean;
}

export function standingOf(score: number, text: TextMatch | null): Standing {
  return { score, named: text?.named ?? false, loose: text !== null && !text.whole && text.shared <= 1 };
}

/**
 * A person who says "Items" where an element is called exactly that means it, not every text
 * that holds the word. So once an element is named whole, loose matches that score no better are
 * no longer candidates: they neither crowd its group nor appear as alternatives. Elements named
 * whole are all kept, so two elements both called "Items" stay a near-tie the caller must settle.
 */
export function withoutOutranked<T extends Standing>(ranked: T[]): T[] {
  let bestNamed = -Infinity;
  for (const s of ranked) if (s.named && s.score > bestNamed) bestNamed = s.score;
  if (bestNamed === -Infinity) return ranked;
  return ranked.filter((s) => !s.loose || s.score > bestNamed);
}
