import type { ShapeOp } from './svg.js';
import { loadSharp } from '../../screen/sharp.js';

/**
 * A rasterized shape, cut down to its non-transparent pixels. `runs` lists, per row, the spans
 * worth drawing as [start, end, opaque] triples (end exclusive, `opaque` 1 when every pixel has
 * alpha 255 and can be copied instead of blended); `rowStart[y]..rowStart[y+1]` index into it.
 */
export interface Tile {
  /** Unique per rasterization: equal ids mean equal pixels (band keys rely on it). */
  id: number;
  /** Offset of the kept pixels inside the shape's box. */
  dx: number;
  dy: number;
  width: number;
  height: number;
  /** Straight (not premultiplied) RGBA, as sharp returns it. */
  rgba: Buffer;
  rowStart: Int32Array;
  runs: Int32Array;
}

export interface TileCacheOptions {
  /** Upper bound on the bytes of kept pixels (default 48 MiB). */
  maxBytes?: number;
  /** Number of rasterizer calls the misses of one frame are spread over (default 2). */
  batches?: number;
}

const tileKey = (op: ShapeOp, rootAttributes: string) => `${op.width}x${op.height} ${rootAttributes}|${op.svg}`;

/**
 * Rasterized shapes keyed by their SVG fragment, least recently used dropped first. A fragment
 * is in local coordinates, so a list row scrolled by whole pixels, or the same button on another
 * screen, reuses its tile. librsvg costs ~2 ms per call whatever the size, so the misses of one
 * frame go through a few atlas documents rather than one call each.
 */
export class TileCache {
  private readonly tiles = new Map<string, Tile>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly batches: number;

  constructor(options: TileCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? 48 * 1024 * 1024;
    this.batches = Math.max(1, options.batches ?? 2);
  }

  get size(): number {
    return this.tiles.size;
  }

  get byteSize(): number {
    return this.bytes;
  }

  /** Tiles for every shape op, in the order given; rasterizes the ones not cached. */
  async tilesFor(ops: ShapeOp[], rootAttributes: string): Promise<Tile[]> {
    const keys = ops.map((op) => tileKey(op, rootAttributes));
    const found = new Map<string, Tile>();
    const missing = new Map<string, ShapeOp>();
    keys.forEach((key, i) => {
      const tile = this.tiles.get(key);
      if (tile) {
        // Re-insert: Map order is the recency order.
        this.tiles.delete(key);
        this.tiles.set(key, tile);
        found.set(key, tile);
      } else {
        missing.set(key, ops[i]);
      }
    });
    if (missing.size) {
      const groups = splitByArea([...missing], this.batches);
      const drawn = await Promise.all(groups.map((g) => rasterizeAtlas(g, rootAttributes)));
      for (const group of drawn) {
        for (const [key, tile] of group) {
          found.set(key, tile);
          this.remember(key, tile);
        }
      }
    }
    return keys.map((key) => found.get(key)!);
  }

  private remember(key: string, tile: Tile): void {
    const cost = tile.rgba.length + tile.runs.byteLength + tile.rowStart.byteLength + key.length;
    // A concurrent frame may have drawn the same shape already.
    if (cost > this.maxBytes || this.tiles.has(key)) return;
    this.tiles.set(key, tile);
    this.bytes += cost;
    for (const [oldKey, old] of this.tiles) {
      if (this.bytes <= this.maxBytes) break;
      this.tiles.delete(oldKey);
      this.bytes -= old.rgba.length + old.runs.byteLength + old.rowStart.byteLength + oldKey.length;
    }
  }
}

/** Splits shapes into at most `n` groups of similar pixel area, so the rasterizer calls run side by side. */
function splitByArea(entries: [string, ShapeOp][], n: number): [string, ShapeOp][][] {
  const groups: { area: number; items: [string, ShapeOp][] }[] = Array.from({ length: Math.min(n, entries.length) }, () => ({ area: 0, items: [] }));
  const bySize = [...entries].sort((a, b) => b[1].width * b[1].height - a[1].width * a[1].height);
  for (const entry of bySize) {
    const smallest = groups.reduce((a, b) => (b.area < a.area ? b : a));
    smallest.items.push(entry);
    smallest.area += entry[1].width * entry[1].height;
  }
  return groups.map((g) => g.items);
}

interface Placed {
  key: string;
  op: ShapeOp;
  ax: number;
  ay: number;
}

/** Shelf packing: rows of shapes sorted by height, at most `width` wide. */
function pack(entries: [string, ShapeOp][]): { placed: Placed[]; width: number; height: number } {
  const sorted = [...entries].sort((a, b) => b[1].height - a[1].height);
  const width = Math.max(1024, ...sorted.map(([, op]) => op.width));
  const placed: Placed[] = [];
  let x = 0;
  let y = 0;
  let shelf = 0;
  for (const [key, op] of sorted) {
    if (x + op.width > width) {
      y += shelf;
      x = 0;
      shelf = 0;
    }
    placed.push({ key, op, ax: x, ay: y });
    x += op.width;
    shelf = Math.max(shelf, op.height);
  }
  return { placed, width, height: y + shelf };
}

async function rasterizeAtlas(entries: [string, ShapeOp][], rootAttributes: string): Promise<[string, Tile][]> {
  const { placed, width, height } = pack(entries);
  // Nested <svg> viewports clip each shape to its own box, as the full-screen document does.
  const body = placed.map((p) => `<svg x="${p.ax}" y="${p.ay}" width="${p.op.width}" height="${p.op.height}">${p.op.svg}</svg>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ${rootAttributes}>${body}</svg>`;
  let data: Buffer;
  try {
    data = await (await loadSharp())(Buffer.from(svg), { density: 72 }).ensureAlpha().raw().toBuffer();
  } catch (err) {
    throw new Error(`virtual device: librsvg could not draw ${placed.length} shapes (${(err as Error).message}); first shape: ${placed[0]?.op.svg.slice(0, 200)}`);
  }
  return placed.map((p) => [p.key, cutTile(data, width, p)]);
}

let nextTileId = 1;

/** Copies one shape out of the atlas, trimmed to its non-transparent pixels, with its runs. */
function cutTile(atlas: Buffer, atlasWidth: number, p: Placed): Tile {
  const { width: w, height: h } = p.op;
  let x0 = w;
  let x1 = -1;
  let y0 = h;
  let y1 = -1;
  for (let y = 0; y < h; y++) {
    const alpha0 = ((p.ay + y) * atlasWidth + p.ax) * 4 + 3;
    let first = -1;
    let last = -1;
    for (let x = 0, i = alpha0; x < w; x++, i += 4) {
      if (atlas[i]) {
        if (first < 0) first = x;
        last = x;
      }
    }
    if (first < 0) continue;
    if (first < x0) x0 = first;
    if (last > x1) x1 = last;
    if (y < y0) y0 = y;
    y1 = y;
  }
  if (x1 < 0) return { id: nextTileId++, dx: 0, dy: 0, width: 0, height: 0, rgba: Buffer.allocUnsafeSlow(0), rowStart: new Int32Array(1), runs: new Int32Array(0) };
  const width = x1 - x0 + 1;
  const height = y1 - y0 + 1;
  // Own memory (not the shared pool) so the compositor can view it as aligned 32-bit words.
  const rgba = Buffer.allocUnsafeSlow(width * height * 4);
  const rowStart = new Int32Array(height + 1);
  const runs: number[] = [];
  for (let y = 0; y < height; y++) {
    const from = ((p.ay + y0 + y) * atlasWidth + p.ax + x0) * 4;
    atlas.copy(rgba, y * width * 4, from, from + width * 4);
    rowStart[y] = runs.length;
    const alpha0 = y * width * 4 + 3;
    let x = 0;
    while (x < width) {
      const a = rgba[alpha0 + x * 4];
      if (!a) {
        x++;
        continue;
      }
      const opaque = a === 255;
      const start = x;
      for (x++; x < width; x++) {
        const b = rgba[alpha0 + x * 4];
        if (!b || (b === 255) !== opaque) break;
      }
      runs.push(start, x, opaque ? 1 : 0);
    }
  }
  rowStart[height] = runs.length;
  return { id: nextTileId++, dx: x0, dy: y0, width, height, rgba, rowStart, runs: Int32Array.from(runs) };
}
