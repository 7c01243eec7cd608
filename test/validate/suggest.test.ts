/**
 * `closest` stops computing a candidate's distance once it cannot be suggested; its answers must be
 * those of the plain rule (smallest distance within a third of the word, prefixes at 1.5).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { closest, editDistance } from '../../src/validate/suggest.js';
import { ACTIONS, ASSERTION_TYPES } from '../../src/validate/vocabulary.js';

function plainClosest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestScore = Infinity;
  for (const cand of candidates) {
    const cl = cand.toLowerCase();
    if (cl === lower) return cand;
    const prefix = lower.length >= 3 && (cl.startsWith(lower) || lower.startsWith(cl));
    const score = prefix ? Math.min(editDistance(lower, cl), 1.5) : editDistance(lower, cl);
    if (score < bestScore) {
      bestScore = score;
      best = cand;
    }
  }
  return bestScore <= Math.max(Math.max(1, Math.floor(word.length / 3)), 1.5) ? best : undefined;
}

test('bounded distances: exact within the bound, bound + 1 beyond it', () => {
  assert.is(editDistance('tpa', 'tap'), 1);
  assert.is(editDistance('kitten', 'sitting'), 3);
  assert.is(editDistance('kitten', 'sitting', 2), 3);
  assert.is(editDistance('kitten', 'sitting', 3), 3);
  assert.is(editDistance('element_exists', 'dark_mode_active', 1), 2);
});

test('closest gives what the plain rule gives, over 20,000 mangled names', () => {
  let seed = 11;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
  const lists: readonly (readonly string[])[] = [ACTIONS, ASSERTION_TYPES, ['up', 'down', 'left', 'right'], ['BACK', 'HOME', 'ENTER'], ['step_1', 'step_2', 'launch', 'x']];
  const letters = 'abcdeilnoprstu_AB';
  let suggested = 0;
  for (let i = 0; i < 20000; i++) {
    const list = lists[rnd(lists.length)];
    let word = list[rnd(list.length)];
    for (let k = rnd(6); k > 0; k--) {
      const at = rnd(word.length + 1);
      const ch = letters[rnd(letters.length)];
      const op = rnd(3);
      word = op === 0 ? word.slice(0, at) + ch + word.slice(at) : op === 1 ? word.slice(0, at) + word.slice(at + 1) : word.slice(0, at) + ch + word.slice(at + 1);
    }
    const expected = plainClosest(word, list);
    if (expected) suggested++;
    assert.is(closest(word, list), expected, word);
  }
  assert.ok(suggested > 5000, `only ${suggested} words got a suggestion: the comparison proves little`);
});

test.run();
