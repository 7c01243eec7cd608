const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** "1 character", "11 characters", counted as a person sees them: an emoji is one, not two UTF-16 units. */
export function characterCount(text: string): string {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return `${n} character${n === 1 ? '' : 's'}`;
}
