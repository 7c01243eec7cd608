import assert from 'node:assert/strict';
import sharp from 'sharp';
import { test } from 'uvu';
import { paletteFor } from '../../../src/engine/drivers/virtual/theme.js';
import type { UiElement } from '../../../src/engine/types.js';
import { byId, ctx, DEMO, setup, signIn, tapId } from './helpers.js';

async function pixel(png: Buffer, x: number, y: number): Promise<string> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.floor(y) * info.width + Math.floor(x)) * 4;
  return `#${[data[at], data[at + 1], data[at + 2]].map((v) => v.toString(16).padStart(2, '0')).join('').toUpperCase()}`;
}

/** A point inside the element's filled shape but away from its label and rounded ends. */
const fillPoint = (e: UiElement) => ({ x: e.x + Math.round(e.width * 0.15), y: e.y + Math.round(e.height / 2) });

for (const platform of ['android', 'ios'] as const) {
  test(`${platform}: screenshot is a PNG whose size equals the screen size`, async () => {
    const { [platform]: device } = setup();
    const shot = await device.screenshot(ctx);
    const meta = await sharp(shot.png).metadata();
    const size = await device.screenSize(ctx);
    assert.equal(meta.format, 'png');
    assert.deepEqual({ width: meta.width, height: meta.height }, size);
    assert.deepEqual({ width: shot.width, height: shot.height }, size);
    assert.deepEqual(size, platform === 'android' ? { width: 1080, height: 2400 } : { width: 1179, height: 2556 });
    assert.equal(device.scale, platform === 'android' ? 2.625 : 3);
  });

  test(`${platform}: pixels inside a button's bounds have the button's colour; its edges line up with the bounds`, async () => {
    const { [platform]: device } = setup();
    await device.launchApp(DEMO, ctx);
    await tapId(device, 'email');
    await device.typeText('demo@example.com', ctx);
    await tapId(device, 'password');
    await device.typeText('secret123', ctx);
    const button = await byId(device, 'sign_in');
    const { png } = await device.screenshot(ctx);
    const primary = paletteFor(platform, false).primary;
    const p = fillPoint(button);
    assert.equal(await pixel(png, p.x, p.y), primary);
    assert.equal(await pixel(png, button.x + button.width / 2, button.y + 2), primary, 'top edge row is drawn');
    assert.equal(await pixel(png, button.x + button.width / 2, button.y + button.height - 1), primary, 'bottom edge row is drawn');
    assert.notEqual(await pixel(png, button.x + button.width / 2, button.y - 1), primary, 'nothing drawn above the bounds');
    assert.notEqual(await pixel(png, button.x + button.width / 2, button.y + button.height), primary, 'nothing drawn below the bounds');
  });

  test(`${platform}: screenRgba carries the same pixels as the PNG`, async () => {
    const { [platform]: device } = setup();
    const { png } = await device.screenshot(ctx);
    const raw = await device.screenRgba();
    const decoded = await sharp(png).ensureAlpha().raw().toBuffer();
    assert.equal(raw.data.length, raw.width * raw.height * 4);
    assert.ok(decoded.equals(raw.data));
  });

  test(`${platform}: rotation swaps width and height and re-lays the screen out`, async () => {
    const { [platform]: device, clock } = setup();
    await signIn(device, clock);
    const portraitItems = (await device.listElements(ctx)).filter((e) => e.type === 'listitem');
    await device.setOrientation('landscape', ctx);
    assert.equal(await device.getOrientation(ctx), 'landscape');
    const size = await device.screenSize(ctx);
    assert.deepEqual(size, platform === 'android' ? { width: 2400, height: 1080 } : { width: 2556, height: 1179 });
    const shot = await device.screenshot(ctx);
    assert.deepEqual({ width: shot.width, height: shot.height }, size);
    const landscapeItems = (await device.listElements(ctx)).filter((e) => e.type === 'listitem');
    assert.ok(landscapeItems.length < portraitItems.length, 'fewer rows fit in landscape');
    assert.equal(landscapeItems[0].width, size.width, 'rows span the wider screen');
    for (const e of await device.listElements(ctx)) {
      assert.ok(e.x >= 0 && e.y >= 0 && e.x + e.width <= size.width && e.y + e.height <= size.height, `${e.id} inside the screen`);
    }
    await device.setOrientation('portrait', ctx);
    assert.deepEqual(await device.screenSize(ctx), { width: size.height, height: size.width });
  });

  test(`${platform}: dark mode changes the rendering`, async () => {
    const { [platform]: device, clock } = setup();
    await signIn(device, clock);
    const light = await device.screenshot(ctx);
    await tapId(device, 'action_settings');
    await tapId(device, 'dark_mode_switch');
    await tapId(device, platform === 'android' ? 'navigate_up' : 'BackButton');
    const dark = await device.screenshot(ctx);
    const list = await byId(device, 'items');
    const corner = { x: list.x + list.width - 10, y: list.y + 10 };
    assert.equal(await pixel(light.png, corner.x, corner.y), paletteFor(platform, false).background);
    assert.equal(await pixel(dark.png, corner.x, corner.y), paletteFor(platform, true).background);
  });
}

test('screenshot timing: cached repeat and fresh 1080x2400 renders (reported, loosely bounded)', async () => {
  const { android, clock } = setup();
  await signIn(android, clock);
  const fresh: number[] = [];
  const cached: number[] = [];
  const { width, height } = await android.screenSize(ctx);
  for (let i = 0; i < 8; i++) {
    await android.swipe(width / 2, height * 0.6, width / 2, height * 0.5, 100, ctx);
    let t = performance.now();
    await android.screenshot(ctx);
    fresh.push(performance.now() - t);
    t = performance.now();
    await android.screenshot(ctx);
    cached.push(performance.now() - t);
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  console.log(`  screenshot 1080x2400: fresh median ${median(fresh).toFixed(1)} ms, cached median ${median(cached).toFixed(2)} ms`);
  assert.ok(median(cached) < 5, 'unchanged screen is served from the cache');
  assert.ok(median(fresh) < 400, 'fresh render within a loose bound (shared CI machine)');
});

test.run();
