import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../../src/engine/create.js';
import { ANDROID_PROFILE } from '../../../src/engine/drivers/virtual/profile.js';
import { RenderPool, renderPool } from '../../../src/engine/drivers/virtual/render-pool.js';
import { VirtualDevice } from '../../../src/engine/drivers/virtual/virtual-device.js';
import { ManualClock } from '../../../src/engine/drivers/virtual/index.js';

const test = suite('virtual phone renderer threads');

function phone(): VirtualDevice {
  return new VirtualDevice(ANDROID_PROFILE, undefined, { clock: new ManualClock(Date.UTC(2026, 0, 5, 9, 30)) });
}

/** Warnings the pool emits, collected while `work` runs (they still reach stderr as usual). */
async function warningsDuring<T>(work: () => Promise<T>): Promise<{ result: T; warnings: string[] }> {
  const warnings: string[] = [];
  const listener = (w: Error) => {
    if (w.name === 'MobilebridgeRenderWarning') warnings.push(w.message);
  };
  process.on('warning', listener);
  try {
    const result = await work();
    // Warnings are emitted on the next tick.
    await new Promise((r) => setImmediate(r));
    return { result, warnings };
  } finally {
    process.off('warning', listener);
  }
}

const frameOf = (p: VirtualDevice) => (p as unknown as { phone: { frame(): never } }).phone.frame();

test('a thread that dies mid-frame is reported, replaced, and the frame is drawn again', async () => {
  const pool = new RenderPool(1);
  try {
    const p = phone();
    const { result, warnings } = await warningsDuring(async () => {
      const drawing = pool.render(p.id, frameOf(p), ANDROID_PROFILE, false, { rgba: true, png: true });
      assert.is(pool.pending, 1);
      await pool.killThread(0);
      return drawing;
    });
    assert.is(pool.stats.crashes, 1);
    assert.match(pool.stats.lastCrash!, /renderer thread 0 died \(it exited with code \d+\) with 1 frame\(s\) in progress; a new thread took over/);
    assert.is(warnings.length, 1);
    assert.equal([result.width, result.height, result.rgba!.length], [1080, 2400, 1080 * 2400 * 4]);
    const meta = await sharp(result.png!).metadata();
    assert.equal([meta.width, meta.height], [1080, 2400]);
    // The pixels are those of the phone drawn without threads.
    const local = await p.screenRgba();
    assert.ok(local.data.equals(result.rgba!));
  } finally {
    await pool.close();
  }
});

test('a frame whose thread dies twice fails with the reason; the next frame is drawn', async () => {
  const pool = new RenderPool(1);
  try {
    const p = phone();
    const drawing = pool.render(p.id, frameOf(p), ANDROID_PROFILE, false, { rgba: true });
    const failed = drawing.then(
      () => undefined,
      (err: Error) => err,
    );
    await pool.killThread(0);
    // The replacement thread is still loading its modules: end it too.
    await pool.killThread(0);
    const err = await failed;
    assert.ok(err instanceof Error, 'the frame failed');
    assert.match(err.message, /renderer thread died twice while drawing this frame .*retry the call/);
    assert.is(pool.stats.crashes, 2);
    assert.is(pool.pending, 0);
    const next = await pool.render(p.id, frameOf(p), ANDROID_PROFILE, false, { png: true });
    assert.ok(next.png!.length > 1000);
  } finally {
    await pool.close();
  }
});

test('a screenshot tool call survives a renderer crash on the shared pool', async () => {
  const engine = createEngine({ virtual: { devices: ['android'] }, android: false, ios: false });
  try {
    const before = renderPool.stats.crashes;
    await engine.call('mobile_open_url', { device: 'virtual-android-1', url: 'mbdemo://screen/signin' });
    const call = engine.call('mobile_take_screenshot', { device: 'virtual-android-1' });
    const until = Date.now() + 10_000;
    while (renderPool.pending === 0 && Date.now() < until) await new Promise((r) => setImmediate(r));
    assert.is(renderPool.pending, 1, 'the frame is being drawn on a thread');
    for (let slot = 0; slot < renderPool.threads; slot++) await renderPool.killThread(slot);
    const shot = (await call) as { image?: string; dimensions?: { width: number } };
    assert.ok(shot.image, JSON.stringify(shot).slice(0, 200));
    assert.is(shot.dimensions!.width, 1080);
    assert.is(renderPool.stats.crashes, before + 1);
  } finally {
    await engine.close();
  }
});

test.run();
