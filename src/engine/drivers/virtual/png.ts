import zlib from 'node:zlib';
import { RecentMap } from '../../recent-map.js';
import { loadSharp } from '../../screen/sharp.js';
import { pngChunk } from '../../screen/png-chunk.js';

/**
 * PNG encoder for RGBA screens that re-compresses only the horizontal bands that changed.
 *
 * PNG (RFC 2083 / ISO 15948) stores the filtered scanlines as ONE zlib stream (RFC 1950) split
 * across any number of IDAT chunks. Each band is deflated on its own (RFC 1951, raw, ending in a
 * sync flush so it is byte-aligned and not final), so compressed bands can be concatenated: the
 * stream is the 2-byte zlib header, the bands, an empty final block and the Adler-32 of all the
 * scanlines, which is combined from the bands' own checksums. Each band becomes one IDAT chunk
 * whose CRC is kept with it. Typing a character then costs one band, not 10 MB of deflate.
 *
 * Node's zlib is slower per byte than sharp's zlib-ng and each band pays its own set-up, so when
 * much of the screen changed (scrolling, a new screen) the whole image goes to sharp instead.
 */

export interface EncodedBand {
  /** IDAT chunk (length, type, data, CRC) holding the band's deflate blocks. */
  chunk: Buffer;
  adler: number;
  /** Bytes of scanline data (filter bytes included) the band covers. */
  length: number;
}

const ADLER_MOD = 65521;
const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
/** zlib header: deflate, 32 KiB window, "fastest" level, check bits make it a multiple of 31. */
const ZLIB_HEADER = Buffer.from([0x78, 0x01]);
/** A final, empty block with fixed Huffman codes: BFINAL=1, BTYPE=01, end-of-block code 0000000. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** Adler-32 of X followed by Y from adler(X), adler(Y) and Y's length. */
function adlerCombine(x: number, y: number, yLength: number): number {
  const ax = x & 0xffff;
  const bx = x >>> 16;
  const ay = y & 0xffff;
  const by = y >>> 16;
  const a = (ax + ay + ADLER_MOD - 1) % ADLER_MOD;
  const b = (bx + by + ((yLength % ADLER_MOD) * ((ax + ADLER_MOD - 1) % ADLER_MOD)) % ADLER_MOD) % ADLER_MOD;
  return ((b << 16) | a) >>> 0;
}

/** Scanlines (filter type 0 "None" before each row) of rows y0..y1. */
function scanlines(rgba: Buffer, width: number, y0: number, y1: number): Buffer {
  const stride = width * 4;
  const out = Buffer.allocUnsafe((stride + 1) * (y1 - y0));
  for (let y = y0; y < y1; y++) {
    const at = (y - y0) * (stride + 1);
    out[at] = 0;
    rgba.copy(out, at + 1, y * stride, (y + 1) * stride);
  }
  return out;
}

/**
 * Synchronous on purpose: for the few bands of a small change it is faster than a round trip
 * through the thread pool (measured 2-3× here), and the frame is waited for anyway.
 */
function encodeBand(rgba: Buffer, width: number, y0: number, y1: number): EncodedBand {
  const lines = scanlines(rgba, width, y0, y1);
  const body = zlib.deflateRawSync(lines, { level: 1, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  // zlib computes the band's Adler-32 natively (the trailer of a zlib stream); stored blocks
  // (level 0) into one output chunk make that pass little more than a copy.
  const stored = zlib.deflateSync(lines, { level: 0, chunkSize: lines.length + 1024 });
  return { chunk: pngChunk('IDAT', body), adler: stored.readUInt32BE(stored.length - 4), length: lines.length };
}

/** Above this share of bands changed since the previous frame, sharp encodes the whole image. */
const WHOLE_IMAGE_SHARE = 0.25;

/** Encoded bands by band key, least recently used dropped first. */
export class BandPngEncoder {
  private readonly bands: RecentMap<string, EncodedBand>;
  /** Band keys of the last frame encoded, per screen size. */
  private readonly previous = new Map<string, string[]>();

  /** @param keep how many encoded bands to remember (a few screens' worth). */
  constructor(readonly bandRows: number, keep = 512) {
    this.bands = new RecentMap(keep);
  }

  /**
   * PNG of the pixels. `keys[i]` must change whenever the pixels of rows
   * [i·bandRows, (i+1)·bandRows) of this size do; equal keys reuse the compressed band.
   * A frame that changed few bands since the previous one is encoded band by band (all its
   * bands then stay cached, so the next small change is cheap); otherwise as a whole.
   */
  async encode(rgba: Buffer, width: number, height: number, keys: string[]): Promise<Buffer> {
    const count = Math.ceil(height / this.bandRows);
    if (keys.length !== count) throw new Error(`PNG encoder: ${keys.length} band keys for ${count} bands of ${this.bandRows} rows`);
    const size = `${width}x${height}`;
    const full = keys.map((key, i) => `${size}:${i}:${key}`);
    const before = this.previous.get(size);
    this.previous.set(size, full);
    const changed = before ? full.filter((key, i) => key !== before[i]).length : count;
    if (changed > count * WHOLE_IMAGE_SHARE) return encodeWhole(rgba, width, height);
    const bands = full.map((key, i) => {
      let band = this.bands.get(key);
      if (!band) this.bands.set(key, (band = encodeBand(rgba, width, i * this.bandRows, Math.min(height, (i + 1) * this.bandRows))));
      return band;
    });
    let adler = 1;
    for (const band of bands) adler = adlerCombine(adler, band.adler, band.length);
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, adaptive filters, no interlace
    const trailer = Buffer.alloc(6);
    FINAL_BLOCK.copy(trailer);
    trailer.writeUInt32BE(adler, 2);
    return Buffer.concat([
      SIGNATURE,
      pngChunk('IHDR', ihdr),
      pngChunk('IDAT', ZLIB_HEADER),
      ...bands.map((b) => b.chunk),
      pngChunk('IDAT', trailer),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
  }
}

/**
 * sharp (zlib-ng) at level 1 without adaptive filtering: fastest measured here for a list screen
 * (level 1 12.7 ms / 162 KB, level 2 14.0 ms / 104 KB, level 0 20.8 ms / 10 MB — stored blocks
 * still get checksummed and copied —; adaptive filtering costs ~10×; RGB saves 10% of the encode
 * but dropping the alpha channel costs more than that).
 */
async function encodeWhole(rgba: Buffer, width: number, height: number): Promise<Buffer> {
  return (await loadSharp())(rgba, { raw: { width, height, channels: 4 } }).png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
}
