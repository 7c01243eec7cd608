/** Pixels row after row, as sharp's `raw` input describes them. */
export interface PixelBuffer {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/**
 * Averages each 2×2 block of RGBA pixels into one opaque RGB pixel (alpha dropped, as sharp's
 * removeAlpha does); an odd last column or row is left out. The alpha strip and the shrink in
 * one pass over the source: ~9 ms for a 1080×2400 screen, where sharp's removeAlpha pass and its
 * lanczos3 resize cost ~25–40 ms together, and for screen content (text, flat areas) a box keeps
 * glyph strokes readable. Larger shrinks halve first and let sharp resize the 4× smaller rest.
 */
export function halveRgbaToRgb(src: PixelBuffer, into?: Buffer): PixelBuffer {
  const { data, width, height, channels } = src;
  if (channels !== 4) throw new RangeError(`halveRgbaToRgb takes RGBA pixels, got ${channels} channels`);
  if (data.length < width * height * 4) throw new RangeError(`halveRgbaToRgb: ${data.length} bytes do not hold ${width}x${height} RGBA pixels`);
  if (data.byteOffset % 4 !== 0) throw new RangeError('halveRgbaToRgb reads whole pixels as 32-bit words: the buffer must start on a 4-byte boundary');
  const ow = width >> 1;
  const oh = height >> 1;
  if (ow === 0 || oh === 0) throw new RangeError(`halveRgbaToRgb: ${width}x${height} is smaller than one 2x2 block`);
  if (into && into.length < ow * oh * 3) throw new RangeError(`halveRgbaToRgb: ${into.length} bytes do not hold ${ow}x${oh} RGB pixels`);
  // Never from Buffer's shared pool: the worker hands the result back by transferring its memory.
  const out = into ? into.subarray(0, ow * oh * 3) : Buffer.allocUnsafeSlow(ow * oh * 3);
  const words = new Uint32Array(data.buffer, data.byteOffset, width * 2 * oh);
  // Two channels at a time: masking a pixel word with 0x00ff00ff leaves R and B in separate 16-bit
  // lanes, so four pixels' sums never carry into each other (4 × 255 + 2 < 65536). Words are
  // little-endian (R in the low byte) on every platform Node ships on.
  let o = 0;
  for (let y = 0; y < oh; y++) {
    let a = 2 * y * width;
    let b = a + width;
    for (let x = 0; x < ow; x++, a += 2, b += 2) {
      const p = words[a];
      const q = words[a + 1];
      const r = words[b];
      const s = words[b + 1];
      // + 2 per lane rounds to nearest when >> 2 divides by four.
      const rb = (p & 0xff00ff) + (q & 0xff00ff) + (r & 0xff00ff) + (s & 0xff00ff) + 0x20002;
      const g = ((p >>> 8) & 0xff) + ((q >>> 8) & 0xff) + ((r >>> 8) & 0xff) + ((s >>> 8) & 0xff) + 2;
      out[o] = (rb >>> 2) & 0xff;
      out[o + 1] = g >>> 2;
      out[o + 2] = rb >>> 18;
      o += 3;
    }
  }
  return { data: out, width: ow, height: oh, channels: 3 };
}
