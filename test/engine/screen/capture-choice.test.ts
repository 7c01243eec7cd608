import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import sharp from 'sharp';
import { setTimeout as sleep } from 'node:timers/promises';
import { CaptureChoice } from '../../../src/engine/drivers/android/capture-choice.js';
import { FittedCapture, type FittedCaptureIo } from '../../../src/engine/drivers/android/fitted-capture.js';

const choice = suite('screencap auto: raw or PNG measured per device');

choice('warm-up raw, then PNG and raw alternate; a clear winner after one each, else the faster after two each', async () => {
  const clear = new CaptureChoice('auto');
  const seen: string[] = [];
  const times: Record<string, number> = { raw: 100, png: 1500 };
  for (let i = 0; i < 200; i++) {
    const turn = clear.next();
    seen.push(turn.way);
    clear.record(turn, times[turn.way]);
  }
  // Raw won by more than 2×: the phone's slow PNG is never tried again.
  assert.equal(seen.slice(0, 3), ['raw', 'png', 'raw']);
  assert.is(seen.filter((w) => w === 'png').length, 1);
  assert.is(clear.decided, 'raw');
  const close = new CaptureChoice('auto');
  const order: string[] = [];
  const close_: Record<string, number[]> = { raw: [40, 30, 31], png: [35, 33] };
  while (!close.decided) {
    const turn = close.next();
    order.push(turn.way);
    close.record(turn, close_[turn.way].shift()!);
  }
  assert.equal(order, ['raw', 'png', 'raw', 'png', 'raw']);
  assert.is(close.decided, 'raw', 'min 30 beats min 33');
  assert.equal(new CaptureChoice('png').next(), { way: 'png', timed: false });
});

/** Runs `count` captures of `choice`, each taking what `cost` says; returns the ways taken and which were timed. */
function run(choice: CaptureChoice, count: number, cost: (way: string, n: number) => number) {
  const turns: { way: string; timed: boolean }[] = [];
  for (let n = 0; n < count; n++) {
    const turn = choice.next();
    turns.push(turn);
    choice.record(turn, cost(turn.way, n));
  }
  return turns;
}

choice('a close first call made while raw was slow (cold JIT, a busy host) is undone at the next recheck', () => {
  const c = new CaptureChoice('auto');
  // Raw's first captures are slow (70, 72 ms) against the PNG's 60: a close call for the PNG.
  const cold = run(c, 5, (way) => (way === 'png' ? 60 : 71));
  assert.is(c.decided, 'png');
  assert.equal(cold.map((t) => t.way), ['raw', 'png', 'raw', 'png', 'raw']);
  // Warm, raw takes 30 ms: within 16 captures raw is timed again and wins, for good (2× faster).
  const warm = run(c, 40, (way) => (way === 'png' ? 60 : 30));
  const firstRaw = warm.findIndex((t) => t.way === 'raw');
  assert.ok(firstRaw >= 0 && firstRaw < 16, `raw tried again at capture ${firstRaw}`);
  assert.ok(warm[firstRaw].timed, 'the recheck is timed');
  assert.is(c.decided, 'raw');
  assert.is(warm.slice(firstRaw + 2).filter((t) => t.way === 'png').length, 0, 'no PNG after raw won by 2×');
});

choice('a recheck that keeps the choice doubles the wait before the next one', () => {
  const c = new CaptureChoice('auto');
  // The PNG stays a little faster: every recheck confirms it.
  const turns = run(c, 2000, (way) => (way === 'png' ? 50 : 60));
  assert.is(c.decided, 'png');
  const rechecks = turns.map((t, n) => (t.way === 'raw' && t.timed ? n : -1)).filter((n) => n > 4);
  const gaps = rechecks.slice(1).map((n, i) => n - rechecks[i]);
  // Decided at capture 4; the 16th capture after it is the first recheck, then 32, 64, … up to 512
  // captures apart (plus the chosen way's timed turn).
  assert.is(rechecks[0], 20);
  assert.equal(gaps.slice(0, 5), [33, 65, 129, 257, 513]);
  assert.ok(gaps.slice(5).every((g) => g === 513), `gaps ${gaps.join(',')}`);
  // The timed turn after the other way's is the chosen way's, timed too (its decode is charged).
  for (const n of rechecks) assert.equal(turns[n + 1], { way: 'png', timed: true });
});

/** A 40×80 RGBA screen as raw `screencap` prints it (16-byte header, format 1 = RGBA_8888). */
function rawScreen(): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32LE(40, 0);
  header.writeUInt32LE(80, 4);
  header.writeUInt32LE(1, 8);
  return Buffer.concat([header, Buffer.alloc(40 * 80 * 4, 0xff)]);
}

/** A device whose raw capture arrives after `rawMs` and whose PNG comes at once but takes `decodeMs` to decode. */
async function device(rawMs: number, decodeMs: number) {
  const png = { png: await sharp({ create: { width: 40, height: 80, channels: 3, background: '#fff' } }).png().toBuffer(), width: 40, height: 80 };
  const calls = { decode: 0 };
  const io: FittedCaptureIo = {
    rawCommand: async () => 'screencap',
    logicalSize: async () => ({ width: 40, height: 80 }),
    logicalFor: async () => ({ width: 40, height: 80 }),
    exec: async () => (await sleep(rawMs), rawScreen()),
    stream: async (_command, _ctx, sink) => {
      await sleep(rawMs);
      sink(rawScreen());
    },
    parse: async (_ctx, _what, work) => work(),
    devicePng: async () => png,
    decode: async () => {
      calls.decode++;
      await sleep(decodeMs);
    },
  };
  return { capture: new FittedCapture('auto', io), calls };
}

choice('the PNG way is charged the decode its consumer pays, and only while the ways are compared', async () => {
  const ctx = { signal: new AbortController().signal };
  const fit = (width: number, height: number) => ({ width: width / 2, height: height / 2 });
  // Capturing the PNG costs nothing here and raw 10 ms; decoding the PNG 100 ms decides it.
  const slowDecode = await device(10, 100);
  for (let i = 0; i < 5; i++) await slowDecode.capture.capture(fit, ctx);
  assert.is(slowDecode.capture.choice.decided, 'raw');
  // Each PNG sample was decoded once (one sample when the win is clear), nothing after the choice.
  assert.is(slowDecode.calls.decode, slowDecode.capture.choice.timed.png);
  assert.ok(slowDecode.calls.decode >= 1);
  // With a cheap decode the PNG still wins against a slow raw capture.
  const fastDecode = await device(100, 1);
  for (let i = 0; i < 5; i++) await fastDecode.capture.capture(fit, ctx);
  assert.is(fastDecode.capture.choice.decided, 'png');
  assert.is(fastDecode.calls.decode, fastDecode.capture.choice.timed.png);
});

choice.run();
