import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { allowedOrigin, checkOrigin } from '../../src/bridge/security.js';
import serve from '../../src/cli/commands/serve.js';
import { RawClient, testBridge } from './helpers.js';

const test = suite('bridge --allow-origin normalised');

test('allowed origins take the form browsers send: lower case, no default port, no trailing slash or path; * stays', () => {
  assert.is(allowedOrigin('http://localhost:5173/'), 'http://localhost:5173');
  assert.is(allowedOrigin('HTTP://Example.COM'), 'http://example.com');
  assert.is(allowedOrigin('http://a.test:80'), 'http://a.test');
  assert.is(allowedOrigin('https://a.test:443/app/index.html?x=1'), 'https://a.test');
  assert.is(allowedOrigin('https://a.test:8443'), 'https://a.test:8443');
  assert.is(allowedOrigin('chrome-extension://AbCdEf/'), 'chrome-extension://abcdef');
  assert.is(allowedOrigin('*'), '*');
  for (const bad of ['null', 'file:///tmp/page.html', 'localhost:5173', 'example.com']) {
    assert.throws(() => allowedOrigin(bad), /is not an origin: give the page's scheme, host and port/, bad);
  }
});

test('the Origin header is compared in the same form', () => {
  const policy = { loopback: true, allowOrigins: ['http://example.com'] };
  const facts = (origin: string) => ({ header: (n: string) => (n === 'origin' ? origin : n === 'host' ? '127.0.0.1:4800' : undefined), url: new URL('http://127.0.0.1:4800/ws') });
  assert.ok(checkOrigin(policy, facts('http://example.com')).ok);
  assert.ok(checkOrigin(policy, facts('HTTP://EXAMPLE.com:80')).ok);
  assert.not.ok(checkOrigin(policy, facts('http://example.com.evil.test')).ok);
  assert.not.ok(checkOrigin(policy, facts('null')).ok);
});

test('a bridge started with a pasted address-bar URL, capitals or a default port lets the page in', async () => {
  const { bridge } = await testBridge({ allowOrigins: ['http://localhost:5173/', 'HTTP://Example.COM', 'http://a.test:80'] });
  try {
    for (const origin of ['http://localhost:5173', 'http://example.com', 'http://a.test']) {
      const c = await RawClient.open(bridge.wsUrl, { headers: { Origin: origin } });
      await c.close();
    }
    const refused = await RawClient.open(bridge.wsUrl, { headers: { Origin: 'http://b.test' } }).then(
      () => undefined,
      (err: Error & { status?: number }) => err,
    );
    assert.is(refused?.status, 403);
  } finally {
    await bridge.close();
  }
});

test('a bridge given something that is no origin refuses to start', async () => {
  const { createEngine } = await import('../../src/engine/create.js');
  const { startBridge } = await import('../../src/bridge/index.js');
  const engine = createEngine({ virtual: {} });
  let closed = 0;
  const close = engine.close.bind(engine);
  engine.close = () => (closed++, close());
  try {
    const err = await startBridge({ engine, host: '127.0.0.1', port: 0, allowOrigins: ['null'] }).then(
      (b) => (void b.close(), undefined),
      (e: Error) => e,
    );
    assert.match(err?.message ?? 'it started', /--allow-origin "null" is not an origin/);
    // The engine handed over is closed, as when the port is taken: nothing of it is left running.
    assert.is(closed, 1);
  } finally {
    await engine.close();
  }
});

test('serve exits 3 before starting anything when an --allow-origin value is no origin, saying why', async () => {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
  let code: number;
  try {
    code = await serve.run(['--port', '0', '--no-android', '--no-ios', '--allow-origin', 'http://ok.test,localhost:5173']);
  } finally {
    process.stderr.write = write;
  }
  assert.is(code, 3);
  assert.match(written.join(''), /mobilebridge serve: --allow-origin "localhost:5173" is not an origin/);
});

test.run();
