import { request } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RawClient, testBridge } from './helpers.js';

const test = suite('bridge stale token cookie');

function get(port: number, path: string, headers: Record<string, string>): Promise<{ status: number; reason?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        let reason: string | undefined;
        try {
          reason = (JSON.parse(body) as { error?: { reason?: string } }).error?.reason;
        } catch {
          reason = undefined;
        }
        resolve({ status: res.statusCode ?? 0, reason });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number | 'open'> {
  try {
    const c = await RawClient.open(url, { headers });
    await c.close();
    return 'open';
  } catch (err) {
    return (err as { status: number }).status;
  }
}

test('tabs reconnecting with the cookie of an earlier run do not lock the right token out: the same wrong cookie counts once', async () => {
  const { bridge } = await testBridge({ token: 'right-token', wrongTokens: { limit: 3 } });
  const stale = { cookie: 'mobilebridge_token=token-of-the-last-run' };
  try {
    for (let k = 0; k < 10; k++) {
      const r = await get(bridge.port, '/api/health', stale);
      assert.equal([r.status, r.reason], [401, 'token_wrong'], 'still told that the token is wrong');
      assert.is(await upgradeStatus(bridge.wsUrl, stale), 401);
    }
    assert.is((await get(bridge.port, '/api/health?token=right-token', stale)).status, 200);
    assert.is(await upgradeStatus(`${bridge.wsUrl}?token=right-token`, stale), 'open');
    // Wrong tokens in the address or a bearer header still count, each of them.
    for (let k = 0; k < 2; k++) assert.is((await get(bridge.port, '/api/health?token=guess', {})).status, 401);
    assert.is((await get(bridge.port, '/api/health?token=right-token', {})).status, 429);
  } finally {
    await bridge.close();
  }
});

test('guesses sent in the cookie still count, each new value once', async () => {
  const { bridge } = await testBridge({ token: 'right-token', wrongTokens: { limit: 3 } });
  try {
    for (let k = 0; k < 3; k++) assert.is((await get(bridge.port, '/api/health', { cookie: `mobilebridge_token=guess-${k}` })).status, 401);
    const refused = await get(bridge.port, '/api/health', { authorization: 'Bearer right-token' });
    assert.equal([refused.status, refused.reason], [429, 'token_throttled']);
  } finally {
    await bridge.close();
  }
});

test.run();
