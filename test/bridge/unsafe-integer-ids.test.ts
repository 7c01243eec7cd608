import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { peekRequestId } from '../../src/bridge/message-limit.js';
import { RPC_ERRORS } from '../../src/protocol/index.js';
import { RawClient, testBridge, type Json } from './helpers.js';

const test = suite('bridge ids beyond 2^53');

const errorOf = (m: Json) => m.error as { code: number; message: string };

test('an integer id beyond Number.MAX_SAFE_INTEGER is an invalid request (id null) saying to send strings or smaller numbers; the largest safe one and fractions are answered', async () => {
  const { bridge } = await testBridge();
  const raw = await RawClient.open(bridge.wsUrl);
  try {
    for (const id of ['9223372036854775808', '12345678901234567891', '-9007199254740992', '1e300']) {
      raw.send(`{"jsonrpc":"2.0","id":${id},"method":"devices.list"}`);
      const res = await raw.next(() => true);
      assert.is(res.id, null, `${id}: ${JSON.stringify(res)}`);
      assert.is(errorOf(res).code, RPC_ERRORS.INVALID_REQUEST, id);
      assert.match(errorOf(res).message, /out of range.*send ids as strings or smaller numbers/, id);
    }
    raw.send('{"jsonrpc":"2.0","id":1e400,"method":"devices.list"}');
    assert.match(errorOf(await raw.next(() => true)).message, /Infinity is out of range.*send ids as strings or smaller numbers/);
    for (const id of [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1.5]) {
      raw.send(`{"jsonrpc":"2.0","id":${id},"method":"devices.list"}`);
      assert.ok((await raw.response(id)).result, String(id));
    }
    // In a batch the refused request is answered with id null, the others as usual.
    raw.send(`[{"jsonrpc":"2.0","id":9223372036854775808,"method":"devices.list"},{"jsonrpc":"2.0","id":"fine","method":"devices.list"}]`);
    const batch = await raw.nextBatch();
    const refused = batch.find((r) => r.id === null);
    assert.is(refused && errorOf(refused).code, RPC_ERRORS.INVALID_REQUEST, JSON.stringify(batch));
    assert.ok(batch.find((r) => r.id === 'fine')?.result);
  } finally {
    await raw.close();
    await bridge.close();
  }
});

test('a message over the size limit whose id is beyond 2^53 is refused with id null, not a rounded one', async () => {
  const { bridge } = await testBridge({ maxMessageBytes: 4096 });
  const raw = await RawClient.open(bridge.wsUrl);
  try {
    const pad = 'x'.repeat(5000);
    raw.send(`{"jsonrpc":"2.0","id":9223372036854775808,"method":"scenarios.validate","params":{"scenario":"${pad}"}}`);
    const res = await raw.next(() => true);
    assert.is(res.id, null, JSON.stringify(res));
    assert.is(errorOf(res).code, RPC_ERRORS.INVALID_REQUEST);
    raw.send(`{"jsonrpc":"2.0","id":9007199254740991,"method":"scenarios.validate","params":{"scenario":"${pad}"}}`);
    assert.is((await raw.next(() => true)).id, 9007199254740991);
  } finally {
    await raw.close();
    await bridge.close();
  }
});

test('peekRequestId leaves out integers beyond 2^53 and keeps safe ones, fractions and strings', () => {
  const peek = (s: string) => peekRequestId(Buffer.from(s));
  assert.is(peek('{"id": 9223372036854775808, "params": {'), undefined);
  assert.is(peek('{"id": -9007199254740992, "params": {'), undefined);
  assert.is(peek('{"id": 9007199254740991, "params": {'), 9007199254740991);
  assert.is(peek('{"id": 2.5, "params": {'), 2.5);
  assert.is(peek('{"id": "9223372036854775808", "params": {'), '9223372036854775808');
});

test.run();
