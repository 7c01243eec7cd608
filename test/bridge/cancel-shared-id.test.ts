import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { IOS, RawClient, testBridge, until, type Json } from './helpers.js';

const test = suite('bridge requests.cancel of a shared id');

test('requests.cancel with an id that several running requests share cancels all of them, and the id is then free', async () => {
  const { bridge } = await testBridge();
  const holder = await RawClient.open(bridge.wsUrl);
  const waiter = await RawClient.open(bridge.wsUrl);
  try {
    await holder.call('devices.lock', { device: IOS });
    // Two waits in line for the held phone, both with id 7 (long enough that only a cancel ends them in this test).
    waiter.send({ jsonrpc: '2.0', id: 7, method: 'devices.lease', params: { device: IOS, timeout_ms: 60_000 } });
    waiter.send({ jsonrpc: '2.0', id: 7, method: 'devices.lease', params: { device: IOS, timeout_ms: 60_000 } });
    // Both are running once a later request on the connection is answered (requests run in order of arrival).
    await waiter.call('devices.list');
    const cancel = await waiter.call('requests.cancel', { id: 7 });
    assert.equal(cancel, { cancelled: true });
    const answers = await until('both waits answered', () => {
      const got = waiter.texts.filter((m): m is Json => typeof m === 'object' && m !== null && (m as Json).id === 7);
      return got.length === 2 ? got : undefined;
    });
    for (const a of answers) {
      const r = a.result as { code?: string; message?: string };
      assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(a));
      assert.match(r.message ?? '', /cancel/);
    }
    assert.equal(await waiter.call('requests.cancel', { id: 7 }), { cancelled: false }, 'none is left running');
  } finally {
    await holder.close();
    await waiter.close();
    await bridge.close();
  }
});

test.run();
