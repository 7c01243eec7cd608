/**
 * devices.lease that gets nothing says why: a device that is not connected is not "locked or not
 * ready", and a locked one names who holds it, as devices.lock's refusal does.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, IOS, testBridge } from './helpers.js';

const test = suite('devices.lease refusals');

let bridge: Bridge;
test.before.each(async () => {
  ({ bridge } = await testBridge());
});
test.after.each(async () => {
  await bridge.close();
});

type Answer = { device?: string; code?: string; message?: string };

test('a device that is not connected is DEVICE_NOT_FOUND naming the connected ones; a leased one names its holder', async () => {
  const one = await connectBridge(bridge.wsUrl, { client: 'ci-1' });
  const two = await connectBridge(bridge.wsUrl, { client: 'ci-2' });
  try {
    const typo = (await two.requestRaw('devices.lease', { device: 'virtual-andriod-1' })) as Answer;
    assert.is(typo.code, 'DEVICE_NOT_FOUND', JSON.stringify(typo));
    assert.match(typo.message!, 'device "virtual-andriod-1" not found; connected devices: virtual-android-1, virtual-ios-1');

    const first = (await one.requestRaw('devices.lease', { platform: 'android' })) as Answer;
    assert.is(first.device, ANDROID);
    for (const ask of [{ platform: 'android' }, { device: ANDROID }]) {
      const busy = (await two.requestRaw('devices.lease', ask)) as Answer;
      assert.is(busy.code, 'TIMEOUT', JSON.stringify(busy));
      assert.match(busy.message!, `${ANDROID} locked by session ${one.session} (ci-1)`);
      assert.not.match(busy.message!, 'none is ready');
    }
  } finally {
    await one.close();
    await two.close();
  }
});

test('a device named with a platform it is not on is refused at once; with its own platform or any it is leased', async () => {
  const ci = await connectBridge(bridge.wsUrl, { client: 'ci' });
  try {
    const wrong = (await ci.requestRaw('devices.lease', { device: IOS, platform: 'android', timeout_ms: 60_000 })) as Answer;
    assert.is(wrong.code, 'INVALID_PARAMETER', JSON.stringify(wrong));
    assert.match(wrong.message!, `device ${IOS} is an iOS device, not android; drop platform, or name an Android device`);
    assert.is(bridge.locks.holder(IOS), undefined, 'nothing was leased');
    assert.is(((await ci.requestRaw('devices.lease', { device: IOS, platform: 'ios' })) as Answer).device, IOS);
    assert.is(((await ci.requestRaw('devices.lease', { device: ANDROID, platform: 'any' })) as Answer).device, ANDROID);
  } finally {
    await ci.close();
  }
});

test('first come, first served across kinds of lease: a later "any" waiter leaves the phone to an earlier "android" one', async () => {
  const holder = await connectBridge(bridge.wsUrl, { client: 'holder' });
  const early = await connectBridge(bridge.wsUrl, { client: 'early-android' });
  const late = await connectBridge(bridge.wsUrl, { client: 'late-any' });
  try {
    assert.is(((await holder.requestRaw('devices.lease', { platform: 'android' })) as Answer).device, ANDROID);
    assert.is(((await holder.requestRaw('devices.lease', { platform: 'ios' })) as Answer).device, IOS);
    const first = early.requestRaw('devices.lease', { platform: 'android', timeout_ms: 4000 }) as Promise<Answer>;
    await new Promise((r) => setTimeout(r, 100));
    const second = late.requestRaw('devices.lease', { platform: 'any', timeout_ms: 1500 }) as Promise<Answer>;
    await new Promise((r) => setTimeout(r, 150));
    await holder.request('devices.unlock', { device: ANDROID });
    const [got, refused] = await Promise.all([first, second]);
    assert.is(got.device, ANDROID, JSON.stringify(got));
    assert.is(refused.code, 'TIMEOUT', JSON.stringify(refused));
    assert.match(refused.message!, `${ANDROID} locked by session ${early.session} (early-android)`);
  } finally {
    await holder.close();
    await early.close();
    await late.close();
  }
});

test.run();
