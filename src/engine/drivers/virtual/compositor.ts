import { endianness } from 'node:os';
import type { Rect } from '../../types.js';
import type { Paint, PaintOp } from './svg.js';
import type { Tile } from './tiles.js';

if (endianness() !== 'LE') throw new Error('virtual device compositor: packs RGBA pixels as little-endian 32-bit words; this CPU is big-endian');

/** a·b/255 rounded, as pixman (cairo's backend) computes it, so blends match librsvg's. */
const mul = (a: number, b: number) => {
  const t = a * b + 128;
  return ((t >> 8) + t) >> 8;
};

function parseColor(color: string): [number, number, number, number] {
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(color);
  if (!m) throw new Error(`virtual device compositor: colour "${color}" is not #RRGGBB or #RRGGBBAA; fix the palette in theme.ts`);
  const v = parseInt(m[1], 16);
  return [v >> 16, (v >> 8) & 255, v & 255, m[2] ? parseInt(m[2], 16) : 255];
}

export interface Area {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Integer pixel area of a rect cut by the clip and the screen. Edges round like cairo without
 * antialiasing: a pixel is covered when its centre is inside.
 */
function area(r: Rect, clip: Rect | null, width: number, height: number): Area | null {
  const edge = (v: number) => Math.ceil(v - 0.5);
  let x0 = Math.max(0, edge(r.x));
  let y0 = Math.max(0, edge(r.y));
  let x1 = Math.min(width, edge(r.x + r.width));
  let y1 = Math.min(height, edge(r.y + r.height));
  if (clip) {
    x0 = Math.max(x0, clip.x);
    y0 = Math.max(y0, clip.y);
    x1 = Math.min(x1, clip.x + clip.width);
    y1 = Math.min(y1, clip.y + clip.height);
  }
  return x1 > x0 && y1 > y0 ? { x0, y0, x1, y1 } : null;
}

/** Where a paint op lands (its tile's kept pixels for a shape), null when nothing shows. */
export function opArea(op: PaintOp, tile: Tile | undefined, width: number, height: number): Area | null {
  if (op.kind === 'fill') return area(op.rect, op.clip, width, height);
  if (!tile) throw new Error('virtual device compositor: a shape op has no tile');
  return area({ x: op.x + tile.dx, y: op.y + tile.dy, width: tile.width, height: tile.height }, op.clip, width, height);
}

/**
 * Paints the ops into `rgba` (width × height × 4 bytes): plain rectangles are word fills, shapes
 * are their cached tiles copied (opaque runs) or blended (antialiased runs) inside their clip.
 * `tiles[i]` is the tile of `paint.ops[i]` (undefined for fills). Only rows inside `rows` ([y0, y1) ranges, default the
 * whole screen) are drawn; the first op fills the screen, so those rows are fully overwritten.
 */
export function composite(paint: Paint, tiles: (Tile | undefined)[], rgba: Buffer, rows: [number, number][] = [[0, paint.height]]): Buffer {
  const { width, height } = paint;
  if (rgba.length !== width * height * 4 || rgba.byteOffset % 4) throw new Error(`virtual device compositor: target buffer of ${rgba.length} bytes does not fit ${width}x${height} RGBA`);
  const words = new Int32Array(rgba.buffer, rgba.byteOffset, width * height);
  const areas = paint.ops.map((op, i) => opArea(op, tiles[i], width, height));
  for (const [r0, r1] of rows) {
    paint.ops.forEach((op, i) => {
      const tile = tiles[i];
      const full = areas[i];
      if (!full || full.y1 <= r0 || full.y0 >= r1) return;
      const a = { ...full, y0: Math.max(full.y0, r0), y1: Math.min(full.y1, r1) };
      if (op.kind === 'fill') {
        const [r, g, b, alpha] = parseColor(op.color);
        if (alpha === 255) {
          const word = (255 << 24) | (b << 16) | (g << 8) | r;
          for (let y = a.y0; y < a.y1; y++) words.fill(word, y * width + a.x0, y * width + a.x1);
        } else {
          dim(rgba, words, width, a, [r, g, b], alpha);
        }
      } else if (tile) {
        drawTile(rgba, words, width, tile, op.x + tile.dx, op.y + tile.dy, a);
      }
    });
  }
  return rgba;
}
/**
 * A translucent rectangle (the scrim under dialogs). Screens are mostly flat, so a row equal to
 * the row above (before dimming) gets that row's dimmed pixels copied, and within a row the last
 * pixel's result is reused while the input repeats.
 */
function dim(rgba: Buffer, words: Int32Array, width: number, a: Area, color: [number, number, number], alpha: number): void {
  const keep = 255 - alpha;
  const [sr, sg, sb] = color.map((c) => mul(c, alpha));
  const rowBytes = (a.x1 - a.x0) * 4;
  const above = Buffer.allocUnsafe(rowBytes);
  // Int32 words (not Uint32) keep V8 on small-integer paths; an opaque pixel is negative, never 0.
  let lastIn = 0;
  let lastOut = 0;
  for (let y = a.y0; y < a.y1; y++) {
    const start = (y * width + a.x0) * 4;
    if (y > a.y0 && rgba.compare(above, 0, rowBytes, start, start + rowBytes) === 0) {
      rgba.copyWithin(start, start - width * 4, start - width * 4 + rowBytes);
      continue;
    }
    rgba.copy(above, 0, start, start + rowBytes);
    const end = y * width + a.x1;
    for (let i = y * width + a.x0; i < end; i++) {
      const w = words[i];
      if (w !== lastIn) {
        lastIn = w;
        lastOut = (255 << 24) | ((sb + mul((w >>> 16) & 255, keep)) << 16) | ((sg + mul((w >>> 8) & 255, keep)) << 8) | (sr + mul(w & 255, keep));
      }
      words[i] = lastOut;
    }
  }
}

/** Opaque runs at least this long are copied with memcpy; shorter ones word by word. */
const COPY_RUN = 16;

function drawTile(rgba: Buffer, words: Int32Array, width: number, tile: Tile, left: number, top: number, a: Area): void {
  const { runs, rowStart, rgba: src } = tile;
  const srcWords = new Int32Array(src.buffer, src.byteOffset, tile.width * tile.height);
  for (let y = a.y0; y < a.y1; y++) {
    const ty = y - top;
    const rowSrc = ty * tile.width;
    const rowDst = y * width + left;
    for (let r = rowStart[ty]; r < rowStart[ty + 1]; r += 3) {
      const start = Math.max(runs[r], a.x0 - left);
      const end = Math.min(runs[r + 1], a.x1 - left);
      if (end <= start) continue;
      if (runs[r + 2] && end - start >= COPY_RUN) {
        src.copy(rgba, (rowDst + start) * 4, (rowSrc + start) * 4, (rowSrc + end) * 4);
        continue;
      }
      for (let x = start; x < end; x++) {
        const s = srcWords[rowSrc + x];
        const alpha = s >>> 24;
        if (alpha === 255) {
          words[rowDst + x] = s;
        } else if (alpha) {
          const d = words[rowDst + x];
          const keep = 255 - alpha;
          const r = mul(s & 255, alpha) + mul(d & 255, keep);
          const g = mul((s >>> 8) & 255, alpha) + mul((d >>> 8) & 255, keep);
          const b = mul((s >>> 16) & 255, alpha) + mul((d >>> 16) & 255, keep);
          words[rowDst + x] = (255 << 24) | (b << 16) | (g << 8) | r;
        }
      }
    }
  }
}
