import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ScreenCapture } from '../../../src/engine/screen/capture.js';
import { LatestCaptures, REMEMBERED_DEVICES } from '../../../src/engine/screen/latest-capture.js';

const cap = (n: number): ScreenCapture => ({ raw: { data: Buffer.from([n, n, n, 255]), width: 1, height: 1, channels: 4 }, width: 1, height: 1 });

const test = suite('latest captures: reused only while current and young');

test('a capture is handed out until it is older than the bound', () => {
  let now = 1000;
  const latest = new LatestCaptures(200, () => now);
  const started = latest.begin('d');
  now += 30;
  latest.store('d', cap(1), started);
  assert.ok(latest.fresh('d'));
  now = 1000 + 201;
  assert.is(latest.fresh('d'), undefined, 'older than 200 ms from its start');
  assert.is(latest.fresh('other'), undefined);
});

test('a change on the device (before or during a capture) makes it stale; other devices keep theirs', () => {
  let now = 0;
  const latest = new LatestCaptures(200, () => now);
  latest.store('d', cap(1), latest.begin('d'));
  latest.store('e', cap(2), latest.begin('e'));
  latest.invalidate('d');
  assert.is(latest.fresh('d'), undefined, 'invalidated after it was stored');
  assert.ok(latest.fresh('e'));
  // A capture that began before a change and ended after it is never kept.
  const during = latest.begin('d');
  latest.invalidate('d');
  now += 10;
  latest.store('d', cap(3), during);
  assert.is(latest.fresh('d'), undefined);
  // An older capture finishing late does not replace a newer one.
  const older = latest.begin('d');
  now += 5;
  const newer = latest.begin('d');
  latest.store('d', cap(4), newer);
  latest.store('d', cap(5), older);
  assert.is(latest.fresh('d')!.raw!.data[0], 4);
  assert.equal(latest.stats, { stored: 3, reused: 2 });
});

test('a pooled capture goes back to its driver only after the frame loop, the cache and every screenshot let go', () => {
  let now = 0;
  const latest = new LatestCaptures(200, () => now);
  let released = 0;
  const pooled: ScreenCapture = { raw: { data: Buffer.alloc(4), width: 1, height: 1, channels: 4, release: () => released++ }, width: 1, height: 1 };
  const forLoop = latest.store('d', pooled, latest.begin('d'));
  const shot = latest.fresh('d');
  forLoop.raw?.release?.();
  forLoop.raw?.release?.();
  assert.is(released, 0, 'the cache and the screenshot still hold it');
  latest.invalidate('d');
  assert.is(released, 0, 'the screenshot still reads it');
  shot?.raw?.release?.();
  assert.is(released, 1, 'released once, by the last holder');
  // Not kept (stale epoch): the caller's capture is returned untouched.
  const stale = latest.begin('d');
  latest.invalidate('d');
  assert.is(latest.store('d', pooled, stale), pooled);
});

test('ids told to invalidate are remembered up to a bound, and forgetting one never lets a stale capture through', () => {
  let now = 0;
  const latest = new LatestCaptures(200, () => now);
  // Begun before a change on 'd', finished after 'd' was forgotten among mistyped or gone ids.
  const before = latest.begin('d');
  latest.invalidate('d');
  for (let n = 0; n < REMEMBERED_DEVICES * 3; n++) latest.invalidate(`gone-${n}`);
  const remembered = (latest as unknown as { epochs: { size: number } }).epochs.size;
  assert.ok(remembered <= REMEMBERED_DEVICES, `${remembered} ids kept`);
  now += 10;
  latest.store('d', cap(1), before);
  assert.is(latest.fresh('d'), undefined, 'begun before the change: never kept');
  // A capture begun now is kept and reused as before.
  latest.store('d', cap(2), latest.begin('d'));
  assert.ok(latest.fresh('d'));
  // So is one on a device that was never invalidated.
  latest.store('fresh', cap(3), latest.begin('fresh'));
  assert.ok(latest.fresh('fresh'));
});

test.run();
