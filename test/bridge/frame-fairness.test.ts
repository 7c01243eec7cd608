import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { ANDROID, RawClient, testBridge } from './helpers.js';

/** One client must not take the frame pipeline from the others (protocol audit). */
const test = suite('frames: one session cannot starve the others');

let bridge: Bridge;
test.before.each(async () => {
  ({ bridge } = await testBridge({ frameStallMs: 60_000 }));
});
test.after.each(async () => {
  await bridge.close();
});

test('a session holds at most max_screen_subscriptions screens per device; elements-only and other sessions are not counted', async () => {
  const hog = await RawClient.open(bridge.wsUrl);
  const other = await RawClient.open(bridge.wsUrl);
  try {
    const hello = await hog.call('session.hello', {});
    const max = (hello.limits as { max_screen_subscriptions: number }).max_screen_subscriptions;
    assert.is(max, 4);
    for (let i = 0; i < max; i++) {
      const ok = await hog.call('devices.subscribe', { device: ANDROID, screen: { format: 'jpeg', maxWidth: 300 + i } });
      assert.ok(ok.subscription, JSON.stringify(ok));
    }
    const refused = await hog.call('devices.subscribe', { device: ANDROID, screen: { format: 'png', maxWidth: 1000 } });
    assert.equal([refused.status, refused.code], ['error', 'INVALID_PARAMETER']);
    assert.match(String(refused.message), /already holds 4 screen subscriptions to virtual-android-1.*unsubscribe one with devices\.unsubscribe/);
    assert.ok((await hog.call('devices.subscribe', { device: ANDROID, elements: true })).subscription, 'elements are not encoded frames');
    assert.ok((await other.call('devices.subscribe', { device: ANDROID, screen: { format: 'jpeg' } })).subscription, 'another session has its own count');
  } finally {
    await hog.close();
    await other.close();
  }
});

test.run();
