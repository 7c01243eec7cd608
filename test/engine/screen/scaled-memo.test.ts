import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FittedCapture } from '../../../src/engine/screen/capture.js';
import { scaleCapture, type ScaledShot, type ScaleOptions } from '../../../src/engine/screen/scale.js';
import { ScaledMemo } from '../../../src/engine/screen/scaled-memo.js';

const memo = suite('scaled screenshots by the bytes they came from');

async function png(width: number, height: number, marker = 0): Promise<FittedCapture> {
  const data = Buffer.alloc(width * height * 3, 200);
  data[0] = marker;
  return { encoded: await sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer(), width, height };
}

/** scaleCapture, counting its calls. */
function counting(): { calls: number; compute: (cap: FittedCapture, o?: ScaleOptions) => Promise<ScaledShot> } {
  const c = { calls: 0, compute: (cap: FittedCapture, o?: ScaleOptions) => (c.calls++, scaleCapture(cap, o)) };
  return c;
}

memo('the same PNG and options are scaled once; a changed pixel, other options or other sizes are not reused', async () => {
  const m = new ScaledMemo();
  const c = counting();
  const first = await m.scale(await png(400, 800), { maxSize: 200 }, c.compute);
  const again = await m.scale(await png(400, 800), { maxSize: 200 }, c.compute);
  assert.is(c.calls, 1);
  assert.is(m.hits, 1);
  assert.equal(again, first);
  await m.scale(await png(400, 800, 1), { maxSize: 200 }, c.compute);
  await m.scale(await png(400, 800), { maxSize: 300 }, c.compute);
  await m.scale(await png(400, 800), { maxSize: 200, format: 'png' }, c.compute);
  const other = await png(400, 800);
  await m.scale({ ...other, width: 200, height: 400 }, { maxSize: 200 }, c.compute);
  assert.is(c.calls, 5);
});

memo('results are the caller\'s own; old screens leave the memo; raw pixels are never hashed', async () => {
  const m = new ScaledMemo();
  const c = counting();
  const a = await m.scale(await png(100, 200), {}, c.compute);
  a.data = 'changed by the caller';
  assert.is.not((await m.scale(await png(100, 200), {}, c.compute)).data, 'changed by the caller');
  for (let i = 1; i <= 4; i++) await m.scale(await png(100, 200, i), {}, c.compute);
  await m.scale(await png(100, 200), {}, c.compute);
  assert.is(c.calls, 6, 'the first screen was pushed out by four newer ones');
  const raw: FittedCapture = { raw: { data: Buffer.alloc(100 * 200 * 3), width: 100, height: 200, channels: 3 }, width: 100, height: 200 };
  await m.scale(raw, {}, c.compute);
  await m.scale(raw, {}, c.compute);
  assert.is(c.calls, 8);
});

memo.run();
