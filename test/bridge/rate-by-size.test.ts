import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RPC_ERRORS } from '../../src/protocol/index.js';
import { RawClient, testBridge, type Json } from './helpers.js';

const test = suite('bridge rate limit by size');

/** A scenarios.validate request of about `kib` KiB: validating it is work that grows with its size. */
const bigValidate = (id: string, kib: number) => ({ jsonrpc: '2.0', id, method: 'scenarios.validate', params: { scenario: `{"name": "${'x'.repeat(kib * 1024)}"}` } });

test('a large message costs a token per KiB beyond its first: far under the message rate it is refused, small ones still pass', async () => {
  // 10 tokens, 1 back per second: ten small messages at once, but only one of 8.5 KiB.
  const { bridge } = await testBridge({ rateLimit: { perSecond: 1, burst: 10 } });
  const c = await RawClient.open(bridge.wsUrl);
  const other = await RawClient.open(bridge.wsUrl);
  try {
    c.send(bigValidate('big-1', 8.5));
    const first = await c.response('big-1');
    assert.ok(first.result, JSON.stringify(first));
    // Two messages into the connection's life: counted by messages alone, it would pass.
    c.send(bigValidate('big-2', 8.5));
    const second = await c.response('big-2');
    const err = second.error as { code: number; message: string; data: { retry_after_ms: number } };
    assert.is(err.code, RPC_ERRORS.RATE_LIMITED, JSON.stringify(second));
    assert.match(err.message, /per KiB beyond its first/);
    assert.ok(err.data.retry_after_ms > 1000, `retry after ${err.data.retry_after_ms} ms: it waits for the tokens its size costs`);
    // The one token left pays for a small request.
    c.send({ jsonrpc: '2.0', id: 'small', method: 'devices.list' });
    assert.ok((await c.response('small')).result);
    // The other connection's bucket is its own.
    other.send(bigValidate('other-big', 8.5));
    assert.ok((await other.response('other-big')).result);
    assert.is(c.closeEvent, undefined);
  } finally {
    await c.close();
    await other.close();
    await bridge.close();
  }
});

test('POST /api/validate is limited per address the same way: 429 with Retry-After and retry_after_ms, declared or chunked', async () => {
  const { bridge } = await testBridge({ validateRateLimit: { perSecond: 1, burst: 10 } });
  const url = `http://127.0.0.1:${bridge.port}/api/validate`;
  const body = `{"name": "${'x'.repeat(8.5 * 1024)}"}`;
  try {
    const first = await fetch(url, { method: 'POST', body });
    assert.is(first.status, 200);
    await first.arrayBuffer();
    const second = await fetch(url, { method: 'POST', body });
    assert.is(second.status, 429);
    assert.ok(Number(second.headers.get('retry-after')) >= 1, `Retry-After ${second.headers.get('retry-after')}`);
    const refusal = (await second.json()) as { ok: boolean; error: Json };
    assert.is(refusal.ok, false);
    assert.is(refusal.error.kind, 'too_many_requests');
    assert.is(refusal.error.reason, 'rate_limited');
    assert.ok((refusal.error.retry_after_ms as number) > 1000);
    assert.match(refusal.error.message as string, /retry after \d+ ms/);
    // Without a Content-Length the size is known once read, and refused then.
    const chunked = await fetch(url, {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(body));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    assert.is(chunked.status, 429);
    await chunked.arrayBuffer();
    // A small scenario is still validated.
    const small = await fetch(url, { method: 'POST', body: '{}' });
    assert.is(small.status, 200);
    await small.arrayBuffer();
  } finally {
    await bridge.close();
  }
});

test.run();
