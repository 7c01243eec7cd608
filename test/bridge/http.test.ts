import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { testBridge } from './helpers.js';

const FIXTURES = new URL('../../../test/fixtures/scenarios/', import.meta.url);

const test = suite('bridge http');

let bridge: Bridge;
let logs: string[];
let base: string;
let web: string;

test.before(async () => {
  web = mkdtempSync(join(tmpdir(), 'mb-web-'));
  ({ bridge, logs } = await testBridge({ webRoot: join(web, 'dist') }));
  base = `http://127.0.0.1:${bridge.port}`;
});

test.after(async () => {
  await bridge.close();
  rmSync(web, { recursive: true, force: true });
});

test('GET / says the viewer is not built when web/dist is missing', async () => {
  const res = await fetch(`${base}/`);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  assert.match(await res.text(), /web viewer is not built/);
});

test('GET / serves the built viewer once it exists (no restart), with its assets; no path escapes', async () => {
  mkdirSync(join(web, 'dist', 'assets'), { recursive: true });
  writeFileSync(join(web, 'dist', 'index.html'), '<!doctype html><title>viewer</title>');
  writeFileSync(join(web, 'dist', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(web, 'secret.txt'), 'no');
  const page = await fetch(`${base}/`);
  assert.is(await page.text(), '<!doctype html><title>viewer</title>');
  const js = await fetch(`${base}/assets/app.js`);
  assert.match(js.headers.get('content-type') ?? '', /javascript/);
  assert.is(await js.text(), 'console.log(1)');
  assert.is((await fetch(`${base}/..%2fsecret.txt`)).status, 404);
  assert.is((await fetch(`${base}/nothing-here`)).status, 404);
});

test('every response carries the security headers: strict CSP, no framing, nosniff, no referrer', async () => {
  for (const path of ['/', '/assets/app.js', '/api/health', '/nothing-here']) {
    const res = await fetch(`${base}${path}`);
    await res.arrayBuffer();
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/, `${path}: no inline script`);
    assert.not.match(csp, /unsafe-inline|unsafe-eval/, path);
    assert.match(csp, /connect-src 'self'/, path);
    assert.match(csp, /frame-ancestors 'none'/, path);
    assert.is(res.headers.get('x-frame-options'), 'DENY', path);
    assert.is(res.headers.get('x-content-type-options'), 'nosniff', path);
    assert.is(res.headers.get('referrer-policy'), 'no-referrer', path);
  }
});

test('GET /api/health and /api/devices', async () => {
  const health = (await (await fetch(`${base}/api/health`)).json()) as Record<string, unknown>;
  assert.is(health.ok, true);
  assert.is(health.name, 'mobilebridge');
  assert.is(health.protocol, 1);
  assert.type(health.sessions, 'number');
  const devices = (await (await fetch(`${base}/api/devices`)).json()) as { devices: { id: string }[] };
  assert.equal(devices.devices.map((d) => d.id), ['virtual-android-1', 'virtual-ios-1']);
});

test('POST /api/validate answers the SPEC §4 envelope with lines and columns of the body', async () => {
  const valid = readFileSync(new URL('valid/conditions_variable.json', FIXTURES), 'utf8');
  const ok = (await (await fetch(`${base}/api/validate?file=login.json`, { method: 'POST', body: valid })).json()) as { ok: boolean; data: { valid: boolean; file: string } };
  assert.is(ok.ok, true);
  assert.equal([ok.data.valid, ok.data.file], [true, 'login.json']);
  const broken = '{\n  "$schema_version": "2.1",\n  "scenario_id": "x",\n  "steps": [ { "id": "a", "action": "tap", "target": "//android.widget.Button" } ]\n}';
  const res = await fetch(`${base}/api/validate`, { method: 'POST', body: broken });
  assert.is(res.status, 200);
  const env = (await res.json()) as { ok: boolean; error: { kind: string }; data: { errors: { rule: string; line: number }[] } };
  assert.is(env.ok, false);
  assert.is(env.error.kind, 'invalid_input');
  assert.ok(env.data.errors.some((e) => e.line === 4), JSON.stringify(env.data.errors));
  const notJson = (await (await fetch(`${base}/api/validate`, { method: 'POST', body: 'hello' })).json()) as { data: { errors: { rule: string }[] } };
  assert.is(notJson.data.errors[0].rule, 'json-syntax');
  const huge = await fetch(`${base}/api/validate`, { method: 'POST', body: 'x'.repeat(1024 * 1024 + 1) });
  assert.is(huge.status, 413);
});

test('POST /api/validate takes an empty body and a chunked one (no Content-Length), and caps the chunked one too', async () => {
  const empty = await fetch(`${base}/api/validate`, { method: 'POST' });
  assert.is(empty.status, 200);
  assert.is(((await empty.json()) as { data: { errors: { rule: string }[] } }).data.errors[0].rule, 'empty-file');
  const streamed = (text: string) =>
    fetch(`${base}/api/validate`, {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          // Two chunks, so that the body really arrives in pieces.
          const bytes = new TextEncoder().encode(text);
          controller.enqueue(bytes.subarray(0, 10));
          controller.enqueue(bytes.subarray(10));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
  const valid = readFileSync(new URL('valid/conditions_variable.json', FIXTURES), 'utf8');
  const ok = await streamed(valid);
  assert.is(ok.status, 200);
  assert.is(((await ok.json()) as { ok: boolean }).ok, true);
  assert.is((await streamed('x'.repeat(1024 * 1024 + 1))).status, 413);
  assert.equal(logs.filter((l) => /api\/validate/.test(l)), []);
});

test('POST /api/validate decodes the body as the CLI reads files: UTF-16 validated, Latin-1 refused with its place', async () => {
  const valid = readFileSync(new URL('valid/conditions_variable.json', FIXTURES), 'utf8');
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(valid, 'utf16le')]);
  const ok = (await (await fetch(`${base}/api/validate`, { method: 'POST', body: utf16 })).json()) as { ok: boolean };
  assert.is(ok.ok, true);
  const latin1 = Buffer.concat([Buffer.from('{\n  "name": "caf'), Buffer.from([0xe9]), Buffer.from('"\n}')]);
  const refused = (await (await fetch(`${base}/api/validate`, { method: 'POST', body: latin1 })).json()) as { ok: boolean; data: { errors: { rule: string; line: number; column: number; message: string }[] } };
  assert.is(refused.ok, false);
  const [e] = refused.data.errors;
  assert.equal([e.rule, e.line, e.column], ['json-syntax', 2, 15]);
  assert.match(e.message, /^the body is not UTF-8 text: the byte 0xE9 .*send the scenario as UTF-8$/);
});

test('a client that closes the connection while its POST /api/validate body is read is not logged as a failure', async () => {
  const socket = connect(bridge.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.write('POST /api/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n{"a":');
  // The route has started reading the body before the client gives up.
  await new Promise((resolve) => setTimeout(resolve, 100));
  socket.destroy();
  await closed;
  // A request after it is answered, so the aborted one has been handled by then.
  assert.is((await fetch(`${base}/api/health`)).status, 200);
  assert.equal(logs.filter((l) => /api\/validate/.test(l)), []);
});

test('unknown API routes are JSON 404s; GET /ws without an upgrade says what it is', async () => {
  const res = await fetch(`${base}/api/nope`);
  assert.is(res.status, 404);
  assert.is(((await res.json()) as { ok: boolean }).ok, false);
  assert.is((await fetch(`${base}/api/runs/run_x/screenshots/a.png`)).status, 404);
  const ws = await fetch(`${base}/ws`);
  assert.is(ws.status, 426);
  assert.match(await ws.text(), /WebSocket endpoint/);
});

test('a known API route asked with another method is a JSON 405 naming the method to use (Allow)', async () => {
  const cases: [string, string, string][] = [
    ['GET', '/api/validate', 'POST'],
    ['PUT', '/api/validate', 'POST'],
    ['POST', '/api/health', 'GET'],
    ['DELETE', '/api/devices', 'GET'],
    ['POST', '/api/runs/run_x/screenshots/a.png', 'GET'],
  ];
  for (const [method, path, allow] of cases) {
    const res = await fetch(`${base}${path}`, { method });
    assert.is(res.status, 405, `${method} ${path}`);
    assert.is(res.headers.get('allow'), allow);
    const body = (await res.json()) as { ok: boolean; error: { kind: string; message: string } };
    assert.equal([body.ok, body.error.kind], [false, 'method_not_allowed']);
    assert.match(body.error.message, new RegExp(`use ${allow} `));
  }
});

test.run();
