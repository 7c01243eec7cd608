import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { test } from 'uvu';
import { createEngine } from '../../../src/engine/create.js';
import { ManualClock, VirtualDriver } from '../../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../../src/engine/engine.js';
import { ctx, DEMO } from './helpers.js';

type R = Record<string, any>;
const PAD = 'virtual-ipad-1';

function engineWithIpad(): Engine {
  return createEngine({ virtual: { devices: ['android', 'ios', 'ipad'], clock: new ManualClock(Date.UTC(2026, 0, 5, 9, 30)) }, android: false, ios: false });
}

async function ok(engine: Engine, tool: string, params: R = {}): Promise<R> {
  const r = (await engine.call(tool, { device: PAD, ...params })) as R;
  assert.notEqual(r.status, 'error', `${tool}: ${r.message}`);
  return r;
}

/** Listing, screenshot and size agree, every element lies inside the screen, and a tap on a listed centre hits it. */
async function agrees(engine: Engine, size: { width: number; height: number }, what: string): Promise<R[]> {
  assert.deepEqual(await ok(engine, 'mobile_get_screen_size'), size, what);
  const shot = await ok(engine, 'mobile_take_screenshot');
  const meta = await sharp(Buffer.from(shot.image, 'base64')).metadata();
  assert.deepEqual([meta.width, meta.height], [size.width, size.height], `${what}: screenshot`);
  const { elements } = await ok(engine, 'mobile_list_elements_on_screen');
  assert.ok(elements.length > 0, `${what}: something listed`);
  for (const e of elements as R[]) {
    assert.ok(e.x >= 0 && e.y >= 0 && e.x + e.width <= size.width && e.y + e.height <= size.height, `${what}: ${e.text || e.accessibility_label} inside the screen`);
  }
  return elements;
}

test('the virtual iPad is listed with its model and is made only when asked for', async () => {
  const engine = engineWithIpad();
  try {
    const { devices } = (await engine.call('mobile_list_available_devices', {})) as R;
    assert.deepEqual(devices.find((d: R) => d.id === PAD), { id: PAD, os: 'iOS', model: 'Virtual iPad Pro 13-inch (M4)', version: '17.5', state: 'ready', source: 'virtual' });
    assert.deepEqual(new VirtualDriver().devices.map((d) => d.id), ['virtual-android-1', 'virtual-ios-1']);
  } finally {
    await engine.close();
  }
});

test('the virtual iPad: 2064×2752 px at scale 2; its home screen turns, and taps, listings and screenshots agree both ways', async () => {
  const engine = engineWithIpad();
  try {
    const portrait = await agrees(engine, { width: 2064, height: 2752 }, 'home, portrait');
    assert.ok(portrait.some((e) => e.accessibility_label === 'MobileBridge Demo'), 'the demo app has an icon');
    assert.equal((await ok(engine, 'mobile_set_orientation', { orientation: 'landscape' })).status, 'success');
    assert.deepEqual(await ok(engine, 'mobile_get_orientation'), { orientation: 'landscape' });
    const home = await agrees(engine, { width: 2752, height: 2064 }, 'home, landscape');
    const icon = home.find((e) => e.accessibility_label === 'MobileBridge Demo')!;
    await ok(engine, 'mobile_click_on_screen_at_coordinates', icon.center);
    assert.deepEqual(await ok(engine, 'mobile_get_foreground_app'), { package: DEMO, name: 'MobileBridge Demo' });
    const signin = await agrees(engine, { width: 2752, height: 2064 }, 'demo app, landscape');
    const email = signin.find((e) => e.resource_id === 'email')!;
    await ok(engine, 'mobile_click_on_screen_at_coordinates', email.center);
    await ok(engine, 'mobile_type_keys', { text: 'demo@example.com' });
    const typed = await agrees(engine, { width: 2752, height: 2064 }, 'typing, landscape');
    assert.equal(typed.find((e) => e.resource_id === 'email')!.text, 'demo@example.com');
    await ok(engine, 'mobile_set_orientation', { orientation: 'portrait' });
    await agrees(engine, { width: 2064, height: 2752 }, 'demo app, portrait');
  } finally {
    await engine.close();
  }
});

test('the iPad keeps its own state in the state file beside the phones of a driver that does not make it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-ipad-state-'));
  const stateFile = join(dir, 'phones.json');
  try {
    const withPad = new VirtualDriver({ devices: ['ios', 'ipad'], stateFile });
    const [, pad] = withPad.devices;
    await pad.setOrientation('landscape', ctx);
    await pad.launchApp(DEMO, ctx);
    const phones = new VirtualDriver({ stateFile });
    await phones.device('virtual-ios-1')!.launchApp(DEMO, ctx);
    const saved = JSON.parse(readFileSync(stateFile, 'utf8')).devices;
    assert.equal(saved[PAD].orientation, 'landscape', 'the iPad is kept by a driver without it');
    const again = new VirtualDriver({ devices: ['ipad'], stateFile }).device(PAD)!;
    assert.equal(again.orientation, 'landscape');
    assert.equal(again.foregroundPackage, DEMO);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a model the virtual driver does not have is refused when made, naming the ones it has', () => {
  assert.throws(() => new VirtualDriver({ devices: ['iphone' as 'ios'] }), /devices names "iphone"; the virtual devices are android, ios, ipad/);
});

test('a screen override for the iPad is its own and checked as the others are', () => {
  const pad = new VirtualDriver({ devices: ['ios', 'ipad'], screen: { ipad: { width: 1640, height: 2360 } } });
  assert.deepEqual(pad.devices.map((d) => d.size), [{ width: 1179, height: 2556 }, { width: 1640, height: 2360 }]);
  assert.throws(() => new VirtualDriver({ devices: ['ipad'], screen: { ipad: { density: 0 } } }), /screen\.ipad\.density/);
});

test.run();
