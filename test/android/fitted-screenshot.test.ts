import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Engine } from '../../src/engine/engine.js';
import type { AndroidDevice } from '../../src/engine/drivers/android/android-device.js';
import { DEMO_PACKAGE } from '../../src/engine/drivers/virtual/index.js';
import { isToolFailure } from '../../src/engine/errors.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import type { ScaledShot, ScaleOptions } from '../../src/engine/screen/scale.js';
import { hasAdb, startRig, type AndroidRig } from './setup.js';

const fitted = suite<{ rig?: AndroidRig }>('android MCP screenshots: shrunk on the way, raw or PNG chosen per device');

fitted.before(async (ctx) => {
  ctx.rig = await startRig();
  await ctx.rig.call('mobile_launch_app', { packageName: DEMO_PACKAGE });
});
fitted.after(async (ctx) => {
  await ctx.rig?.stop();
});

async function shot(engine: Engine, device: string, options: ScaleOptions = {}): Promise<ScaledShot> {
  // Not closed: the rig closes its engines.
  const s = await new LocalBackend(engine).screenshot(device, options);
  if (isToolFailure(s)) throw new Error(`${s.code}: ${s.message}`);
  return s;
}

/** Mean absolute difference per channel between the screenshot and the phone's screen resized by sharp. */
async function differenceFromPhone(rig: AndroidRig, s: ScaledShot): Promise<number> {
  const phone = await rig.phone.phone.screenRgba();
  const want = await sharp(phone.data, { raw: { width: phone.width, height: phone.height, channels: 4 } })
    .removeAlpha().resize(s.width, s.height, { fit: 'fill' }).raw().toBuffer();
  const got = await sharp(Buffer.from(s.data, 'base64')).removeAlpha().raw().toBuffer();
  assert.is(got.length, want.length);
  let sum = 0;
  for (let i = 0; i < got.length; i++) sum += Math.abs(got[i] - want[i]);
  return sum / got.length;
}

const handle = (engine: Engine, serial: string) => engine.withDevice(serial, 'inspect', async (d) => d as AndroidDevice);

fitted('raw: streamed and shrunk on the way; the picture is the phone\'s screen; max_size and the byte budget hold', async ({ rig }) => {
  const engine = rig!.engineWith({ screencap: 'raw' });
  const serial = rig!.phone.serial;
  for (const maxSize of [1280, 1000, 333, 160]) {
    for (const format of ['jpeg', 'png'] as const) {
      const s = await shot(engine, serial, { maxSize, format });
      assert.ok(s.width <= maxSize && s.height <= maxSize, `max_size ${maxSize} ${format}: ${s.width}×${s.height}`);
      assert.equal([s.deviceWidth, s.deviceHeight], [1080, 2400]);
      const meta = await sharp(Buffer.from(s.data, 'base64')).metadata();
      assert.equal([meta.width, meta.height, meta.format], [s.width, s.height, format]);
      const diff = await differenceFromPhone(rig!, s);
      assert.ok(diff < 4, `max_size ${maxSize} ${format}: mean difference ${diff.toFixed(2)} from the phone's screen`);
    }
  }
  const small = await shot(engine, serial, { budget: 12_000 });
  assert.ok(small.data.length <= 12_000, `${small.data.length} base64 characters`);
  assert.ok(!rig!.phone.stats.opened.some((s) => s.includes('screencap -p')), 'never asked the phone for a PNG');
});

fitted('auto: measures raw and PNG on the first screenshots, then keeps one; both give the same picture', async ({ rig }) => {
  const engine = rig!.engineWith({ screencap: 'auto' });
  const serial = rig!.phone.serial;
  rig!.phone.stats.reset();
  const shots: ScaledShot[] = [];
  for (let i = 0; i < 5; i++) shots.push(await shot(engine, serial));
  const opened = rig!.phone.stats.opened.filter((s) => s.startsWith('exec:screencap'));
  // The first raw capture warms up; then PNG and raw alternate until one wins (clearly after one each, else after two).
  assert.ok(opened[0].startsWith('exec:screencap 2>') && opened[1].includes('-p') && !opened[2].includes('-p'), opened.join('\n'));
  assert.equal(opened.length, 5, opened.join('\n'));
  const choice = (await handle(engine, serial)).captureChoice;
  assert.ok(choice.decided === 'raw' || choice.decided === 'png', `decided ${choice.decided}`);
  for (const s of shots) {
    // The default size: exactly half (scale.ts fittingScale), the area scaler's 2× loop on the raw way.
    assert.equal([s.width, s.height, s.deviceWidth, s.deviceHeight], [540, 1200, 1080, 2400]);
    assert.ok((await differenceFromPhone(rig!, s)) < 4);
  }
  rig!.phone.stats.reset();
  await shot(engine, serial);
  const way = rig!.phone.stats.opened.find((s) => s.startsWith('exec:screencap'))!;
  assert.is(way.includes('-p'), choice.decided === 'png', `${way} after choosing ${choice.decided}`);
});

fitted('a panel larger than wm size: the screenshot maps onto the logical size', async ({ rig }) => {
  rig!.phone.shell.quirks.wmOverride = { width: 720, height: 1600 };
  // Android 11: captures are the panel's pixels whatever the override (from 12 they come at its size).
  rig!.phone.shell.quirks.release = { version: '11', sdk: 30 };
  try {
    const engine = rig!.engineWith({ screencap: 'raw' });
    for (let i = 0; i < 2; i++) {
      const s = await shot(engine, rig!.phone.serial, { maxSize: 1280 });
      assert.equal([s.deviceWidth, s.deviceHeight, s.width, s.height], [720, 1600, 576, 1280]);
      assert.ok((await differenceFromPhone(rig!, s)) < 4);
    }
  } finally {
    rig!.phone.shell.quirks.wmOverride = undefined;
    rig!.phone.shell.quirks.release = undefined;
  }
});

fitted('png: an unchanged screen is captured again but not decoded again; a changed one is', async ({ rig }) => {
  const engine = rig!.engineWith({ screencap: 'png' });
  const serial = rig!.phone.serial;
  const backend = new LocalBackend(engine);
  const take = async () => {
    const s = await backend.screenshot(serial, {});
    if (isToolFailure(s)) throw new Error(`${s.code}: ${s.message}`);
    return s;
  };
  const first = await take();
  rig!.phone.stats.reset();
  const second = await take();
  assert.equal(rig!.phone.stats.opened.filter((s) => s.startsWith('exec:screencap -p')).length, 1, 'asked the phone again');
  assert.is(backend.shots.hits, 1);
  assert.is(second.data, first.data);
  await engine.call('mobile_press_button', { device: serial, button: 'HOME' });
  const home = await take();
  assert.is(backend.shots.hits, 1, 'the home screen is new');
  assert.is.not(home.data, first.data);
  assert.ok((await differenceFromPhone(rig!, home)) < 4);
  await engine.call('mobile_launch_app', { device: serial, packageName: DEMO_PACKAGE });
});

if (hasAdb()) fitted.run();
