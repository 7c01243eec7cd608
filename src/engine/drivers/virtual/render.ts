import type { Frame } from './compose.js';
import { composite, opArea } from './compositor.js';
import { BandPngEncoder } from './png.js';
import type { DeviceProfile } from './profile.js';
import { Painter, paintToSvg, type Paint, type ShapeOp } from './svg.js';
import { paletteFor } from './theme.js';
import { TileCache, type Tile } from './tiles.js';

export interface RenderedScreen {
  width: number;
  height: number;
  /** PNG of the frame, encoded on first use (raw consumers never pay for it). */
  png(): Promise<Buffer>;
  /** Opaque RGBA, row after row. The buffer is the caller's to keep: it is never reused. */
  rgba(): Buffer;
  /** A copy of the pixels in a buffer of its own (transferable to another thread); the frame's buffer stays poolable. */
  copyRgba(): Buffer;
  /** The owner no longer shows this frame: its pixel buffer may serve a later frame. */
  release(): void;
}

/** What the frame draws, as paint ops: the one description both rasterizers work from. */
export function framePaint(frame: Frame, profile: DeviceProfile, dark: boolean): Paint {
  return new Painter({
    width: frame.width,
    height: frame.height,
    density: profile.density,
    fontFamily: profile.fontFamily,
    platform: profile.platform,
    palette: paletteFor(profile.platform, dark),
    layers: frame.layers.map((l) => ({ box: l.box, scrim: l.scrim })),
  }).paint();
}

/** The frame as one SVG document (the reference librsvg rasterizes in tests). */
export function frameSvg(frame: Frame, profile: DeviceProfile, dark: boolean): string {
  return paintToSvg(framePaint(frame, profile, dark));
}

/** Tiles shared by every virtual phone of the process: the apps' rows, buttons and keys repeat. */
const sharedTiles = new TileCache();

/** Rows per band: the unit in which unchanged pixels and compressed PNG data are reused. */
const BAND_ROWS = 64;

/**
 * One key per band of rows: the ops that land in the band, each with the pixel area it covers
 * (clip included) and what it paints. Equal keys mean equal pixels.
 */
function bandKeys(paint: Paint, tiles: (Tile | undefined)[]): string[] {
  const keys: string[][] = Array.from({ length: Math.ceil(paint.height / BAND_ROWS) }, () => []);
  paint.ops.forEach((op, i) => {
    const a = opArea(op, tiles[i], paint.width, paint.height);
    if (!a) return;
    const what = op.kind === 'fill' ? op.color : `t${tiles[i]!.id}@${op.x},${op.y}`;
    const entry = `${a.x0},${a.y0},${a.x1},${a.y1}=${what}`;
    for (let b = Math.floor(a.y0 / BAND_ROWS); b * BAND_ROWS < a.y1; b++) keys[b].push(entry);
  });
  return keys.map((k) => k.join(';'));
}

/** Row ranges of the bands whose keys differ. */
function changedRows(keys: string[], before: string[] | undefined, height: number): [number, number][] {
  const rows: [number, number][] = [];
  keys.forEach((key, b) => {
    if (before && before[b] === key) return;
    const y0 = b * BAND_ROWS;
    const y1 = Math.min(height, y0 + BAND_ROWS);
    const last = rows[rows.length - 1];
    if (last && last[1] === y0) last[1] = y1;
    else rows.push([y0, y1]);
  });
  return rows;
}

interface Pooled {
  buffer: Buffer;
  /** Band keys of the pixels still in the buffer. */
  keys: string[];
}

/**
 * Pixel buffers of released frames. A fresh 10 MB buffer costs ~6 ms of page faults when first
 * written; a reused one costs nothing, and the bands it already holds need no drawing at all.
 */
class BufferPool {
  private free: Pooled[] = [];

  constructor(private readonly keep: number) {}

  /** The most recently released buffer of this size, else a new one. */
  take(bytes: number): Pooled | undefined {
    for (let i = this.free.length - 1; i >= 0; i--) {
      if (this.free[i].buffer.length === bytes) return this.free.splice(i, 1)[0];
    }
    return undefined;
  }

  give(pooled: Pooled): void {
    this.free.push(pooled);
    if (this.free.length > this.keep) this.free.shift();
  }
}

const sharedBuffers = new BufferPool(4);

/**
 * Band keys of what this thread last drew into each pixel slot (pixel-slots.ts), by slot id: a
 * slot drawn into again needs only the bands that differ. Bounded: a forgotten slot is drawn in full.
 */
const slotKeys = new Map<number, string[]>();
const MAX_SLOT_KEYS = 64;

/** A caller's buffer to draw into (a pixel slot in shared memory) instead of one of the pool's. */
export interface DrawTarget {
  id: number;
  buffer: Buffer;
}
const sharedEncoder = new BandPngEncoder(BAND_ROWS);

/**
 * Draws a frame without rasterizing the whole screen through librsvg: rectangles are filled in
 * JS, text and rounded shapes come from the tile cache (librsvg draws only the new ones), bands
 * unchanged since the reused buffer's frame are left as they are, and the PNG re-compresses only
 * changed bands. The PNG, the raw pixels and the element bounds come from the same paint ops.
 */
export async function renderFrame(frame: Frame, profile: DeviceProfile, dark: boolean, tiles = sharedTiles, target?: DrawTarget): Promise<RenderedScreen> {
  const paint = framePaint(frame, profile, dark);
  const shapes = paint.ops.filter((op): op is ShapeOp => op.kind === 'shape');
  const drawn = await tiles.tilesFor(shapes, paint.rootAttributes);
  const byOp: (Tile | undefined)[] = [];
  let next = 0;
  for (const op of paint.ops) byOp.push(op.kind === 'shape' ? drawn[next++] : undefined);
  const { width, height } = paint;
  const bytes = width * height * 4;
  const keys = bandKeys(paint, byOp);
  const fresh = () => composite(paint, byOp, Buffer.allocUnsafeSlow(bytes));
  if (target) return drawInto(target, paint, byOp, keys);
  const reused = sharedBuffers.take(bytes);
  // Null once released (and not handed out): a late request then draws again into its own buffer.
  let pixels: Buffer | null = reused ? composite(paint, byOp, reused.buffer, changedRows(keys, reused.keys, height)) : fresh();
  let handedOut = false;
  let png: Promise<Buffer> | undefined;
  return {
    width,
    height,
    png: () => (png ??= sharedEncoder.encode(pixels ?? fresh(), width, height, keys)),
    rgba: () => {
      pixels ??= fresh();
      handedOut = true;
      return pixels;
    },
    copyRgba: () => {
      // Not a SharedArrayBuffer: allocating one costs ~3× more (zero-filled) than an unpooled buffer.
      const copy = Buffer.allocUnsafeSlow(bytes);
      (pixels ?? fresh()).copy(copy);
      return copy;
    },
    release: () => {
      const buffer = pixels;
      if (!buffer || handedOut) return;
      pixels = null;
      // The encoder may still be reading the buffer.
      void (png ?? Promise.resolve()).finally(() => sharedBuffers.give({ buffer, keys })).catch(() => undefined);
    },
  };
}

/** Draws into the caller's slot: only the bands that differ from what this thread last drew there. */
function drawInto(target: DrawTarget, paint: Paint, byOp: (Tile | undefined)[], keys: string[]): RenderedScreen {
  const { width, height } = paint;
  if (target.buffer.length !== width * height * 4) throw new Error(`virtual phone renderer: a draw target of ${target.buffer.length} bytes does not fit ${width}x${height} RGBA`);
  const before = slotKeys.get(target.id);
  // Forgotten first: a drawing that fails half-way leaves bands no key describes.
  slotKeys.delete(target.id);
  composite(paint, byOp, target.buffer, changedRows(keys, before, height));
  slotKeys.set(target.id, keys);
  if (slotKeys.size > MAX_SLOT_KEYS) slotKeys.delete(slotKeys.keys().next().value!);
  let png: Promise<Buffer> | undefined;
  return {
    width,
    height,
    png: () => (png ??= sharedEncoder.encode(target.buffer, width, height, keys)),
    rgba: () => target.buffer,
    copyRgba: () => Buffer.from(target.buffer),
    release: () => undefined,
  };
}
