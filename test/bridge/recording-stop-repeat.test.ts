/**
 * recording.stop's answer is the only copy of the recorded scenario. When it is lost with a dropped
 * connection, the resumed session asks again and must get the same scenario, not "no recording".
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, testBridge, until } from './helpers.js';

const test = suite('recording.stop repeated');

let bridge: Bridge;
test.before.each(async () => {
  ({ bridge } = await testBridge());
});
test.after.each(async () => {
  await bridge.close();
});

type Stopped = { scenario?: { name: string; steps: { value?: string }[] }; repeated?: boolean; code?: string; message?: string };

test('a stop asked again after a dropped connection gives the same scenario; a new recording ends that', async () => {
  const c = await connectBridge(bridge.wsUrl, { client: 'recorder', reconnect: { initialDelayMs: 20 } });
  try {
    await c.requestRaw('recording.start', { device: ANDROID, name: 'sign in' });
    await c.request('verbs.run', { device: ANDROID, step: { action: 'open_url', value: 'mbdemo://screen/signin' } });
    const first = (await c.requestRaw('recording.stop', { device: ANDROID })) as Stopped;
    assert.is(first.scenario?.name, 'sign in');
    assert.is(first.repeated, undefined);

    // The answer may have died with the socket: the session is resumed and asks again.
    const session = c.session;
    bridge.sessions.get(session!)!.connection!.close(4005, 'test drop');
    await until('reconnecting', () => c.state === 'reconnecting');
    const again = (await c.requestRaw('recording.stop', { device: ANDROID })) as Stopped;
    assert.is(c.session, session, 'the same session, resumed');
    assert.is(again.repeated, true, JSON.stringify(again));
    assert.equal(again.scenario, first.scenario);

    await c.requestRaw('recording.start', { device: ANDROID, name: 'second' });
    await c.request('verbs.run', { device: ANDROID, step: { action: 'open_url', value: 'mbdemo://screen/home' } });
    const second = (await c.requestRaw('recording.stop', { device: ANDROID })) as Stopped;
    assert.is(second.scenario?.name, 'second', JSON.stringify(second));
    assert.is(second.repeated, undefined);
    const never = (await c.requestRaw('recording.stop', { device: 'virtual-ios-1' })) as Stopped;
    assert.is(never.code, 'INVALID_PARAMETER', 'a device this session never recorded still has nothing to stop');
    // Over the bridge the way out is the method, not only the MCP tool's name.
    assert.match(never.message!, 'recording.start');
    await c.requestRaw('recording.start', { device: ANDROID, name: 'third' });
    const twice = (await c.requestRaw('recording.start', { device: ANDROID, name: 'fourth' })) as Stopped;
    assert.match(twice.message!, 'stop it (recording_stop / recording.stop)');
  } finally {
    await c.close();
  }
});

test.run();
