import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { coerce, compare, interpolate, shard } from '../../src/engine/runner/index.js';

test('interpolation replaces ${name}, keeps $${ literal, and refuses unknown or empty variables', () => {
  assert.is(interpolate('Item ${n} of $${total}', { n: 3 }), 'Item 3 of ${total}');
  assert.throws(() => interpolate('${missing}', {}), /not a declared variable/);
  assert.throws(() => interpolate('${n}', { n: null }), /no value yet/);
});

test('captured text is coerced to the declared type', () => {
  assert.is(coerce('Total: 1,234.50', { type: 'number', description: '' }, 'total'), 1234.5);
  assert.is(coerce('42 items', { type: 'integer', description: '' }, 'count'), 42);
  assert.throws(() => coerce('1.5 kg', { type: 'integer', description: '' }, 'count'), /not a whole number/);
  assert.throws(() => coerce('none', { type: 'number', description: '' }, 'count'), /holds no number/);
  assert.is(coerce('Yes', { type: 'boolean', description: '' }, 'flag'), true);
  assert.is(coerce('off', { type: 'boolean', description: '' }, 'flag'), false);
  assert.is(coerce(' as is ', undefined, 's'), ' as is ');
});

test('comparison: numbers, dotted versions, text and booleans', () => {
  assert.ok(compare(10, '>', 9));
  assert.ok(compare('17.10', '>', '17.5', 'version'));
  assert.ok(compare('1.5', '>', '1.25'));
  assert.ok(compare('10.0.1', '>', '9.3.2'));
  assert.ok(compare('Android', '==', 'android'));
  assert.ok(compare(true, '==', 'true'));
  assert.not.ok(compare(2, '<', 2));
  assert.ok(compare('14', '>=', 14));
});

test('shards take every n-th item and reject bad slices', () => {
  assert.equal(shard([1, 2, 3, 4, 5], 2, 2), [2, 4]);
  assert.equal(shard([1, 2, 3, 4, 5], 1, 3), [1, 4]);
  assert.throws(() => shard([1], 3, 2), /1 ≤ i ≤ n/);
});

test.run();
