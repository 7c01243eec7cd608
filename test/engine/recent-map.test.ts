import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RecentMap } from '../../src/engine/recent-map.js';

test('drops the least recently used entry once over capacity', () => {
  const m = new RecentMap<string, number>(2);
  m.set('a', 1);
  m.set('b', 2);
  assert.is(m.get('a'), 1); // a is now more recent than b
  m.set('c', 3);
  assert.is(m.size, 2);
  assert.is(m.get('b'), undefined);
  assert.is(m.get('a'), 1);
  assert.is(m.get('c'), 3);
});

test('setting a known key replaces it without growing and counts as a use', () => {
  const m = new RecentMap<string, number>(2);
  m.set('a', 1);
  m.set('b', 2);
  m.set('a', 10);
  m.set('c', 3);
  assert.is(m.size, 2);
  assert.is(m.get('a'), 10);
  assert.is(m.get('b'), undefined);
});

test('delete removes; a capacity below one is refused', () => {
  const m = new RecentMap<string, number>(1);
  m.set('a', 1);
  assert.ok(m.delete('a'));
  assert.not.ok(m.delete('a'));
  assert.is(m.size, 0);
  assert.throws(() => new RecentMap(0), /at least 1/);
});

test.run();
