import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { graphemeCount } from '../../src/engine/text-length.js';

/** What the counter must agree with: ICU over the whole text at once. */
function segmented(text: string): number {
  return [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].length;
}

// Clusters whose parts a careless cut would count twice, and plain characters around them.
const PIECES = [
  'a', 'Z', '7', ' ', '.', '日', 'ß', 'é', 'e\u0301', '\r\n', '\n', '👍🏽', '👨‍👩‍👧‍👦', '🇫🇷', '🇩🇪', '1️⃣', '한', '\u1100\u1161\u11A8',
  'क्ष', 'क्\u200Dष', 'நி', 'ก่', '\u0D4Eമ', '\u0600١', '✌️', '😀', 'x\u200Dy', '\u200D', '\u0301',
];

/** A long text from the pieces in a fixed pseudo-random order, so the 1024-unit cuts land everywhere. */
function mixed(length: number, seed: number): string {
  let s = seed;
  let out = '';
  while (out.length < length) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    out += PIECES[s % PIECES.length];
  }
  return out;
}

test('long texts are counted as ICU counts them whole, wherever the pieces are cut', () => {
  for (let seed = 1; seed <= 12; seed++) {
    const text = mixed(6000 + seed * 97, seed);
    assert.is(graphemeCount(text), segmented(text), `seed ${seed}`);
  }
});

test('texts of one kind: no plain boundary to cut at, or nothing but them', () => {
  for (const text of ['🇫🇷'.repeat(1500), '👨‍👩‍👧‍👦'.repeat(400), 'e\u0301'.repeat(2000), '日'.repeat(5000), 'a'.repeat(5000), '한'.repeat(3000), '\r\n'.repeat(2000)]) {
    assert.is(graphemeCount(text), segmented(text), JSON.stringify(text.slice(0, 8)));
  }
});

test('short texts and the empty one', () => {
  assert.is(graphemeCount(''), 0);
  assert.is(graphemeCount('👍🏽 ok'), 4);
  assert.is(graphemeCount('🇫🇷🇩🇪'), 2);
});

test('a 90 000-character paste is counted (was seconds per count: each step of the segment iterator costs the whole text)', () => {
  const text = `${'日'.repeat(90_000)}😀`;
  assert.is(graphemeCount(text), 90_001);
});

test.run();
