import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { halveRgbaToRgb } from '../../src/bridge/downscale.js';
import { Shrinker } from '../../src/bridge/shrinker.js';
import { ANDROID, RawClient, sleep, testBridge, until } from './helpers.js';

const test = suite('frame downscaler');

/** 5×3 RGBA, every byte distinct, alpha varied (it must not leak into the result). */
function sample(): Buffer {
  const px: number[] = [];
  for (let i = 0; i < 5 * 3; i++) px.push((i * 17) % 256, (i * 29 + 7) % 256, 255 - ((i * 13) % 256), (i * 41) % 256);
  return Buffer.from(px);
}

test('halves by averaging 2×2 blocks, rounded to nearest, alpha dropped, odd last column and row left out', () => {
  const out = halveRgbaToRgb({ data: sample(), width: 5, height: 3, channels: 4 });
  assert.equal([out.width, out.height, out.channels], [2, 1, 3]);
  // Blocks: pixels (0,1,5,6) and (2,3,7,8) of the 5-wide image; e.g. R of the first:
  // 0, 17, 85, 102 → 204 / 4 = 51; G: 7, 36, 152, 181 → 376 / 4 = 94; B: 255, 242, 190, 177 → 864 / 4 = 216.
  assert.equal([...out.data], [51, 94, 216, 85, 152, 190]);
});

test('rounds halves up: a block summing to 4n + 2 gives n + 1', () => {
  const px = Buffer.from([0, 0, 0, 255, 1, 1, 1, 255, 0, 0, 0, 255, 1, 1, 1, 255]);
  assert.equal([...halveRgbaToRgb({ data: px, width: 2, height: 2, channels: 4 }).data], [1, 1, 1]);
  const full = Buffer.alloc(16, 255);
  assert.equal([...halveRgbaToRgb({ data: full, width: 2, height: 2, channels: 4 }).data], [255, 255, 255]);
});

test('refuses what it cannot read, saying why', () => {
  assert.throws(() => halveRgbaToRgb({ data: Buffer.alloc(12), width: 2, height: 2, channels: 3 }), /RGBA/);
  assert.throws(() => halveRgbaToRgb({ data: Buffer.alloc(8), width: 2, height: 2, channels: 4 }), /do not hold 2x2/);
  assert.throws(() => halveRgbaToRgb({ data: Buffer.alloc(17).subarray(1), width: 2, height: 2, channels: 4 }), /4-byte boundary/);
  assert.throws(() => halveRgbaToRgb({ data: Buffer.alloc(4), width: 1, height: 1, channels: 4 }), /smaller than one 2x2 block/);
});

test('the worker thread gives the same pixels, also from an unaligned buffer, and leaves the source intact', async () => {
  const shrinker = new Shrinker();
  try {
    const src = sample();
    const unaligned = Buffer.concat([Buffer.alloc(1), src]).subarray(1);
    const copy = Buffer.from(src);
    const [a, b] = await Promise.all([shrinker.halve({ data: src, width: 5, height: 3, channels: 4 }), shrinker.halve({ data: unaligned, width: 5, height: 3, channels: 4 })]);
    assert.equal([...a.data], [51, 94, 216, 85, 152, 190]);
    assert.equal([...b.data], [...a.data]);
    assert.ok(src.equals(copy), 'the caller keeps its pixels');
    // Another size after the first (a rotated screen) gets its own shared buffer.
    const other = await shrinker.halve({ data: Buffer.alloc(4 * 4 * 4, 200), width: 4, height: 4, channels: 4 });
    assert.equal([other.width, other.height, other.data[0]], [2, 2, 200]);
  } finally {
    await shrinker.close();
  }
});

test('a screen still being halved fails with a clear message when the downscaler closes', async () => {
  const shrinker = new Shrinker();
  const outcome = shrinker.halve({ data: Buffer.alloc(1080 * 2400 * 4), width: 1080, height: 2400, channels: 4 }).then(
    () => undefined,
    (err: Error) => err,
  );
  await shrinker.close();
  assert.match((await outcome)?.message ?? 'the job succeeded', /downscaler was closed/);
});

test('a 540 px frame of the virtual phone is its screen halved by the box', async () => {
  const { bridge }: { bridge: Bridge } = await testBridge();
  const c = await RawClient.open(bridge.wsUrl);
  try {
    await c.call('devices.subscribe', { device: ANDROID, screen: { maxWidth: 540, format: 'png' } });
    // A cold renderer thread (started on demand, ended after 15 s idle) loads sharp and draws every tile first.
    const frame = await until('a frame', () => c.frames[0], 15_000);
    assert.equal([frame.header.width, frame.header.height], [540, 1200]);
    // The status bar clock may turn a minute between the frame and the screenshot (a cold thread
    // takes seconds for its first frame): then the newest frame is compared with a new screenshot.
    let same = false;
    for (let attempt = 0; attempt < 3 && !same; attempt++) {
      if (attempt > 0) await sleep(500);
      const shot = await c.call('tools.call', { tool: 'mobile_take_screenshot', parameters: { device: ANDROID } });
      const rgba = await sharp(Buffer.from(shot.image as string, 'base64')).ensureAlpha().raw().toBuffer();
      const expected = halveRgbaToRgb({ data: rgba, width: 1080, height: 2400, channels: 4 });
      const got = await sharp(c.frames[c.frames.length - 1].image).removeAlpha().raw().toBuffer();
      same = got.equals(expected.data);
    }
    assert.ok(same, 'lossless frame pixels equal the box-halved screenshot');
  } finally {
    await c.close();
    await bridge.close();
  }
});

test.run();
