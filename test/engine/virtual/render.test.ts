import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { test } from 'uvu';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { ShapeOp } from '../../../src/engine/drivers/virtual/svg.js';
import { TileCache } from '../../../src/engine/drivers/virtual/tiles.js';
import { byId, ctx, DEMO, setup, tapId } from './helpers.js';

/** librsvg's raster of the whole screen in one go: what the renderer drew before it was split up. */
async function reference(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg), { density: 72 }).ensureAlpha().raw().toBuffer();
}

/** Channels further apart than rounding of a blend allows, as "count at (x, y): a vs b". */
function differences(actual: Buffer, expected: Buffer, width: number): string[] {
  assert.equal(actual.length, expected.length, 'same number of bytes');
  const out: string[] = [];
  for (let i = 0; i < actual.length; i++) {
    if (Math.abs(actual[i] - expected[i]) > 2) {
      const px = i >> 2;
      out.push(`(${px % width}, ${Math.floor(px / width)}) channel ${i & 3}: ${actual[i]} vs ${expected[i]}`);
    }
  }
  return out;
}

/**
 * Decodes a PNG's IDAT stream with zlib, which checks its Adler-32 (RFC 1950) — libpng may not.
 * sharp/libpng checks the chunk CRCs. Only filter type 0 is expected: neither encoder writes another.
 */
function strictDecode(png: Buffer): { data: Buffer; width: number; height: number } {
  const idat: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
  }
  const lines = zlib.inflateSync(Buffer.concat(idat));
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = lines.subarray(y * (width * 4 + 1), (y + 1) * (width * 4 + 1));
    assert.equal(row[0], 0, `row ${y} uses filter type 0`);
    row.copy(data, y * width * 4, 1);
  }
  return { data, width, height };
}

/**
 * The decoded PNG and librsvg's full raster of the same screen agree, and so do the raw pixels
 * when `raw` (asking for them hands the frame's buffer out, so it is not reused for later frames).
 */
async function agrees(device: VirtualDevice, what: string, raw = false): Promise<void> {
  const size = await device.screenSize(ctx);
  const expected = await reference(device.screenSvg());
  const shot = await device.screenshot(ctx);
  const decoded = await sharp(shot.png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  assert.deepEqual({ width: decoded.info.width, height: decoded.info.height }, size, `${what}: PNG size`);
  assert.ok(strictDecode(shot.png).data.equals(decoded.data), `${what}: zlib's decoding agrees`);
  const fromPng = differences(decoded.data, expected, size.width);
  assert.equal(fromPng.length, 0, `${what}: PNG differs from librsvg at ${fromPng.length} channels, first ${fromPng.slice(0, 3).join('; ')}`);
  if (!raw) return;
  const pixels = await device.screenshotRaw(ctx);
  assert.deepEqual({ width: pixels.width, height: pixels.height, channels: pixels.channels }, { ...size, channels: 4 });
  assert.ok(pixels.data.equals(decoded.data), `${what}: raw pixels equal the PNG's`);
}

for (const platform of ['android', 'ios'] as const) {
  test(`${platform}: sign-in form, keyboard with a long value, list scrolled, dialog, dark mode and landscape match librsvg`, async () => {
    const { [platform]: device } = setup();
    await device.launchApp(DEMO, ctx);
    await agrees(device, 'sign-in', true);
    await tapId(device, 'email');
    await device.typeText('demo@example.com', ctx);
    await agrees(device, 'keyboard');
    await device.typeText('-and-a-value-long-enough-to-run-far-past-the-right-edge-of-the-screen-and-beyond-it-again-and-again-x', ctx);
    await agrees(device, 'keyboard, long value');
    await device.typeText('y', ctx);
    await agrees(device, 'keyboard, one more character (PNG from changed bands)');

    await device.openUrl('mbdemo://screen/home', ctx);
    const list = await byId(device, 'items');
    await device.swipe(list.center.x, list.y + list.height - 20, list.center.x, list.y + 57, 200, ctx);
    await agrees(device, 'list scrolled by a non-round distance');
    await device.openUrl('mbdemo://screen/alert', ctx);
    await agrees(device, 'alert over a scrim');
    await device.openUrl('mbdemo://screen/settings', ctx);
    await tapId(device, 'dark_mode_switch');
    await agrees(device, 'dark settings');
    await device.openUrl('mbdemo://screen/home', ctx);
    await agrees(device, 'dark list');
    await device.setOrientation('landscape', ctx);
    await agrees(device, 'landscape list', true);
  });
}

test('characters of a long value left out of the drawing are past the screen edge', async () => {
  const { android } = setup();
  await android.launchApp(DEMO, ctx);
  await tapId(android, 'email');
  const value = `${'w'.repeat(40)}${'.'.repeat(200)}`;
  await android.typeText(value, ctx);
  const svg = android.screenSvg();
  const drawn = /<tspan[^>]*>(w+\.*)\|?<\/tspan>/.exec(svg)?.[1];
  assert.ok(drawn && drawn.length < value.length, 'the value is cut short in the drawing');
  const uncut = await reference(svg.replace(`>${drawn}`, `>${value}|`));
  const raw = await android.screenshotRaw(ctx);
  const diff = differences(raw.data, uncut, raw.width);
  assert.equal(diff.length, 0, `cut characters would have shown: ${diff.slice(0, 3).join('; ')}`);
});

test('a long value in other scripts (CJK, emoji, combining marks) is cut past the screen edge too, without changing a pixel', async () => {
  const { android } = setup();
  await android.launchApp(DEMO, ctx);
  await tapId(android, 'email');
  // A 90 000-character paste made librsvg lay out every glyph on every frame: minutes per screen.
  const value = `${'日本e\u0301😀'.repeat(60)}${'語'.repeat(3000)}`;
  await android.typeText(value, ctx);
  const svg = android.screenSvg();
  const start = svg.indexOf(`>${value.slice(0, 8)}`) + 1;
  assert.ok(start > 0, 'the value is drawn');
  const drawn = svg.slice(start, svg.indexOf('</tspan>', start)).replace(/\|$/, '');
  assert.ok(value.startsWith(drawn) && drawn.length < 400, `cut short in the drawing: ${drawn.length} of ${value.length} UTF-16 units`);
  const uncut = await reference(svg.replace(`>${drawn}`, `>${value.slice(0, 1200)}`));
  const raw = await android.screenshotRaw(ctx);
  const diff = differences(raw.data, uncut, raw.width);
  assert.equal(diff.length, 0, `cut characters would have shown: ${diff.slice(0, 3).join('; ')}`);
});

test('screenshotRaw buffers stay the caller\'s after the screen changes', async () => {
  const { android } = setup();
  await android.launchApp(DEMO, ctx);
  const first = await android.screenshotRaw(ctx);
  const copy = Buffer.from(first.data);
  await tapId(android, 'email');
  await android.typeText('changed', ctx);
  await android.screenshot(ctx);
  await android.screenshot(ctx);
  assert.ok(first.data.equals(copy), 'a later frame did not draw into a handed-out buffer');
});

const square = (size: number, color: string): ShapeOp => ({
  kind: 'shape', x: 0, y: 0, width: size, height: size, clip: null,
  svg: `<rect x="0" y="0" width="${size}" height="${size}" rx="${size / 4}" fill="${color}"/>`,
});
const ROOT = 'shape-rendering="crispEdges"';

test('tile cache: same fragment is drawn once, the byte bound holds, least recently used go first', async () => {
  const cache = new TileCache({ maxBytes: 3 * 40 * 40 * 4 + 3 * 2000 });
  const [a1, b1] = await cache.tilesFor([square(40, '#FF0000'), square(40, '#00FF00')], ROOT);
  assert.equal(a1.width, 40, 'a rounded square keeps its corner pixels');
  assert.equal(a1.rgba.readUInt32BE(((20 * 40) + 20) * 4), 0xff0000ff, 'centre pixel is opaque red');
  const [a2] = await cache.tilesFor([square(40, '#FF0000')], ROOT);
  assert.equal(a2, a1, 'a cached tile is reused, not drawn again');
  await cache.tilesFor([square(40, '#0000FF'), square(40, '#FFFF00')], ROOT);
  assert.ok(cache.byteSize <= 3 * 40 * 40 * 4 + 3 * 2000, `bytes ${cache.byteSize} within the bound`);
  assert.equal(cache.size, 3, 'the oldest tile was dropped');
  const [b2] = await cache.tilesFor([square(40, '#00FF00')], ROOT);
  assert.notEqual(b2, b1, 'the least recently used tile (green) was the one dropped');
  const [big] = await cache.tilesFor([square(200, '#000000')], ROOT);
  assert.equal(big.width, 200, 'a tile larger than the whole cache is still drawn');
  assert.ok(cache.byteSize <= 3 * 40 * 40 * 4 + 3 * 2000, 'but not kept');
});

test('tile cache: a transparent fragment gives an empty tile; a broken one a clear error', async () => {
  const cache = new TileCache();
  const [empty] = await cache.tilesFor([{ ...square(10, '#000000'), svg: '<g/>' }], ROOT);
  assert.deepEqual([empty.width, empty.height], [0, 0]);
  await assert.rejects(cache.tilesFor([{ ...square(10, '#000000'), svg: '<rect' }], ROOT), /librsvg could not draw/);
});

test.run();
