import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeRawImage, isOpaqueFrame, parseRawScreencap, rgbaFromRawFrame } from '../../src/engine/drivers/android/screencap.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/**
 * Raw screencap's colour space (screencap.cpp dataSpaceToInt: 1 sRGB, 2 Display P3): a Display P3 capture
 * encoded on the host is tagged Display P3, as the phone's own `screencap -p` PNG is, with the same values.
 */
const test = suite<{ rig?: AndroidRig }>('android screenshots of a Display P3 capture');

test.before(async (ctx) => {
  if (!hasAdb()) return;
  ctx.rig = await startRig();
  await ctx.rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
});
test.after(async (ctx) => {
  await ctx.rig?.stop();
});
test.after.each(({ rig }) => {
  if (rig) rig.phone.shell.quirks.colourSpace = 'sRGB';
});

function rawFrame(colourSpace: number | undefined, rgba: number[], width: number): Buffer {
  const header = Buffer.alloc(colourSpace === undefined ? 12 : 16);
  header.writeUInt32LE(width, 0);
  header.writeUInt32LE(rgba.length / 4 / width, 4);
  header.writeUInt32LE(1, 8);
  if (colourSpace !== undefined) header.writeUInt32LE(colourSpace, 12);
  return Buffer.concat([header, Buffer.from(rgba)]);
}

/** libvips' Display P3 profile, as sharp attaches it. */
async function p3Profile(): Promise<Buffer> {
  return (await sharp(await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).withIccProfile('p3').png().toBuffer()).metadata()).icc!;
}

/** The red, green and blue primaries (rXYZ, gXYZ, bXYZ tags) of an ICC profile: what tells Display P3 from sRGB. */
function primaries(icc: Buffer): string {
  const tags = new Map<string, Buffer>();
  for (let i = 0, n = icc.readUInt32BE(128); i < n; i++) {
    const at = 132 + i * 12;
    tags.set(icc.toString('latin1', at, at + 4), icc.subarray(icc.readUInt32BE(at + 4), icc.readUInt32BE(at + 4) + icc.readUInt32BE(at + 8)));
  }
  return ['rXYZ', 'gXYZ', 'bXYZ'].map((t) => tags.get(t)?.toString('hex') ?? 'none').join(' ');
}

test('the raw header\'s colour space is kept; a Display P3 frame becomes a PNG tagged Display P3 with its values unchanged, others stay untagged', async () => {
  const pixels = [255, 0, 0, 255, 200, 100, 50, 255, 0, 255, 0, 255, 10, 20, 30, 255];
  assert.is(parseRawScreencap(rawFrame(2, pixels, 2)).colorSpace, 2);
  assert.is(parseRawScreencap(rawFrame(1, pixels, 2)).colorSpace, 1);
  assert.is(parseRawScreencap(rawFrame(undefined, pixels, 2)).colorSpace, undefined, 'no colour space before Android 8');

  const p3 = parseRawScreencap(rawFrame(2, pixels, 2));
  const { png } = await encodeRawImage(rgbaFromRawFrame(p3), isOpaqueFrame(p3), p3.colorSpace);
  const meta = await sharp(png).metadata();
  assert.ok(meta.hasProfile, 'tagged');
  assert.is(primaries(meta.icc!), primaries(await p3Profile()), 'with Display P3 primaries');
  assert.equal([...(await sharp(png, { ignoreIcc: true }).raw().toBuffer())], pixels, 'the values the phone captured, not transformed');
  // What a colour-managed reader shows: the P3 orange is a more saturated one in sRGB terms.
  assert.equal([...(await sharp(png).raw().toBuffer()).subarray(4, 7)], [215, 93, 32]);

  const srgb = parseRawScreencap(rawFrame(1, pixels, 2));
  assert.not.ok((await sharp((await encodeRawImage(rgbaFromRawFrame(srgb), isOpaqueFrame(srgb), srgb.colorSpace)).png).metadata()).hasProfile, 'sRGB stays untagged');
});

test('a phone capturing in Display P3 (raw c = 2): the host-encoded screenshot is tagged as the phone\'s own screencap -p PNG is, with the same pixels', async ({ rig }) => {
  if (!rig) return;
  rig.phone.shell.quirks.colourSpace = 'DISPLAY_P3';
  const serial = rig.phone.serial;
  const shot = async (engine: Engine) => (await engine.withDevice(serial, 'screenshot', (d, ctx) => d.screenshot(ctx))).png;
  const raw = rig.engineWith({ screencap: 'raw' });
  const phone = rig.engineWith({ screencap: 'png' });
  let hostPng: Buffer | undefined;
  let phonePng: Buffer | undefined;
  // Compared on a screen that stood still between the two captures (the app may still be settling).
  for (let attempt = 0; attempt < 5; attempt++) {
    hostPng = await shot(raw);
    phonePng = await shot(phone);
    const again = await shot(raw);
    if ((await sharp(again, { ignoreIcc: true }).raw().toBuffer()).equals(await sharp(hostPng, { ignoreIcc: true }).raw().toBuffer())) break;
  }
  const [host, own] = [await sharp(hostPng!).metadata(), await sharp(phonePng!).metadata()];
  assert.ok(own.hasProfile, 'the emulated phone tags its PNG');
  assert.ok(host.hasProfile, 'the host-encoded PNG is tagged too');
  assert.is(primaries(host.icc!), primaries(own.icc!));
  const stored = (png: Buffer) => sharp(png, { ignoreIcc: true }).ensureAlpha().raw().toBuffer();
  assert.ok((await stored(hostPng!)).equals(await stored(phonePng!)), 'the same values');

  rig.phone.shell.quirks.colourSpace = 'sRGB';
  assert.not.ok((await sharp(await shot(raw)).metadata()).hasProfile, 'an sRGB capture stays untagged');
});

test.run();
