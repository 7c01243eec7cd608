import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { VideoPacket } from '../../src/engine/driver.js';
import { GopCache } from '../../src/bridge/gop-cache.js';

const test = suite('GOP cache');

const packet = (kind: 'config' | 'key' | 'delta', bytes: number): VideoPacket => ({
  data: Buffer.alloc(bytes, kind === 'config' ? 1 : kind === 'key' ? 2 : 3),
  config: kind === 'config',
  key: kind === 'key',
  capturedAt: 0,
  width: 540,
  height: 1200,
});

test('holds the last configuration, the last key frame and every frame since', () => {
  const cache = new GopCache(1000);
  const config = packet('config', 10);
  assert.ok(cache.push(packet('delta', 50)), 'a delta before any key frame is ignored');
  assert.is(cache.frames, 0);
  cache.push(config);
  const key = packet('key', 100);
  cache.push(key);
  const d1 = packet('delta', 20);
  const d2 = packet('delta', 20);
  cache.push(d1);
  cache.push(d2);
  assert.equal(cache.snapshot(), [key, d1, d2]);
  assert.is(cache.configFor(key), config);
  assert.is(cache.configFor(d1), undefined, 'configuration only goes before key frames');
  assert.is(cache.bytes, 150);
  const key2 = packet('key', 80);
  cache.push(key2);
  assert.equal(cache.snapshot(), [key2], 'a new key frame starts a new group');
});

test('a new configuration drops the group encoded for the old one: a viewer joining before the next key frame waits for it', () => {
  const cache = new GopCache(1000);
  cache.push(packet('config', 10));
  cache.push(packet('key', 100));
  cache.push(packet('delta', 20));
  const rotated = { ...packet('config', 12), width: 1200, height: 540 };
  cache.push(rotated);
  assert.equal(cache.snapshot(), [], 'no old-size key frame behind the new SPS');
  assert.ok(cache.push(packet('delta', 20)), 'and no delta without its key frame');
  assert.is(cache.frames, 0);
  const key = { ...packet('key', 90), width: 1200, height: 540 };
  cache.push(key);
  assert.equal(cache.snapshot(), [key]);
  assert.is(cache.configFor(key), rotated);
});

test('past its byte budget the group is dropped (the caller asks for a key frame), never grown', () => {
  const cache = new GopCache(300);
  cache.push(packet('config', 10));
  cache.push(packet('key', 200));
  assert.ok(cache.push(packet('delta', 90)));
  assert.not.ok(cache.push(packet('delta', 20)), 'overflow is reported');
  assert.is(cache.frames, 0);
  assert.ok(cache.bytes <= 300);
  assert.ok(cache.push(packet('delta', 20)), 'deltas without their key frame are not kept');
  assert.is(cache.frames, 0);
  assert.not.ok(cache.push(packet('key', 400)), 'a key frame bigger than the budget is not kept either');
  assert.is(cache.frames, 0);
});

test.run();
