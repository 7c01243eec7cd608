// Made on first use: building a Segmenter loads ICU's break data (~30 ms), which every CLI start paid.
let graphemes: Intl.Segmenter | undefined;

/**
 * V8's segment iterator costs time in proportion to the whole text at every step (30 000
 * characters: 0.2 s; a 90 000-character paste: seconds per count), so long texts are counted in
 * pieces cut where a grapheme boundary is certain.
 */
const PIECE = 1024;

/**
 * Letters, digits, punctuation, symbols and spaces that take part in no multi-character cluster
 * rule (UAX #29 GB3–GB13): not marks, joiners or controls (left out of the class), not Hangul
 * jamo or syllables (GB6–8), regional indicators (GB12–13) or emoji modifiers (Extend).
 */
const PLAIN = /^[\p{L}\p{N}\p{P}\p{S}\p{Zs}]$/u;
const CLUSTERING = /^[\p{Script=Hangul}\p{Regional_Indicator}\p{Emoji_Modifier}]$/u;
/** Prepend characters outside the classes above are format controls; these few are letters (GB9b). */
const PREPEND_LETTERS = /^[\u0D4E\u{111C2}\u{111C3}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}]$/u;

const plain = (c: string): boolean => PLAIN.test(c) && !CLUSTERING.test(c);

/** The code point ending just before index `i` (a surrogate pair whole). */
function before(text: string, i: number): string {
  const low = text.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? text.slice(i - 2, i) : text.slice(i - 1, i);
}

/** A cut at `i` that surely falls between two clusters: two plain characters meet there, the first not a prepend. */
function boundaryAt(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  if (unit >= 0xdc00 && unit <= 0xdfff) return false;
  const next = String.fromCodePoint(text.codePointAt(i)!);
  const prev = before(text, i);
  return plain(next) && plain(prev) && !PREPEND_LETTERS.test(prev);
}

function countWhole(text: string): number {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/** Characters as a person sees them: an emoji is one, not two UTF-16 units. */
export function graphemeCount(text: string): number {
  let n = 0;
  let start = 0;
  // A piece without a certain boundary grows until it finds one (or the text ends).
  for (let cut = start + PIECE; cut < text.length; cut++) {
    if (!boundaryAt(text, cut)) continue;
    n += countWhole(text.slice(start, cut));
    start = cut;
    cut = start + PIECE - 1;
  }
  return n + countWhole(text.slice(start));
}

/** "1 character", "11 characters". */
export const characters = (n: number): string => `${n} character${n === 1 ? '' : 's'}`;

/** The text's length in those words, counted as graphemeCount does. */
export function characterCount(text: string): string {
  return characters(graphemeCount(text));
}
