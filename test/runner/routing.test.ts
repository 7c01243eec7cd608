import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { routeScenarios, runOnDevices, type PlannedRun } from '../../src/engine/runner/index.js';
import type { DeviceLookup } from '../../src/engine/engine.js';
import type { DeviceInfo } from '../../src/engine/types.js';
import { rig, scenario } from './harness.js';

/** A listing whose ids are all literal (no sources renaming): the engine's lookup reduces to this. */
const literal = (devices: DeviceInfo[]): DeviceLookup => ({ devices, find: (id) => devices.find((d) => d.id === id), key: (id) => id });

const DEVICES: DeviceInfo[] = [
  { id: 'pixel-off', os: 'Android', model: 'Pixel', version: '14', state: 'offline' },
  { id: 'pixel', os: 'Android', model: 'Pixel', version: '14', state: 'ready' },
  { id: 'iphone', os: 'iOS', model: 'iPhone', version: '17', state: 'ready' },
  { id: 'pixel-2', os: 'Android', model: 'Pixel', version: '13', state: 'ready' },
];
const LISTED = literal(DEVICES);

test('routing: without names, the first usable device of each scenario platform', () => {
  const r = routeScenarios([{ name: 'a.json', platform: 'ios' }, { name: 'b.json', platform: 'android' }, { name: 'c.json', platform: 'cross-platform' }], LISTED, []);
  assert.equal(r, { ok: true, devices: [{ id: 'iphone', os: 'iOS' }, { id: 'pixel', os: 'Android' }] });
  const none = routeScenarios([{ name: 'a.json', platform: 'ios' }], literal(DEVICES.filter((d) => d.os === 'Android')), []);
  assert.is(none.ok, false);
  if (!none.ok) {
    assert.is(none.kind, 'device');
    assert.match(none.message, /no ios device connected for a\.json/);
  }
});

test('routing: named devices must be connected, and every file needs one of its platform (usage error naming the files)', () => {
  const r = routeScenarios([{ name: 'ios/login.json', platform: 'ios' }, { name: 'b.json', platform: 'android' }], LISTED, ['pixel', 'pixel-2']);
  assert.is(r.ok, false);
  if (!r.ok) {
    assert.is(r.kind, 'usage');
    assert.match(r.message, /no listed device can run ios\/login\.json \(ios\)/);
    assert.match(r.message, /pixel \(Android\), pixel-2 \(Android\)/);
  }
  const gone = routeScenarios([{ name: 'b.json', platform: 'android' }], LISTED, ['pixel', 'nope']);
  assert.ok(!gone.ok && gone.kind === 'device' && /nope/.test(gone.message));
  assert.equal(routeScenarios([{ name: 'b.json', platform: 'cross-platform' }], LISTED, ['iphone', 'iphone']), { ok: true, devices: [{ id: 'iphone', os: 'iOS' }] });
});

test('runOnDevices hands each scenario only to a device of its platform', async () => {
  const r = rig();
  try {
    const android = scenario(r, 'actions_android');
    const cross = scenario(r, 'clear_data_cross');
    const ios = { ...cross, scenario_id: 'clear_data_ios', platform: 'ios' as const };
    const planned: PlannedRun[] = [android, ios, cross, { ...android, scenario_id: 'second_android' }, { ...ios, scenario_id: 'second_ios' }].map((s) => ({
      name: s.scenario_id,
      options: { scenario: s, scenarioDir: r.dir, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'none' },
    }));
    const runs = await runOnDevices({ engine: r.engine, outDir: r.out }, [{ id: 'virtual-ios-1', os: 'iOS' }, { id: 'virtual-android-1', os: 'Android' }], planned);
    const where = Object.fromEntries(runs.map((x) => [x.name, x.document.metadata.device_id]));
    assert.is(where.actions_android, 'virtual-android-1');
    assert.is(where.second_android, 'virtual-android-1');
    assert.is(where.clear_data_ios, 'virtual-ios-1');
    assert.is(where.second_ios, 'virtual-ios-1');
    assert.ok(['virtual-android-1', 'virtual-ios-1'].includes(where.clear_data_cross));
    assert.equal(runs.map((x) => x.name), planned.map((p) => p.name), 'results in input order');
    assert.not.ok(runs.some((x) => /is for .* but/.test(x.document.summary)), 'no platform mismatch');
  } finally {
    await r.close();
  }
});

test.run();
