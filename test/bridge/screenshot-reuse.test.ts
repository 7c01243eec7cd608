import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import type { RawImage } from '../../src/engine/driver.js';
import { isToolFailure } from '../../src/engine/errors.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import type { ScaledShot } from '../../src/engine/screen/scale.js';
import sharp from 'sharp';
import { ANDROID, RawClient, testBridge, until } from './helpers.js';

const test = suite<{ bridge: Bridge; viewer: RawClient; agent: LocalBackend; deviceCaptures: () => number }>('agent screenshots reuse fresh viewer captures');

test.before.each(async (ctx) => {
  ctx.bridge = (await testBridge()).bridge;
  const engine = ctx.bridge.engine;
  // Counts what reaches the phone, whoever asks: the frame loop or a screenshot.
  let captures = 0;
  await engine.withDevice(ANDROID, 'spy', async (device) => {
    const raw = device.screenshotRaw!.bind(device);
    device.screenshotRaw = (c) => ((captures++), raw(c)) as Promise<RawImage>;
  });
  ctx.deviceCaptures = () => captures;
  // An agent in the bridge's process (the engine is the bridge's; the bridge closes it).
  ctx.agent = new LocalBackend(engine);
  ctx.viewer = await RawClient.open(ctx.bridge.wsUrl);
  await ctx.viewer.call('tools.call', { tool: 'mobile_open_url', parameters: { device: ANDROID, url: 'mbdemo://screen/home' } });
});

async function watch(viewer: RawClient, maxFps: number): Promise<void> {
  await viewer.call('devices.subscribe', { device: ANDROID, screen: { format: 'jpeg', maxWidth: 540, maxFps } });
  await until('a frame', () => viewer.frames[0]);
}

test.after.each(async (ctx) => {
  await ctx.viewer.close();
  await ctx.bridge.close();
});

async function screenshot(agent: LocalBackend): Promise<ScaledShot> {
  const s = await agent.screenshot(ANDROID, {});
  if (isToolFailure(s)) throw new Error(s.message);
  return s;
}

async function pixels(s: ScaledShot): Promise<Buffer> {
  return sharp(Buffer.from(s.data, 'base64')).removeAlpha().raw().toBuffer();
}

/**
 * Right after the frame loop's next capture, takes a screenshot with `take`: whether it reused
 * that capture, how many captures had reached the phone just before, and what `take` gave.
 */
async function rightAfterLoopCapture<T>(bridge: Bridge, deviceCaptures: () => number, take: () => Promise<T>): Promise<{ reused: boolean; captures: number; shot: T }> {
  const latest = bridge.engine.latestCaptures;
  const stored = latest.stats.stored;
  await until('the next loop capture', () => latest.stats.stored > stored, 5000);
  const captures = deviceCaptures();
  const reused = latest.stats.reused;
  const shot = await take();
  return { reused: latest.stats.reused === reused + 1, captures, shot };
}

function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return sum / a.length;
}

test('while a viewer watches, a screenshot takes the frame loop\'s capture instead of capturing again', async ({ bridge, viewer, agent, deviceCaptures }) => {
  const latest = bridge.engine.latestCaptures;
  // One capture a second: right after one, nothing else captures while the screenshot runs.
  await watch(viewer, 1);
  let reusedOnce = false;
  for (let attempt = 0; attempt < 10 && !reusedOnce; attempt++) {
    const { reused, captures } = await rightAfterLoopCapture(bridge, deviceCaptures, () => screenshot(agent));
    // Under heavy load the capture may already be older than the bound: then the screenshot captured.
    reusedOnce = reused;
    if (reusedOnce) assert.is(deviceCaptures(), captures, 'the reused screenshot did not reach the phone');
    else assert.is(deviceCaptures(), captures + 1);
  }
  assert.ok(reusedOnce, `no screenshot reused a capture (${JSON.stringify(latest.stats)})`);
});

test('over the bridge, mobile_take_screenshot takes a fresh frame-loop capture too (agents with --bridge)', async ({ bridge, viewer, deviceCaptures }) => {
  const latest = bridge.engine.latestCaptures;
  await watch(viewer, 1);
  let reusedOnce = false;
  for (let attempt = 0; attempt < 10 && !reusedOnce; attempt++) {
    const { reused, captures, shot } = await rightAfterLoopCapture(bridge, deviceCaptures, () => viewer.call('tools.call', { tool: 'mobile_take_screenshot', parameters: { device: ANDROID } }));
    reusedOnce = reused;
    if (!reusedOnce) continue;
    assert.is(deviceCaptures(), captures, 'the reused screenshot did not reach the phone');
    // Still the screen: the same pixels as the phone renders now.
    const image = Buffer.from(shot.image as string, 'base64');
    assert.is((await sharp(image).metadata()).format, 'png');
    const phone = await bridge.engine.withDevice(ANDROID, 'compare', async (d) => (await d.screenshot({ signal: new AbortController().signal })).png);
    const [a, b] = await Promise.all([sharp(image).removeAlpha().raw().toBuffer(), sharp(phone).removeAlpha().raw().toBuffer()]);
    assert.ok(a.equals(b), 'reused screenshot pixels equal the phone\'s screen');
  }
  assert.ok(reusedOnce, `no mobile_take_screenshot reused a capture (${JSON.stringify(latest.stats)})`);
});

test('after an action, the screenshot shows the new screen: captures from before it are never reused', async ({ bridge, viewer, agent }) => {
  const engine = bridge.engine;
  await watch(viewer, 30);
  const home = await pixels(await screenshot(agent));
  for (const url of ['mbdemo://screen/settings', 'mbdemo://screen/home', 'mbdemo://screen/inbox']) {
    // Queued back to back, the screenshot runs right after the action and before the loop's next
    // capture (which the action's event triggers): only a kept capture from before could answer it.
    await until('a fresh loop capture', () => engine.latestCaptures.fresh(ANDROID));
    const [r, after] = await Promise.all([engine.call('mobile_open_url', { device: ANDROID, url }), screenshot(agent)]);
    assert.is((r as { status: string }).status, 'success', JSON.stringify(r));
    const now = await pixels(await screenshot(agent));
    const got = await pixels(after);
    assert.ok(meanDifference(got, now) < 2, `${url}: the screenshot right after the action equals the screen a moment later (${meanDifference(got, now).toFixed(2)})`);
    if (url !== 'mbdemo://screen/home') assert.ok(meanDifference(got, home) > 5, `${url}: the screenshot is not the home screen from before`);
  }
});

test.run();
