/**
 * Shrinks 4-byte pixels (RGBA, RGBX or BGRA) to opaque RGB by area averaging, fed row bytes as
 * they arrive: a screen coming off adb is scaled while the rest is still on the wire, and the
 * full-size frame (10 MB at 1080×2400) is never held. Each output pixel is the mean of the source
 * area it covers (fractional edges weighted by overlap), the filter that keeps thin glyph strokes
 * of screen text readable without ringing. Integer weights: 7 bits per direction (an output
 * level is at most 3 of 255 off exact area averaging, on noise; far below what JPEG changes).
 */

// 7 bits: a horizontal sum of red and blue then fits 16-bit lanes of one 32-bit word (255 × 128 < 2^16).
const WEIGHT_BITS = 7;
const ONE = 1 << WEIGHT_BITS;
const ROUND = 1 << (2 * WEIGHT_BITS - 1);

export type PixelOrder = 'rgba' | 'bgra';

/**
 * Per output cell, the source cells it covers and their weights (summing to exactly ONE): built
 * from the rounded cumulative coverage, so the rounding errors of neighbouring taps cancel.
 */
function taps(src: number, dst: number): { first: Int32Array; count: Int32Array; weights: Int32Array } {
  const scale = src / dst;
  const first = new Int32Array(dst);
  const count = new Int32Array(dst);
  const weights: number[] = [];
  for (let o = 0; o < dst; o++) {
    const start = o * scale;
    const end = Math.min(src, (o + 1) * scale);
    const lo = Math.floor(start);
    const hi = Math.min(src, Math.ceil(end - 1e-9));
    const covered = (x: number) => Math.round((ONE * (Math.min(Math.max(x, start), end) - start)) / (end - start));
    first[o] = lo;
    count[o] = hi - lo;
    for (let s = lo; s < hi; s++) weights.push(covered(s + 1) - covered(s));
  }
  return { first, count, weights: Int32Array.from(weights) };
}

export class AreaScaler {
  /** Output pixels, RGB; complete once every source row has been pushed. */
  readonly out: Buffer;
  private readonly rowBytes: number;
  private readonly partial: Buffer;
  private partialFill = 0;
  private row = 0;
  private readonly hFirst: Int32Array;
  private readonly hCount: Int32Array;
  private readonly hWeights: Int32Array;
  /** Per source row: the output row it starts in, its weight there, and its weight in the next one (0 unless it straddles both). */
  private readonly vRow: Int32Array;
  private readonly vWeight: Int32Array;
  private readonly vWeightNext: Int32Array;
  private readonly hRow: Int32Array;
  private acc: Int32Array;
  private nextAcc: Int32Array;
  /** Byte of a pixel word that holds red: 0 for RGBA/RGBX, 2 for BGRA. */
  private readonly red: number;
  private readonly aligned: Uint8Array;
  private readonly taps3?: Int32Array;
  /** Output pixels whose three taps all lie inside the row (weighRow3). */
  private readonly inner3: number = 0;
  /** An exact 2× shrink (weighRow2). */
  private readonly half: boolean;

  constructor(
    readonly srcWidth: number,
    readonly srcHeight: number,
    readonly width: number,
    readonly height: number,
    order: PixelOrder = 'rgba',
  ) {
    if (!(width >= 1 && height >= 1 && width <= srcWidth && height <= srcHeight)) {
      throw new RangeError(`the area scaler only shrinks: ${srcWidth}×${srcHeight} to ${width}×${height} is not a shrink`);
    }
    this.rowBytes = srcWidth * 4;
    // Own memory (not Buffer's shared pool), so its rows sit on 4-byte boundaries.
    this.partial = Buffer.allocUnsafeSlow(this.rowBytes);
    this.out = Buffer.allocUnsafe(width * height * 3);
    ({ first: this.hFirst, count: this.hCount, weights: this.hWeights } = taps(srcWidth, width));
    const v = taps(srcHeight, height);
    this.vRow = new Int32Array(srcHeight).fill(-1);
    this.vWeight = new Int32Array(srcHeight);
    this.vWeightNext = new Int32Array(srcHeight);
    for (let o = 0, k = 0; o < height; o++) {
      for (let s = v.first[o], n = 0; n < v.count[o]; s++, n++, k++) {
        if (this.vRow[s] < 0) {
          this.vRow[s] = o;
          this.vWeight[s] = v.weights[k];
        } else {
          // A source row on the border of two output rows: the lower one's share.
          this.vWeightNext[s] = v.weights[k];
        }
      }
    }
    this.hRow = new Int32Array(width * 3);
    this.acc = new Int32Array(width * 3);
    this.nextAcc = new Int32Array(width * 3);
    this.red = order === 'bgra' ? 2 : 0;
    if (this.hCount.every((n) => n <= 3)) {
      // Three weights per output pixel, zeros where it covers fewer source pixels.
      this.taps3 = new Int32Array(width * 3);
      for (let o = 0, k = 0; o < width; o++) for (let n = 0; n < this.hCount[o]; n++, k++) this.taps3[o * 3 + n] = this.hWeights[k];
      // Output pixels from here on have a third tap (of weight 0) past the row's last pixel.
      this.inner3 = width;
      while (this.inner3 > 0 && this.hFirst[this.inner3 - 1] + 2 > srcWidth - 1) this.inner3--;
    }
    this.half = srcWidth === 2 * width && srcHeight === 2 * height;
    this.aligned = new Uint8Array(this.rowBytes);
  }

  /** Source rows received so far. */
  get rowsDone(): number {
    return this.row;
  }

  get done(): boolean {
    return this.row === this.srcHeight;
  }

  /** Takes the next bytes of pixel data, split anywhere; bytes past the last row are refused. */
  push(chunk: Uint8Array): void {
    let at = 0;
    if (this.partialFill > 0) {
      const take = Math.min(this.rowBytes - this.partialFill, chunk.length);
      this.partial.set(chunk.subarray(0, take), this.partialFill);
      this.partialFill += take;
      at = take;
      if (this.partialFill < this.rowBytes) return;
      this.partialFill = 0;
      this.addRow(this.partial, 0);
    }
    for (; at + this.rowBytes <= chunk.length; at += this.rowBytes) this.addRow(chunk, at);
    if (at < chunk.length) {
      if (this.row >= this.srcHeight) throw new RangeError(`more pixel data than ${this.srcWidth}×${this.srcHeight} holds`);
      this.partial.set(chunk.subarray(at), 0);
      this.partialFill = chunk.length - at;
    }
  }

  private addRow(src: Uint8Array, offset: number): void {
    const y = this.row;
    if (y >= this.srcHeight) throw new RangeError(`more pixel data than ${this.srcWidth}×${this.srcHeight} holds`);
    // Whole pixels as little-endian words; a row not on a 4-byte boundary is copied to one first.
    let base = src.byteOffset + offset;
    let buffer = src.buffer;
    if (base % 4 !== 0) {
      this.aligned.set(src.subarray(offset, offset + this.rowBytes));
      buffer = this.aligned.buffer;
      base = this.aligned.byteOffset;
    }
    const words = new Uint32Array(buffer, base, this.srcWidth);
    const oy = this.vRow[y];
    if (this.half) this.weighRow2(words);
    else if (this.taps3) this.weighRow3(words, this.vWeight[y], this.vWeightNext[y]);
    else this.weighRow(words, this.vWeight[y], this.vWeightNext[y]);
    this.row = y + 1;
    // Output row oy is complete when the next source row starts a later one (or there is none).
    if (this.row === this.srcHeight || this.vRow[this.row] !== oy) this.emit(oy);
  }

  /** Any shrink: the row's horizontal sums, then their share in the output rows it falls in. */
  private weighRow(words: Uint32Array, wTop: number, wNext: number): void {
    const { hFirst, hCount, hWeights, hRow, red } = this;
    for (let o = 0, k = 0, h = 0; o < this.width; o++, h += 3) {
      // Bytes 0 and 2 in separate 16-bit lanes, so one multiply weighs both.
      let rb = 0;
      let g = 0;
      let p = hFirst[o];
      for (let n = hCount[o]; n > 0; n--, k++, p++) {
        const px = words[p];
        const wt = hWeights[k];
        rb += (px & 0xff00ff) * wt;
        g += ((px >>> 8) & 0xff) * wt;
      }
      hRow[h + red] = rb & 0xffff;
      hRow[h + 1] = g;
      hRow[h + 2 - red] = rb >>> 16;
    }
    const { acc } = this;
    const n3 = this.width * 3;
    if (wNext === 0) {
      for (let i = 0; i < n3; i++) acc[i] += hRow[i] * wTop;
    } else {
      const next = this.nextAcc;
      for (let i = 0; i < n3; i++) {
        const v = hRow[i];
        acc[i] += v * wTop;
        next[i] += v * wNext;
      }
    }
  }

  /**
   * Shrinks of at most 2×, which cover at most three source pixels per output pixel: unrolled, and
   * each output pixel's sums go straight into the accumulators (no row of sums written and read
   * back: 47 → 38 ms for 1080×2400 → 576×1280). The loop reads its three taps without a bounds
   * clamp: the last output pixels, whose third tap (of weight 0) lies past the row's end, are
   * weighed apart (38 → 34 ms).
   */
  private weighRow3(words: Uint32Array, wTop: number, wNext: number): void {
    const { hFirst, acc, red } = this;
    const next = this.nextAcc;
    const wts = this.taps3!;
    const blue = 2 - red;
    // h: the output pixel's first channel, and the first of its three tap weights.
    for (let o = 0, h = 0; o < this.inner3; o++, h += 3) {
      const p = hFirst[o];
      const pa = words[p];
      const pb = words[p + 1];
      const pc = words[p + 2];
      const wa = wts[h];
      const wb = wts[h + 1];
      const wc = wts[h + 2];
      const rb = (pa & 0xff00ff) * wa + (pb & 0xff00ff) * wb + (pc & 0xff00ff) * wc;
      const g = ((pa >>> 8) & 0xff) * wa + ((pb >>> 8) & 0xff) * wb + ((pc >>> 8) & 0xff) * wc;
      const lo = rb & 0xffff;
      const hi = rb >>> 16;
      acc[h + red] += lo * wTop;
      acc[h + 1] += g * wTop;
      acc[h + blue] += hi * wTop;
      if (wNext !== 0) {
        next[h + red] += lo * wNext;
        next[h + 1] += g * wNext;
        next[h + blue] += hi * wNext;
      }
    }
    for (let o = this.inner3; o < this.width; o++) this.weighPixel(words, o, wTop, wNext);
  }

  /**
   * An exact 2× shrink: every weight is ONE / 2 both ways, so each pair of pixels is summed and
   * shifted into place (the same sums as weighRow3 makes with those weights, without multiplies or
   * a third tap: 27 → 19 ms for 1080×2400 → 540×1200, fed in 256 KB chunks).
   */
  private weighRow2(words: Uint32Array): void {
    const { acc, red } = this;
    const blue = 2 - red;
    const shift = 2 * WEIGHT_BITS - 2;
    for (let o = 0, p = 0, h = 0; o < this.width; o++, p += 2, h += 3) {
      const pa = words[p];
      const pb = words[p + 1];
      const rb = (pa & 0xff00ff) + (pb & 0xff00ff);
      acc[h + red] += (rb & 0xffff) << shift;
      acc[h + 1] += (((pa >>> 8) & 0xff) + ((pb >>> 8) & 0xff)) << shift;
      acc[h + blue] += (rb >>> 16) << shift;
    }
  }

  /** One output pixel of weighRow3 from the taps that lie inside the row: the last few, which its loop leaves out. */
  private weighPixel(words: Uint32Array, o: number, wTop: number, wNext: number): void {
    const { hFirst, hCount, red } = this;
    const wts = this.taps3!;
    let rb = 0;
    let g = 0;
    for (let n = 0; n < hCount[o]; n++) {
      const px = words[hFirst[o] + n];
      const wt = wts[o * 3 + n];
      rb += (px & 0xff00ff) * wt;
      g += ((px >>> 8) & 0xff) * wt;
    }
    const { acc, nextAcc } = this;
    const h = o * 3;
    const lo = rb & 0xffff;
    const hi = rb >>> 16;
    acc[h + red] += lo * wTop;
    acc[h + 1] += g * wTop;
    acc[h + 2 - red] += hi * wTop;
    nextAcc[h + red] += lo * wNext;
    nextAcc[h + 1] += g * wNext;
    nextAcc[h + 2 - red] += hi * wNext;
  }

  private emit(oy: number): void {
    const acc = this.acc;
    const out = this.out;
    const n3 = this.width * 3;
    for (let i = 0, o = oy * n3; i < n3; i++, o++) out[o] = (acc[i] + ROUND) >>> (2 * WEIGHT_BITS);
    acc.fill(0);
    this.acc = this.nextAcc;
    this.nextAcc = acc;
  }
}
