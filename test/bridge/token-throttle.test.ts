import { request } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WrongTokenThrottle } from '../../src/bridge/token-throttle.js';
import { bridgeFailureMessage } from '../../src/protocol/bridge-problems.js';
import { RawClient, testBridge } from './helpers.js';

/** Guessing the token: a short token on a network address could be tried thousands of times a second. */

function get(port: number, headers: Record<string, string>): Promise<{ status: number; body: string; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/health', headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function upgradeStatus(url: string): Promise<number | 'open'> {
  try {
    const c = await RawClient.open(url);
    await c.close();
    return 'open';
  } catch (err) {
    return (err as { status: number }).status;
  }
}

test('past the limit of wrong tokens an address is refused, right token or not, over HTTP and WebSocket', async () => {
  const { bridge } = await testBridge({ token: 'right-token', wrongTokens: { limit: 3 } });
  try {
    const right = { authorization: 'Bearer right-token' };
    assert.is((await get(bridge.port, right)).status, 200, 'a right token does not count');
    // No token at all is a browser that has not been given one yet, not a guess.
    for (let k = 0; k < 5; k++) assert.is((await get(bridge.port, {})).status, 401);
    assert.is((await get(bridge.port, right)).status, 200);
    for (let k = 0; k < 3; k++) assert.is((await get(bridge.port, { authorization: `Bearer guess-${k}` })).status, 401);
    const refused = await get(bridge.port, right);
    assert.is(refused.status, 429);
    assert.ok(Number(refused.retryAfter) >= 1 && Number(refused.retryAfter) <= 60, `Retry-After ${refused.retryAfter}`);
    const body = JSON.parse(refused.body) as { error: { kind: string; reason: string; message: string } };
    assert.equal([body.error.kind, body.error.reason], ['too_many_requests', 'token_throttled']);
    assert.match(body.error.message, /too many wrong tokens from 127\.0\.0\.1 \(more than 3 in 60 s\); wait \d+ s/);
    assert.is(await upgradeStatus(`${bridge.wsUrl}?token=right-token`), 429, 'the WebSocket upgrade too');
  } finally {
    await bridge.close();
  }
});

test('each address has its own count, and the count starts over after the window', () => {
  let now = 0;
  const throttle = new WrongTokenThrottle(2, 1000, () => now);
  const policy = { token: 't', loopback: false, allowOrigins: [] };
  const ask = (token: string) => ({ header: (n: string) => (n === 'authorization' ? `Bearer ${token}` : n === 'host' ? 'bridge:4800' : undefined), url: new URL('http://bridge:4800/api/health') });
  const status = (token: string, address: string) => {
    const v = throttle.check(policy, ask(token), address);
    return v.ok ? 200 : v.status;
  };
  assert.equal([status('a', '10.0.0.1'), status('b', '10.0.0.1'), status('t', '10.0.0.1')], [401, 401, 429]);
  assert.is(status('t', '10.0.0.2'), 200, 'another address is not held back');
  now = 999;
  assert.is(status('t', '10.0.0.1'), 429);
  now = 1000;
  assert.is(status('t', '10.0.0.1'), 200);
  assert.is(status('c', '10.0.0.1'), 401, 'a new window');
});

test('a client refused that way is told to wait, not that its token is wrong', () => {
  const message = bridgeFailureMessage('ws://lab:4800/ws', new Error('Unexpected server response: 429'), true);
  assert.match(message, /refuses this computer for up to a minute \(HTTP 429\): too many wrong tokens came from it; wait/);
});

test.run();
