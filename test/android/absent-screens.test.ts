import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AndroidDevice } from '../../src/engine/drivers/android/android-device.js';
import type { Engine } from '../../src/engine/engine.js';
import { isToolFailure } from '../../src/engine/errors.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

/** The screen side on a device that lacks commands a phone has (absent-commands.ts, quirks rawScreencap and absent). */
const absent = suite<{ rig?: AndroidRig }>('android screens on a device that lacks commands');

absent.before(async (ctx) => {
  ctx.rig = await startRig();
});
absent.after(async (ctx) => {
  await ctx.rig?.stop();
});
absent.after.each(({ rig }) => {
  const quirks = rig!.phone.shell.quirks;
  delete quirks.rawScreencap;
  quirks.absent.clear();
});

const handle = (engine: Engine, serial: string) => engine.withDevice(serial, 'inspect', async (d) => d as AndroidDevice);
const rawAsked = (rig: AndroidRig) => rig.phone.stats.opened.filter((s) => /^exec:screencap( -d \S+)? 2>/.test(s)).length;

for (const kind of ['png', 'refused'] as const) {
  absent(`raw screencap answered ${kind === 'png' ? 'with a PNG' : 'with a usage error'}: agents' screenshots, saved ones and viewer frames are the phone's PNG, and raw is not asked again`, async ({ rig }) => {
    rig!.phone.shell.quirks.rawScreencap = kind;
    const serial = rig!.phone.serial;
    const dir = await mkdtemp(join(tmpdir(), 'mb-absent-'));
    try {
      for (const screencap of ['auto', 'raw'] as const) {
        const engine = rig!.engineWith({ screencap });
        const before = rawAsked(rig!);
        const shot = await new LocalBackend(engine).screenshot(serial, { maxSize: 400 });
        if (isToolFailure(shot)) throw new Error(`${shot.code}: ${shot.message}`);
        assert.equal([shot.deviceWidth, shot.deviceHeight], [1080, 2400]);
        const file = join(dir, `${screencap}.png`);
        assert.equal(await engine.call('mobile_save_screenshot', { device: serial, saveTo: file }), { status: 'success', path: file });
        assert.equal((await sharp(await readFile(file)).metadata()).width, 1080);
        const frame = await engine.withDevice(serial, 'frame', (d, ctx) => d.screenshotRaw!(ctx));
        assert.equal([frame.width, frame.height, frame.data.length], [1080, 2400, 1080 * 2400 * 4]);
        await new LocalBackend(engine).screenshot(serial, { maxSize: 400 });
        assert.is(rawAsked(rig!) - before, 1, 'raw screencap asked once on this device');
        assert.match((await handle(engine, serial)).captureChoice.rawRefusal ?? '', /instead of a raw frame/);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}

if (hasAdb()) absent.run();
