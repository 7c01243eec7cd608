import { request } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ClientOptions } from 'ws';
import { Bridge, bindProblem, isLoopbackHost } from '../../src/bridge/index.js';
import { weakTokenWarning } from '../../src/bridge/security.js';
import { createEngine } from '../../src/engine/create.js';
import { BridgeClient } from '../../src/protocol/index.js';
import { nodeSocketFactory } from '../../src/protocol/node.js';
import { RawClient, testBridge } from './helpers.js';

/** A plain HTTP GET with exact headers (fetch would not let us set Host). */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function refusal(url: string, options: ClientOptions = {}): Promise<{ status: number; message: string }> {
  try {
    const c = await RawClient.open(url, options);
    await c.close();
  } catch (err) {
    return { status: (err as { status: number }).status, message: (err as Error).message };
  }
  throw new Error(`upgrade to ${url} was accepted`);
}

const test = suite('bridge security');

test('loopback detection and the bind rule: a non-loopback address needs a token', () => {
  for (const h of ['127.0.0.1', '127.0.0.2', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1', 'app.localhost']) assert.ok(isLoopbackHost(h), h);
  for (const h of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', 'example.com', '128.0.0.1']) assert.not.ok(isLoopbackHost(h), h);
  assert.match(bindProblem('0.0.0.0', undefined)!, /--token/);
  assert.match(bindProblem('192.168.1.10', '')!, /MOBILEBRIDGE_TOKEN/);
  assert.is(bindProblem('0.0.0.0', 'secret'), undefined);
  assert.is(bindProblem('127.0.0.1', undefined), undefined);
  assert.throws(() => new Bridge({ engine: createEngine({ virtual: {} }), host: '0.0.0.0', port: 0 }), /refusing to listen on 0\.0\.0\.0 without a token/);
  // A short token on the network is allowed, with a warning; on loopback nothing is said.
  assert.match(weakTokenWarning('0.0.0.0', 'abc')!, /the token has 3 characters and this bridge listens on the network: use 16 or more random ones/);
  assert.is(weakTokenWarning('0.0.0.0', 'a'.repeat(16)), undefined);
  assert.is(weakTokenWarning('127.0.0.1', 'abc'), undefined);
});

test('with a token: every HTTP request and upgrade needs it (bearer, ?token=, or the cookie set from ?token=)', async () => {
  const { bridge } = await testBridge({ token: 's3cret' });
  try {
    const none = await get(bridge.port, '/api/health');
    assert.is(none.status, 401);
    assert.match(JSON.parse(none.body).error.message, /requires a token/);
    assert.is((await get(bridge.port, '/api/health', { authorization: 'Bearer nope' })).status, 401);
    assert.is((await get(bridge.port, '/', {})).status, 401, 'the viewer page too');
    assert.is((await get(bridge.port, '/api/health', { authorization: 'Bearer s3cret' })).status, 200);
    const viaQuery = await get(bridge.port, '/api/devices?token=s3cret');
    assert.is(viaQuery.status, 200);
    const cookie = String(viaQuery.headers['set-cookie']);
    assert.match(cookie, /mobilebridge_token=s3cret; Path=\/; HttpOnly; SameSite=Strict/);
    assert.is((await get(bridge.port, '/api/health', { cookie: 'other=1; mobilebridge_token=s3cret' })).status, 200);

    // The same rules on the WebSocket upgrade.
    const refused = await refusal(bridge.wsUrl);
    assert.is(refused.status, 401);
    assert.is((await refusal(`${bridge.wsUrl}?token=wrong`)).status, 401);
    const byHeader = await BridgeClient.connect({ url: bridge.wsUrl, createSocket: nodeSocketFactory({ token: 's3cret' }), reconnect: false });
    assert.ok(byHeader.session);
    await byHeader.close();
    const byQuery = await RawClient.open(`${bridge.wsUrl}?token=s3cret`);
    assert.ok((await byQuery.call('devices.list')).devices);
    await byQuery.close();
    // With a token the Host header is not restricted: the bridge may be reached by any name.
    assert.is((await get(bridge.port, '/api/health', { host: 'phone-lab.example:4800', authorization: 'Bearer s3cret' })).status, 200);
  } finally {
    await bridge.close();
  }
});

test('credentials in another scheme than Bearer are a wrong token, not a missing one; a token of only whitespace is refused at start', async () => {
  const { bridge } = await testBridge({ token: 's3cret' });
  try {
    for (const authorization of ['Basic s3cret', 's3cret']) {
      const r = await get(bridge.port, '/api/health', { authorization });
      assert.is(r.status, 401);
      const error = JSON.parse(r.body).error as { reason: string; message: string };
      assert.is(error.reason, 'token_wrong', authorization);
      assert.match(error.message, /Bearer scheme/);
      assert.not.match(error.message, /s3cret/, 'the credentials are not echoed');
    }
    assert.is(JSON.parse((await get(bridge.port, '/api/health')).body).error.reason, 'token_missing');
  } finally {
    await bridge.close();
  }
  for (const host of ['0.0.0.0', '127.0.0.1']) assert.match(bindProblem(host, '   ')!, /only whitespace/, host);
  assert.throws(() => new Bridge({ engine: createEngine({ virtual: {} }), host: '127.0.0.1', port: 0, token: ' \t' }), /only whitespace/);
});

test('Origin: same origin allowed, other origins refused unless listed with --allow-origin; no Origin (non-browser) allowed', async () => {
  const { bridge } = await testBridge({ allowOrigins: ['http://localhost:5173'] });
  try {
    const evil = await refusal(bridge.wsUrl, { origin: 'https://evil.example' });
    assert.is(evil.status, 403);
    assert.match(evil.message, /--allow-origin https:\/\/evil\.example/);
    assert.is((await refusal(bridge.wsUrl, { origin: 'null' })).status, 403);
    for (const origin of [`http://127.0.0.1:${bridge.port}`, 'http://localhost:5173']) {
      const ok = await RawClient.open(bridge.wsUrl, { origin });
      await ok.close();
    }
    const plain = await RawClient.open(bridge.wsUrl);
    await plain.close();
  } finally {
    await bridge.close();
  }
  const open = await testBridge({ allowOrigins: ['*'] });
  try {
    const any = await RawClient.open(open.bridge.wsUrl, { origin: 'https://anything.example' });
    await any.close();
  } finally {
    await open.bridge.close();
  }
});

test('without a token a loopback bridge answers only loopback Host names (DNS rebinding)', async () => {
  const { bridge } = await testBridge();
  try {
    assert.is((await get(bridge.port, '/api/health', { host: `localhost:${bridge.port}` })).status, 200);
    const rebound = await get(bridge.port, '/api/health', { host: `attacker.example:${bridge.port}` });
    assert.is(rebound.status, 403);
    assert.match(JSON.parse(rebound.body).error.message, /not a loopback name/);
    const ws = await refusal(bridge.wsUrl, { headers: { host: `attacker.example:${bridge.port}` }, origin: `http://attacker.example:${bridge.port}` });
    assert.is(ws.status, 403);
  } finally {
    await bridge.close();
  }
});

test('upgrades elsewhere than /ws are refused', async () => {
  const { bridge } = await testBridge();
  try {
    assert.is((await refusal(`ws://127.0.0.1:${bridge.port}/socket`)).status, 404);
  } finally {
    await bridge.close();
  }
});

test.run();
