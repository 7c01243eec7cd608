import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Engine } from '../../src/engine/engine.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/*
 * Saved screenshots are whole PNGs: raw pixels plus the host's encode, or the phone's own PNG. In
 * `auto` each device measures both for this use, apart from agents' shrunk screenshots (which
 * weigh the phone's PNG plus a host decode): a phone whose PNG encoder takes seconds keeps raw, one
 * that encodes fast (an emulator) saves its own PNG and skips the host's encode.
 */
const whole = suite<{ rig?: AndroidRig; dir: string }>('android saved screenshots: raw + host encode or the phone\'s PNG, measured per device');

whole.before(async (ctx) => {
  ctx.rig = await startRig();
  ctx.dir = mkdtempSync(join(tmpdir(), 'mb-whole-png-'));
  await ctx.rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
});
whole.after(async (ctx) => {
  await ctx.rig?.stop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** Saves `count` screenshots; answers the capture command each save sent ('raw' or 'png'). */
async function save(rig: AndroidRig, engine: Engine, dir: string, count: number): Promise<('raw' | 'png')[]> {
  const ways: ('raw' | 'png')[] = [];
  for (let i = 0; i < count; i++) {
    rig.phone.stats.reset();
    const file = join(dir, `shot-${i}.png`);
    await engine.call('mobile_save_screenshot', { device: rig.phone.serial, saveTo: file });
    const captures = rig.phone.stats.opened.filter((s) => s.startsWith('exec:screencap'));
    assert.is(captures.length, 1, captures.join('\n'));
    ways.push(captures[0].includes('-p') ? 'png' : 'raw');
    await samePictureAsPhone(rig, readFileSync(file));
  }
  return ways;
}

async function samePictureAsPhone(rig: AndroidRig, png: Buffer): Promise<void> {
  const phone = await rig.phone.phone.screenRgba();
  const got = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  assert.equal([got.info.width, got.info.height], [phone.width, phone.height]);
  let sum = 0;
  for (let p = 0, q = 0; p < got.data.length; p += 3, q += 4) sum += Math.abs(got.data[p] - phone.data[q]) + Math.abs(got.data[p + 1] - phone.data[q + 1]) + Math.abs(got.data[p + 2] - phone.data[q + 2]);
  assert.ok(sum / got.data.length < 1, `mean difference ${(sum / got.data.length).toFixed(2)} from the phone's screen`);
}

whole('a phone whose PNG encoder is slow: one try of its PNG, then raw for good', async ({ rig, dir }) => {
  rig!.phone.shell.quirks.screencapDelayMs = { raw: 0, png: 600 };
  try {
    // The first capture warms up (not counted), then each way once: raw is clearly faster.
    assert.equal(await save(rig!, rig!.engineWith({ screencap: 'auto' }), dir, 5), ['raw', 'png', 'raw', 'raw', 'raw']);
  } finally {
    rig!.phone.shell.quirks.screencapDelayMs = { raw: 0, png: 0 };
  }
});

whole('a phone that encodes fast while raw is slow to arrive: its own PNG, with no host encode', async ({ rig, dir }) => {
  rig!.phone.shell.quirks.screencapDelayMs = { raw: 600, png: 0 };
  try {
    assert.equal(await save(rig!, rig!.engineWith({ screencap: 'auto' }), dir, 5), ['raw', 'png', 'raw', 'png', 'png']);
  } finally {
    rig!.phone.shell.quirks.screencapDelayMs = { raw: 0, png: 0 };
  }
});

whole('raw and png modes keep their way for saved screenshots', async ({ rig, dir }) => {
  assert.equal(await save(rig!, rig!.engineWith({ screencap: 'raw' }), dir, 3), ['raw', 'raw', 'raw']);
  assert.equal(await save(rig!, rig!.engineWith({ screencap: 'png' }), dir, 3), ['png', 'png', 'png']);
});

if (hasAdb()) whole.run();
