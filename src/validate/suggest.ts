/** One table reused by every call (suggestions are computed one at a time); grown when a word is longer. */
let table = new Int32Array(64 * 64);

/** Edit distance with adjacent transpositions counted as one edit, so "tpa" is 1 away from "tap". */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  if (table.length < rows * cols) table = new Int32Array(rows * cols);
  const d = table;
  for (let r = 0; r < rows; r++) d[r * cols] = r;
  for (let c = 0; c < cols; c++) d[c] = c;
  for (let r = 1; r < rows; r++) {
    for (let c = 1; c < cols; c++) {
      const cost = a[r - 1] === b[c - 1] ? 0 : 1;
      let best = Math.min(d[(r - 1) * cols + c] + 1, d[r * cols + c - 1] + 1, d[(r - 1) * cols + c - 1] + cost);
      if (r > 1 && c > 1 && a[r - 1] === b[c - 2] && a[r - 2] === b[c - 1]) best = Math.min(best, d[(r - 2) * cols + c - 2] + 1);
      d[r * cols + c] = best;
    }
  }
  return d[rows * cols - 1];
}

/**
 * The closest candidate, if it is close enough to be a plausible typo: at most a third of the
 * word's length in edits (min 1), or a case-only difference, or one being a prefix of the other.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const cand of candidates) {
    const cl = cand.toLowerCase();
    if (cl === lower) return cand;
    const prefix = lower.length >= 3 && (cl.startsWith(lower) || lower.startsWith(cl));
    // The distance is at least the difference in length; a candidate that cannot beat the best is skipped.
    if (!prefix && Math.abs(cl.length - lower.length) >= bestScore) continue;
    let score = editDistance(lower, cl);
    if (prefix) score = Math.min(score, 1.5);
    if (score < bestScore) {
      bestScore = score;
      best = cand;
    }
  }
  const limit = Math.max(1, Math.floor(word.length / 3));
  return bestScore <= Math.max(limit, 1.5) ? best : undefined;
}

/** "did you mean …?" text, or undefined when nothing is close. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  const hit = closest(word, candidates);
  return hit === undefined ? undefined : `did you mean "${hit}"?`;
}
