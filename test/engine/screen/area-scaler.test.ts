import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ScreencapStream } from '../../../src/engine/drivers/android/screencap-stream.js';
import { rgbaFrom565 } from '../../../src/engine/drivers/android/screencap.js';
import { AreaScaler } from '../../../src/engine/screen/area-scaler.js';

function noise(bytes: number, seed = 1): Buffer {
  const b = Buffer.alloc(bytes);
  for (let i = 0, x = seed; i < bytes; i++) b[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
  return b;
}

/** Exact area average in floating point: the reference the integer scaler must stay within three levels of (7-bit weights). */
function reference(src: Buffer, sw: number, sh: number, dw: number, dh: number, order: 'rgba' | 'bgra'): Float64Array {
  const out = new Float64Array(dw * dh * 3);
  const sx = sw / dw;
  const sy = sh / dh;
  const channel = order === 'bgra' ? [2, 1, 0] : [0, 1, 2];
  for (let oy = 0; oy < dh; oy++) {
    for (let ox = 0; ox < dw; ox++) {
      for (let c = 0; c < 3; c++) {
        let sum = 0;
        let area = 0;
        for (let y = Math.floor(oy * sy); y < Math.min(sh, Math.ceil((oy + 1) * sy)); y++) {
          for (let x = Math.floor(ox * sx); x < Math.min(sw, Math.ceil((ox + 1) * sx)); x++) {
            const w = (Math.min(x + 1, (ox + 1) * sx) - Math.max(x, ox * sx)) * (Math.min(y + 1, (oy + 1) * sy) - Math.max(y, oy * sy));
            sum += w * src[(y * sw + x) * 4 + channel[c]];
            area += w;
          }
        }
        out[(oy * dw + ox) * 3 + c] = sum / area;
      }
    }
  }
  return out;
}

function scale(src: Buffer, sw: number, sh: number, dw: number, dh: number, chunk: number, order: 'rgba' | 'bgra' = 'rgba'): AreaScaler {
  const s = new AreaScaler(sw, sh, dw, dh, order);
  for (let at = 0; at < src.length; at += chunk) s.push(src.subarray(at, at + chunk));
  return s;
}

const area = suite('area scaler: screens shrunk while they arrive');

area('an exact 2× shrink is the mean of each 2×2 block, rounded half up, exactly (its own loop), any chunking, RGBA and BGRA', () => {
  const [sw, sh] = [110, 64];
  const src = noise(sw * sh * 4, 7);
  for (const order of ['rgba', 'bgra'] as const) {
    const channel = order === 'bgra' ? [2, 1, 0] : [0, 1, 2];
    for (const chunk of [1, 4093, sw * 4, src.length]) {
      const s = scale(src, sw, sh, sw / 2, sh / 2, chunk, order);
      for (let y = 0; y < sh / 2; y++) {
        for (let x = 0; x < sw / 2; x++) {
          for (let c = 0; c < 3; c++) {
            let sum = 0;
            for (const [dy, dx] of [[0, 0], [0, 1], [1, 0], [1, 1]]) sum += src[((2 * y + dy) * sw + 2 * x + dx) * 4 + channel[c]];
            assert.is(s.out[(y * (sw / 2) + x) * 3 + c], (sum + 2) >> 2, `${order} chunk ${chunk} (${x}, ${y}) channel ${c}`);
          }
        }
      }
    }
  }
});

area('within one level of the exact area average, for shrinks below and above 2×, any chunking, RGBA and BGRA', () => {
  const cases: [number, number, number, number][] = [[108, 240, 57, 128], [108, 240, 54, 120], [100, 37, 31, 11], [64, 64, 64, 64], [90, 200, 20, 44]];
  for (const [sw, sh, dw, dh] of cases) {
    const src = noise(sw * sh * 4, sw + dh);
    for (const order of ['rgba', 'bgra'] as const) {
      const want = reference(src, sw, sh, dw, dh, order);
      for (const chunk of [1, 4093, sw * 4, src.length]) {
        const s = scale(src, sw, sh, dw, dh, chunk, order);
        assert.ok(s.done, `${sw}×${sh} → ${dw}×${dh} complete`);
        let worst = 0;
        for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(want[i] - s.out[i]));
        assert.ok(worst <= 3, `${sw}×${sh} → ${dw}×${dh} ${order} chunk ${chunk}: off by ${worst}`);
      }
    }
  }
});

area('rows that start off a 4-byte boundary are read correctly', () => {
  const src = noise(40 * 30 * 4);
  const shifted = Buffer.alloc(src.length + 1).subarray(1);
  src.copy(shifted);
  assert.ok(scale(shifted, 40, 30, 13, 10, 999).out.equals(scale(src, 40, 30, 13, 10, 999).out));
});

area('refuses to grow an image, and more bytes than the frame holds', () => {
  assert.throws(() => new AreaScaler(10, 10, 11, 10), /only shrinks/);
  const s = new AreaScaler(2, 2, 1, 1);
  assert.throws(() => s.push(Buffer.alloc(17)), /more pixel data/);
});

area.run();

const stream = suite('raw screencap streamed and shrunk');

function screencap(width: number, height: number, format: number, headerSize: 12 | 16, pixels: Buffer): Buffer {
  const header = Buffer.alloc(headerSize);
  header.writeUInt32LE(width, 0);
  header.writeUInt32LE(height, 4);
  header.writeUInt32LE(format, 8);
  if (headerSize === 16) header.writeUInt32LE(1, 12);
  return Buffer.concat([header, pixels]);
}

const fitHalf = (w: number, h: number) => ({ width: Math.floor(w / 2), height: Math.floor(h / 2) });

stream('12- and 16-byte headers, BGRA swapped, the screen size is the logical (wm size) one', () => {
  const pixels = noise(40 * 80 * 4);
  for (const headerSize of [12, 16] as const) {
    const s = new ScreencapStream(headerSize, { width: 40, height: 80 }, fitHalf);
    const out = screencap(40, 80, 5, headerSize, pixels);
    for (let at = 0; at < out.length; at += 7) s.push(out.subarray(at, at + 7));
    const got = s.finish();
    assert.equal([got.shrunk.width, got.shrunk.height, got.screenWidth, got.screenHeight], [20, 40, 40, 80]);
    assert.ok(got.shrunk.data.equals(scale(pixels, 40, 80, 20, 40, pixels.length, 'bgra').out));
  }
  // A panel larger than the logical size (wm size override): shrunk to the fit of the logical size.
  const s = new ScreencapStream(16, { width: 20, height: 40 }, fitHalf);
  s.push(screencap(40, 80, 1, 16, pixels));
  const got = s.finish();
  assert.equal([got.shrunk.width, got.shrunk.height, got.screenWidth, got.screenHeight], [10, 20, 20, 40]);
});

stream('RGB_565 frames are widened to RGBA on the way, pixels split across chunks included; other formats are named, not read', () => {
  const wide = noise(40 * 80 * 4);
  for (let i = 3; i < wide.length; i += 4) wide[i] = 255;
  const packed = Buffer.alloc(40 * 80 * 2);
  for (let p = 0; p < 40 * 80; p++) packed.writeUInt16LE(((wide[p * 4] >> 3) << 11) | ((wide[p * 4 + 1] >> 2) << 5) | (wide[p * 4 + 2] >> 3), p * 2);
  const s = new ScreencapStream(16, { width: 40, height: 80 }, fitHalf);
  const out = screencap(40, 80, 4, 16, packed);
  // Odd chunk sizes: a pixel's two bytes arrive in different chunks.
  for (let at = 0; at < out.length; at += 1001) s.push(out.subarray(at, at + 1001));
  const got = s.finish();
  assert.equal([got.shrunk.width, got.shrunk.height, got.screenWidth, got.screenHeight], [20, 40, 40, 80]);
  assert.ok(got.shrunk.data.equals(scale(rgbaFrom565(packed), 40, 80, 20, 40, 40 * 80 * 4, 'rgba').out));
  const cut = new ScreencapStream(16, { width: 40, height: 80 }, fitHalf);
  cut.push(out.subarray(0, out.length - 1));
  assert.throws(() => cut.finish(), /does not hold a 40×80 frame/);
  const fp16 = new ScreencapStream(16, { width: 40, height: 80 }, fitHalf);
  fp16.push(screencap(40, 80, 22, 16, noise(40 * 80 * 8)));
  assert.match(String(fp16.unreadable), /pixel format 22 \(RGBA_FP16\)/);
  assert.throws(() => fp16.finish(), /RGBA_FP16/);
});

stream('an error printed instead of a frame, a cut-off frame and a wrong header size fail with what happened', () => {
  const printed = new ScreencapStream(16, { width: 40, height: 80 }, fitHalf);
  printed.push(Buffer.from('/system/bin/sh: screencap: inaccessible or not found\n'));
  assert.throws(() => printed.finish(), /printed no frame: \/system\/bin\/sh: screencap: inaccessible/);
  const cut = new ScreencapStream(16, { width: 40, height: 80 }, fitHalf);
  cut.push(screencap(40, 80, 1, 16, noise(40 * 80 * 4)).subarray(0, 5000));
  assert.throws(() => cut.finish(), /5000 bytes does not hold a 40×80 frame/);
  const wrong = new ScreencapStream(16, { width: 40, height: 80 }, fitHalf);
  wrong.push(screencap(40, 80, 1, 12, noise(40 * 80 * 4)));
  assert.throws(() => wrong.finish(), /16-byte header/);
});

stream.run();
