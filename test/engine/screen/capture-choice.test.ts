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
  for (let i = 0; i < 6; i++) {
    const way = clear.next();
    seen.push(way);
    clear.record(way, times[way]);
  }
  assert.equal(seen, ['raw', 'png', 'raw', 'raw', 'raw', 'raw']);
  assert.is(clear.decided, 'raw');
  const close = new CaptureChoice('auto');
  const order: string[] = [];
  const close_: Record<string, number[]> = { raw: [40, 30, 31], png: [35, 33] };
  while (!close.decided) {
    const way = close.next();
    order.push(way);
    close.record(way, close_[way].shift()!);
  }
  assert.equal(order, ['raw', 'png', 'raw', 'png', 'raw']);
  assert.is(close.decided, 'raw', 'min 30 beats min 33');
  assert.is(new CaptureChoice('png').next(), 'png');
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
  assert.is(slowDecode.calls.decode, slowDecode.capture.choice.measured.png.length);
  assert.ok(slowDecode.calls.decode >= 1);
  // With a cheap decode the PNG still wins against a slow raw capture.
  const fastDecode = await device(100, 1);
  for (let i = 0; i < 5; i++) await fastDecode.capture.capture(fit, ctx);
  assert.is(fastDecode.capture.choice.decided, 'png');
  assert.is(fastDecode.calls.decode, fastDecode.capture.choice.measured.png.length);
});

choice.run();
