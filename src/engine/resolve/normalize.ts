/**
 * Text normalisation shared by the resolver, the semantic verbs and the assertions, so that
 * "Don’t Allow", "don't allow" and "DON'T ALLOW" compare equal everywhere.
 */

const CURLY = /[\u2018\u2019\u201A\u201B\u2032]/g;
const CURLY_DOUBLE = /[\u201C\u201D\u201E\u2033]/g;

/** Lower case, no diacritics, straight quotes, single spaces. */
export function normalizeText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(CURLY, "'")
    .replace(CURLY_DOUBLE, '"')
    .replace(/\u2026/g, '...')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Curly quotes made straight, as normalizeText does, and nothing else: the same length, so positions in it are positions in `value`. */
export function straightQuotes(value: string): string {
  return value.replace(CURLY, "'").replace(CURLY_DOUBLE, '"');
}

/** Words of a normalised string; apostrophes stay inside words ("don't"). */
export function tokenize(normalized: string): string[] {
  return normalized.match(/[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu) ?? [];
}
