import { compareVersions } from './vocabulary.js';

/** One table reused by every call (suggestions are computed one at a time); grown when a word is longer. */
let table = new Int32Array(64 * 64);

/**
 * Edit distance with adjacent transpositions counted as one edit, so "tpa" is 1 away from "tap".
 * With `bound`, any distance above it is returned as `bound + 1`: the table is abandoned once two
 * rows in a row lie wholly above the bound, since every later cell derives from those two rows.
 */
export function editDistance(a: string, b: string, bound = Infinity): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  if (table.length < rows * cols) table = new Int32Array(rows * cols);
  const d = table;
  for (let r = 0; r < rows; r++) d[r * cols] = r;
  for (let c = 0; c < cols; c++) d[c] = c;
  let previousMin = 0;
  for (let r = 1; r < rows; r++) {
    const ar = a.charCodeAt(r - 1);
    let rowMin = d[r * cols];
    for (let c = 1; c < cols; c++) {
      const bc = b.charCodeAt(c - 1);
      const up = d[(r - 1) * cols + c] + 1;
      const left = d[r * cols + c - 1] + 1;
      const diagonal = d[(r - 1) * cols + c - 1] + (ar === bc ? 0 : 1);
      let best = up < left ? up : left;
      if (diagonal < best) best = diagonal;
      if (r > 1 && c > 1 && ar === b.charCodeAt(c - 2) && a.charCodeAt(r - 2) === bc) {
        const swapped = d[(r - 2) * cols + c - 2] + 1;
        if (swapped < best) best = swapped;
      }
      d[r * cols + c] = best;
      if (best < rowMin) rowMin = best;
    }
    if (rowMin > bound && previousMin > bound) return bound + 1;
    previousMin = rowMin;
  }
  const distance = d[rows * cols - 1];
  return distance > bound ? bound + 1 : distance;
}

/** Per ASCII character, how often the word holds it; reused by every call. */
const wordCounts = new Int32Array(128);
const spare = new Int32Array(128);

/**
 * A lower bound of the edit distance from characters alone: an edit changes at most one character
 * on each side and a transposition none, so at least max(|a|, |b|) minus the characters the two
 * share (as multisets) edits are needed. 0 (no information) for text outside ASCII.
 */
function sharedCharacterBound(word: string, cand: string): number {
  for (let k = 0; k < cand.length; k++) if (cand.charCodeAt(k) >= 128) return 0;
  spare.set(wordCounts);
  let shared = 0;
  for (let k = 0; k < cand.length; k++) {
    const c = cand.charCodeAt(k);
    if (spare[c] > 0) {
      spare[c]--;
      shared++;
    }
  }
  return Math.max(word.length, cand.length) - shared;
}

/**
 * The closest candidate, if it is close enough to be a plausible typo: at most a third of the
 * word's length in edits (min 1), or a case-only difference, or one being a prefix of the other.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  // Nothing scoring above this is ever suggested, and anything within it beats anything above, so
  // candidates above it need no exact distance.
  const cap = Math.max(1.5, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestScore = Infinity;
  let ascii = true;
  wordCounts.fill(0);
  for (let k = 0; k < lower.length; k++) {
    const c = lower.charCodeAt(k);
    if (c >= 128) ascii = false;
    else wordCounts[c]++;
  }
  for (const cand of candidates) {
    const cl = cand.toLowerCase();
    if (cl === lower) return cand;
    const prefix = lower.length >= 3 && (cl.startsWith(lower) || lower.startsWith(cl));
    // The distance is at least the difference in length; a candidate that cannot beat the best is skipped.
    if (!prefix && Math.abs(cl.length - lower.length) >= bestScore) continue;
    // Distances are whole numbers: one that helps is below the best so far and within the cap
    // (a prefix scores at most 1.5, so only a distance of 0 or 1 changes its score).
    const bound = prefix ? 1 : Math.min(Math.ceil(bestScore) - 1, Math.floor(cap));
    if (bound < 0 || (!prefix && (Math.abs(cl.length - lower.length) > bound || (ascii && sharedCharacterBound(lower, cl) > bound)))) continue;
    let score = editDistance(lower, cl, bound);
    if (prefix) score = Math.min(score, 1.5);
    else if (score > bound) continue;
    if (score < bestScore) {
      bestScore = score;
      best = cand;
    }
  }
  return bestScore <= cap ? best : undefined;
}

/** "did you mean …?" text, or undefined when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const hit = closest(word, candidates);
  return hit === undefined ? undefined : `did you mean "${hit}"?`;
}

const VERSION = /^\d+(?:\.\d+)*$/;

/**
 * A suggestion for a value outside its list. Spelling distance alone can change the meaning, and
 * agents apply suggestions as they are: an operator written back to front ("=>") means the
 * reversed one (">="), not the nearest ("=="); a version newer than every known one means the
 * newest, not the nearest ("2.3" is not "2.0", which would turn every later feature into an error).
 */
export function enumSuggestion(word: string, allowed: readonly string[]): string | undefined {
  const reversed = [...word].reverse().join('');
  if (reversed !== word && allowed.includes(reversed)) return `did you mean "${reversed}"?`;
  if (VERSION.test(word) && allowed.length && allowed.every((a) => VERSION.test(a))) {
    const newest = allowed.reduce((a, b) => (compareVersions(b, a) > 0 ? b : a));
    if (compareVersions(word, newest) > 0) return `use "${newest}"`;
  }
  return didYouMean(word, allowed);
}

/**
 * The value a suggestion names, when it names one: `did you mean "tap"?`, `use "login_flow"`,
 * `use 3`. Other suggestions describe a fix in words (`add "description" to /steps/1`). The
 * viewer's quick fixes apply such a value; worded step issues quote it after their message.
 */
export function suggestedValue(suggestion: string | undefined): string | number | undefined {
  if (!suggestion) return undefined;
  const quoted = /^(?:did you mean|use) ("(?:[^"\\]|\\.)*")\??$/.exec(suggestion);
  if (quoted) {
    try {
      return JSON.parse(quoted[1]) as string;
    } catch {
      return undefined;
    }
  }
  const number = /^use (-?\d+(?:\.\d+)?)$/.exec(suggestion);
  return number ? Number(number[1]) : undefined;
}

/** Whether a suggestion says more than its message: most repeat the message's last clause (rules.ts remedyOf). */
export function suggestionAddsTo(message: string, suggestion: string | undefined): suggestion is string {
  return !!suggestion && !message.endsWith(suggestion);
}
