import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { ANDROID, OpenedClients, RawClient, testBridge } from './helpers.js';

/**
 * The per-session cap did nothing against one client with many connections: sixty distinct
 * encodings over fifteen sessions took a viewer from 30 to 6 fps (audit 24, b3 #3). The distinct
 * encodings of a device are now bounded over all sessions.
 */
const test = suite('frames: distinct encodings per device are bounded over all sessions');

let bridge: Bridge | undefined;
const clients = new OpenedClients();

test.after.each(async () => {
  await clients.closeAll();
  await bridge?.close();
  bridge = undefined;
});

function client(): Promise<RawClient> {
  return clients.open(bridge!.wsUrl);
}

test('past max_screen_encodings a new encoding is refused whichever session asks; an existing one is shared', async () => {
  ({ bridge } = await testBridge({ frameStallMs: 60_000 }));
  const viewer = await client();
  const hello = await viewer.call('session.hello', {});
  const max = (hello.limits as { max_screen_encodings: number }).max_screen_encodings;
  assert.is(max, 8);
  const mine = await viewer.call('devices.subscribe', { device: ANDROID, screen: { format: 'jpeg', maxWidth: 540, maxFps: 30 } });
  assert.ok(mine.subscription);
  // One client, many connections, four distinct encodings on each (the per-session cap).
  const accepted: { hog: RawClient; id: string }[] = [];
  const refusals: string[] = [];
  for (let i = 0; i < 4; i++) {
    const hog = await client();
    for (let j = 0; j < 4; j++) {
      const r = await hog.call('devices.subscribe', { device: ANDROID, screen: { format: 'png', maxWidth: 200 + i * 4 + j, maxFps: 60 } });
      if (r.subscription) accepted.push({ hog, id: r.subscription as string });
      else refusals.push(`${r.code}: ${r.message}`);
    }
  }
  assert.is(accepted.length, max - 1, 'the viewer’s encoding and seven more');
  assert.is(refusals.length, 16 - (max - 1));
  assert.match(refusals[0], /^INVALID_PARAMETER: virtual-android-1 already has screenshots encoded 8 different ways for its viewers \(jpeg 540 px quality 75; png 200 px;/);
  assert.match(refusals[0], /limits\.max_screen_encodings, 8.*subscribe with the format, maxWidth and quality of one of these/);
  // The same encoding as one already made costs no encode: always accepted.
  const late = await client();
  const same = await late.call('devices.subscribe', { device: ANDROID, screen: { format: 'jpeg', maxWidth: 540, quality: 75, maxFps: 10 } });
  assert.ok(same.subscription, JSON.stringify(same));
  const refused = await late.call('devices.subscribe', { device: ANDROID, screen: { format: 'webp' } });
  assert.is(refused.code, 'INVALID_PARAMETER');
  // Elements-only subscriptions encode nothing.
  assert.ok((await late.call('devices.subscribe', { device: ANDROID, elements: true })).subscription);
  // An encoding still used by another subscription stays; one nobody uses any more makes room.
  await viewer.call('devices.unsubscribe', { subscription: mine.subscription });
  assert.is((await late.call('devices.subscribe', { device: ANDROID, screen: { format: 'webp' } })).code, 'INVALID_PARAMETER', 'the late session still has the 540 px jpeg');
  await accepted[0].hog.call('devices.unsubscribe', { subscription: accepted[0].id });
  assert.ok((await late.call('devices.subscribe', { device: ANDROID, screen: { format: 'webp' } })).subscription);
});

test.run();
