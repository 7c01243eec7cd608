import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';

/**
 * A call on a device that is not there (a mistyped or guessed id, a phone since unplugged) leaves
 * nothing behind: the engine that kept each such id's "last action" for `others_acted` grew for
 * as long as it ran, one entry per id ever tried.
 */
type Inner = { reports: { activity: { recent: Map<string, unknown>; seen: Map<string, unknown> } } };

test('mutating calls and keys on unknown devices are not remembered as device activity', async () => {
  const engine = createEngine({ virtual: { devices: ['android'] }, android: false, ios: false });
  const inner = engine as unknown as Inner;
  try {
    for (let i = 0; i < 10; i++) {
      const res = (await engine.call('mobile_press_button', { device: `no-such-phone-${i}`, button: 'HOME' }, { origin: 'agent' })) as { code?: string };
      assert.is(res.code, 'DEVICE_NOT_FOUND');
      const key = await engine.pressKey(`no-such-tablet-${i}`, 'ENTER', { origin: 'agent' });
      assert.is((key as { code?: string }).code, 'DEVICE_NOT_FOUND');
    }
    assert.is(inner.reports.activity.recent.size, 0, 'no device history for ids that name no device');
    assert.is(inner.reports.activity.seen.size, 0);
    // A real device is still remembered, and others still hear of it.
    await engine.call('mobile_press_button', { device: 'virtual-android-1', button: 'HOME' }, { origin: 'a' });
    await engine.call('mobile_press_button', { device: 'virtual-android-1', button: 'HOME' }, { origin: 'b' });
    assert.is(engine.othersActed('virtual-android-1', 'a')?.actions.length, 1);
  } finally {
    await engine.close();
  }
});

test.run();
