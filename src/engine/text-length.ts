// Made on first use: building a Segmenter loads ICU's break data (~30 ms), which every CLI start paid.
let graphemes: Intl.Segmenter | undefined;

/** Characters as a person sees them: an emoji is one, not two UTF-16 units. */
export function graphemeCount(text: string): number {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/** "1 character", "11 characters". */
export const characters = (n: number): string => `${n} character${n === 1 ? '' : 's'}`;

/** The text's length in those words, counted as graphemeCount does. */
export function characterCount(text: string): string {
  return characters(graphemeCount(text));
}
