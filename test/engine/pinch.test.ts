import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { ToolError } from '../../src/engine/errors.js';
import { pinchFingers } from '../../src/engine/tools/pinch-tool.js';
import { translateRawCall } from '../../src/engine/verbs/recording-tools.js';
import type { FingerPath, UiElement } from '../../src/engine/types.js';

const SCREEN = { width: 1080, height: 2400 };
const span = (f: readonly FingerPath[], end: 'from' | 'to') => Math.hypot(f[0][end].x - f[1][end].x, f[0][end].y - f[1][end].y);
const inside = (p: { x: number; y: number }) => p.x >= 0 && p.y >= 0 && p.x < SCREEN.width && p.y < SCREEN.height;

test('pinch geometry: the scale is the ratio of the spans, on the roomier axis, inside the screen', () => {
  const spread = pinchFingers({ x: 540, y: 1200 }, 2, SCREEN);
  assert.ok(Math.abs(span(spread, 'to') / span(spread, 'from') - 2) < 0.01, JSON.stringify(spread));
  assert.is(spread[0].from.x, 540, 'a portrait phone has more room up and down');
  const pinch = pinchFingers({ x: 540, y: 1200 }, 0.5, SCREEN);
  assert.ok(Math.abs(span(pinch, 'to') / span(pinch, 'from') - 0.5) < 0.01);
  for (const f of [...spread, ...pinch]) assert.ok(inside(f.from) && inside(f.to), JSON.stringify(f));
  const nearLeft = pinchFingers({ x: 200, y: 300 }, 3, SCREEN);
  for (const f of nearLeft) assert.ok(f.from.x >= 24 && f.to.x >= 24 && f.from.y >= 24, 'clear of the edges where system gestures start');
  assert.throws(() => pinchFingers({ x: 30, y: 20 }, 2, SCREEN), (err: ToolError) => err.code === 'INVALID_PARAMETER' && /too close to the screen edge/.test(err.message));
  assert.throws(() => pinchFingers({ x: 100, y: 100 }, 5, SCREEN), (err: ToolError) => err.code === 'INVALID_PARAMETER' && /fingertips closer than 48 px touch/.test(err.message));
});

test('virtual phone: spreading on the photo zooms it, pinching zooms out, elsewhere nothing changes', async () => {
  const engine = createEngine({ virtual: { devices: ['android'] } });
  const device = 'virtual-android-1';
  const call = (tool: string, p: Record<string, unknown> = {}) => engine.call(tool, { device, ...p }) as Promise<Record<string, unknown>>;
  const elements = async () => ((await call('mobile_list_elements_on_screen')).elements as UiElement[]);
  try {
    await call('mobile_open_url', { url: 'mbdemo://item/3' });
    const photo = (await elements()).find((e) => e.id === 'detail_image')!;
    assert.ok(photo, 'the detail screen shows the photo');
    const zoomed = await call('mobile_pinch_on_screen', { ...photo.center, scale: 2 });
    assert.is(zoomed.status, 'success', JSON.stringify(zoomed));
    assert.match(String(zoomed.message), /^spread two fingers around \(\d+, \d+\) on virtual-android-1: \d+ → \d+ px apart \(zoom in\)$/);
    assert.is((await elements()).find((e) => e.id === 'zoom_level')?.text, 'Zoom 200 %');
    await call('mobile_pinch_on_screen', { ...photo.center, scale: 5 });
    assert.is((await elements()).find((e) => e.id === 'zoom_level')?.text, 'Zoom 400 %', 'a photo viewer stops at 4×');
    await call('mobile_pinch_on_screen', { ...photo.center, scale: 0.2 });
    assert.not.ok((await elements()).some((e) => e.id === 'zoom_level'), 'back to the fitted photo, never smaller');
    const title = (await elements()).find((e) => e.id === 'detail_title')!;
    const before = JSON.stringify(await elements());
    await call('mobile_pinch_on_screen', { ...title.center, scale: 2 });
    assert.is(JSON.stringify(await elements()), before, 'a pinch on text that does not zoom changes nothing');
    const same = await call('mobile_pinch_on_screen', { ...photo.center, scale: 1 });
    assert.equal([same.code, same.message], ['INVALID_PARAMETER', 'mobile_pinch_on_screen on virtual-android-1: scale 1 moves no finger: use > 1 to zoom in or < 1 to zoom out']);
    const off = await call('mobile_pinch_on_screen', { x: 5000, y: 10, scale: 2 });
    assert.is(off.code, 'INVALID_PARAMETER');
    assert.match(String(off.message), /outside the screen/);
  } finally {
    await engine.close();
  }
});

test('a recording skips a pinch and says why: scenarios have no pinch step', () => {
  const event = { device: 'd', tool: 'mobile_pinch_on_screen', parameters: { x: 540, y: 600, scale: 2 }, result: {}, ok: true, mutates: true, durationMs: 5 };
  assert.equal(translateRawCall(event, []), { skipped: 'a pinch (×2): scenarios have no pinch step, so a replay will not zoom there' });
});

test.run();
