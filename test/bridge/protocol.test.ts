import * as v from 'valibot';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defineExtensionMethod, type Bridge } from '../../src/bridge/index.js';
import { RPC_ERRORS } from '../../src/protocol/index.js';
import { ANDROID, RawClient, sleep, testBridge, until } from './helpers.js';

/** Conformance over a real socket: every method, every JSON-RPC error code, batches, limits. */
const test = suite('bridge protocol');

let bridge: Bridge;
let logs: string[];
let raw: RawClient;

const slowCalls: string[] = [];
const extras = [
  defineExtensionMethod('test.explode', v.strictObject({}), () => {
    throw new Error('kaboom at /secret/path');
  }),
  defineExtensionMethod('test.slow', v.strictObject({ ms: v.number() }), async (p) => {
    slowCalls.push('started');
    await sleep(p.ms);
    slowCalls.push('done');
    return { slept: p.ms };
  }),
];

test.before.each(async () => {
  ({ bridge, logs } = await testBridge({ methods: extras }));
  raw = await RawClient.open(bridge.wsUrl);
});

test.after.each(async () => {
  await raw.close();
  await bridge.close();
});

function errorOf(res: Record<string, unknown>): { code: number; message: string; data?: unknown } {
  assert.ok(res.error, `expected an error, got ${JSON.stringify(res)}`);
  return res.error as { code: number; message: string; data?: unknown };
}

test('session.hello answers session, token, server, protocol, limits', async () => {
  const hello = await raw.call('session.hello', { client: 'conformance' });
  assert.match(hello.session as string, /^s-[0-9a-f]{12}$/);
  assert.type(hello.resume_token, 'string');
  assert.equal(hello.server, { name: 'mobilebridge', version: bridge.server.version });
  assert.is(hello.protocol, 1);
  assert.is(hello.resumed, false);
  assert.equal(hello.subscriptions, []);
  assert.is((hello.limits as Record<string, number>).max_message_bytes, 1024 * 1024);
});

test('tools.list describes all 24 tools with JSON Schemas', async () => {
  const { tools } = (await raw.call('tools.list', {})) as { tools: { name: string; parameters: { type?: string } }[] };
  assert.is(tools.length, 24);
  const shot = tools.find((t) => t.name === 'mobile_take_screenshot');
  assert.ok(shot);
  assert.is(shot!.parameters.type, 'object');
});

test('tools.call returns the tool result; a tool failure is a result, not a JSON-RPC error', async () => {
  const size = await raw.call('tools.call', { tool: 'mobile_get_screen_size', parameters: { device: ANDROID } });
  assert.equal(size, { width: 1080, height: 2400 });
  const missing = await raw.call('tools.call', { tool: 'mobile_get_screen_size', parameters: { device: 'nope' } });
  assert.is(missing.status, 'error');
  assert.is(missing.code, 'DEVICE_NOT_FOUND');
  const unknown = await raw.call('tools.call', { tool: 'mobile_fly', parameters: {} });
  assert.is(unknown.code, 'INVALID_PARAMETER');
  const noParams = await raw.call('tools.call', { tool: 'mobile_list_available_devices' });
  assert.is((noParams.devices as unknown[]).length, 2);
});

test('devices.list, subscribe, unsubscribe', async () => {
  const { devices } = (await raw.call('devices.list')) as { devices: { id: string }[] };
  assert.equal(devices.map((d) => d.id), ['virtual-android-1', 'virtual-ios-1']);
  const sub = await raw.call('devices.subscribe', { device: ANDROID, elements: true });
  assert.match(sub.subscription as string, /^sub-/);
  assert.is(sub.elements, true);
  assert.is(sub.screen, undefined);
  const snapshot = await raw.notification('elements.changed');
  assert.is(snapshot.reset, true);
  assert.is(snapshot.subscription, sub.subscription);
  assert.ok((snapshot.added as unknown[]).length > 0);
  const withScreen = await raw.call('devices.subscribe', { device: ANDROID, screen: { maxFps: 5, format: 'png' } });
  assert.equal(withScreen.screen, { maxFps: 5, maxWidth: null, format: 'png', quality: 75 });
  assert.equal(await raw.call('devices.unsubscribe', { subscription: sub.subscription }), {});
  const again = await raw.call('devices.unsubscribe', { subscription: sub.subscription });
  assert.is(again.code, 'INVALID_PARAMETER');
  const gone = await raw.call('devices.subscribe', { device: 'no-such-device' });
  assert.is(gone.code, 'DEVICE_NOT_FOUND');
});

test('devices.lock / devices.unlock', async () => {
  const lock = await raw.call('devices.lock', { device: ANDROID });
  assert.is(lock.device, ANDROID);
  assert.type(lock.since, 'string');
  assert.equal(await raw.call('devices.unlock', { device: ANDROID }), { device: ANDROID, released: true });
  assert.equal(await raw.call('devices.unlock', { device: ANDROID }), { device: ANDROID, released: false });
  const unknown = (await raw.call('devices.lock', { device: 'no-such-phone' })) as { code: string; message: string };
  assert.is(unknown.code, 'DEVICE_NOT_FOUND');
  assert.match(unknown.message, /virtual-android-1/);
  // A misspelled unlock is no "released: false": the caller would think its lock was already gone.
  const typo = (await raw.call('devices.unlock', { device: 'virtual-andriod-1' })) as { code: string; message: string };
  assert.is(typo.code, 'DEVICE_NOT_FOUND');
  assert.match(typo.message, 'connected devices: virtual-android-1');
});

test('scenarios.validate answers the SPEC §4 envelope for text and for values', async () => {
  const text = '{\n  "$schema_version": "2.1",\n  "scenario_id": 5\n}';
  const env = (await raw.call('scenarios.validate', { scenario: text, file: 'x.json' })) as { ok: boolean; data: { file: string; errors: { line: number }[] } };
  assert.is(env.ok, false);
  assert.is(env.data.file, 'x.json');
  assert.ok(env.data.errors.some((e) => e.line === 3));
  const notJson = (await raw.call('scenarios.validate', { scenario: '{oops' })) as { ok: boolean; data: { errors: { rule: string }[] } };
  assert.is(notJson.data.errors[0].rule, 'json-syntax');
  const value = (await raw.call('scenarios.validate', { scenario: { steps: [] } })) as { ok: boolean };
  assert.is(value.ok, false);
});

test('session.bye ends the session and closes the socket normally', async () => {
  const hello = await raw.call('session.hello');
  assert.equal(await raw.call('session.bye'), {});
  assert.equal(await until('the socket closed', () => raw.closeEvent), { code: 1000, reason: 'bye' });
  assert.is(bridge.sessions.get(hello.session as string), undefined);
});

test('-32700 parse error, the connection stays usable', async () => {
  raw.send('{"jsonrpc": "2.0", "method": ');
  const res = await raw.next((m) => m.id === null);
  assert.is(errorOf(res).code, RPC_ERRORS.PARSE_ERROR);
  assert.ok((await raw.call('devices.list')).devices);
});

test('-32600 invalid request: not an object, bad jsonrpc, bad method, bad id, binary, empty batch', async () => {
  for (const bad of ['42', '"hello"', 'null', '{"jsonrpc":"1.0","method":"devices.list","id":1}', '{"jsonrpc":"2.0","method":7,"id":2}', '{"jsonrpc":"2.0","method":"devices.list","id":{"a":1}}', '[]']) {
    raw.send(bad);
    const res = await raw.next(() => true);
    assert.is(errorOf(res).code, RPC_ERRORS.INVALID_REQUEST, bad);
  }
  raw.ws.send(Buffer.from([1, 2, 3]), { binary: true });
  const bin = await raw.next(() => true);
  assert.match(errorOf(bin).message, /binary/);
  // Valid ids are echoed even on invalid requests.
  raw.send('{"jsonrpc":"1.0","method":"devices.list","id":"abc"}');
  assert.is((await raw.next(() => true)).id, 'abc');
  // A missing field is named in our words, not valibot's ("Invalid key: Expected …").
  raw.send('{}');
  assert.is(errorOf(await raw.next(() => true)).message, 'invalid request: jsonrpc is required; method is required');
});

test('params that are not a structured value make an invalid request (-32600), answered even without an id', async () => {
  // JSON-RPC 2.0 §4: "params … MUST be provided as a Structured value"; its own example answers
  // {"method": 1, "params": "bar"} without an id with -32600 and id null.
  const cases: [string, RegExp][] = [
    ['"x"', /not a string/],
    ['5', /not a number/],
    ['true', /not a boolean/],
    ['null', /not null/],
  ];
  for (const [params, re] of cases) {
    raw.send(`{"jsonrpc":"2.0","id":"p","method":"devices.list","params":${params}}`);
    const err = errorOf(await raw.response('p'));
    assert.is(err.code, RPC_ERRORS.INVALID_REQUEST, params);
    assert.match(err.message, re);
    raw.send(`{"jsonrpc":"2.0","method":"devices.list","params":${params}}`);
    const unanswerable = await raw.next(() => true);
    assert.is(unanswerable.id, null);
    assert.is(errorOf(unanswerable).code, RPC_ERRORS.INVALID_REQUEST, `notification with params ${params}`);
  }
  // An unknown method with bad params is an invalid request first.
  raw.send('{"jsonrpc":"2.0","id":"q","method":"devices.fly","params":"x"}');
  assert.is(errorOf(await raw.response('q')).code, RPC_ERRORS.INVALID_REQUEST);
  // An array is a structured value: the request is valid, our methods want names (-32602).
  raw.send('{"jsonrpc":"2.0","id":"r","method":"devices.list","params":[]}');
  assert.is(errorOf(await raw.response('r')).code, RPC_ERRORS.INVALID_PARAMS);
});

test('an id JSON cannot carry back (1e400) makes an invalid request, which is not run', async () => {
  const tools: string[] = [];
  bridge.engine.onCall((e) => tools.push(e.tool));
  raw.send(`{"jsonrpc":"2.0","id":1e400,"method":"tools.call","params":{"tool":"mobile_press_button","parameters":{"device":"${ANDROID}","button":"HOME"}}}`);
  const res = await raw.next(() => true);
  assert.is(res.id, null);
  assert.is(errorOf(res).code, RPC_ERRORS.INVALID_REQUEST);
  assert.match(errorOf(res).message, /out of range/);
  // Calls on one device run in arrival order: by this answer the press would have run.
  await raw.call('tools.call', { tool: 'mobile_get_screen_size', parameters: { device: ANDROID } });
  assert.equal(tools, ['mobile_get_screen_size']);
});

test('tools.call refuses "__proto__" and "constructor" in parameters by name, like any unknown parameter', async () => {
  for (const key of ['__proto__', 'constructor']) {
    raw.send(`{"jsonrpc":"2.0","id":"${key}","method":"tools.call","params":{"tool":"mobile_press_button","parameters":{"device":"${ANDROID}","button":"HOME","${key}":{"x":1}}}}`);
    const r = (await raw.response(key)).result as { code?: string; message?: string };
    assert.is(r.code, 'INVALID_PARAMETER', JSON.stringify(r));
    assert.match(r.message ?? '', new RegExp(`unknown parameter "${key}"`));
  }
});

test('-32601 method not found names the available methods; notifications get no answer', async () => {
  raw.send({ jsonrpc: '2.0', id: 9, method: 'devices.fly' });
  const res = await raw.response(9);
  assert.is(errorOf(res).code, RPC_ERRORS.METHOD_NOT_FOUND);
  assert.match(errorOf(res).message, /tools\.call/);
  raw.send({ jsonrpc: '2.0', method: 'devices.fly' });
  raw.send({ jsonrpc: '2.0', method: 'devices.list' });
  await sleep(200);
  assert.equal(raw.texts, []);
});

test('-32602 invalid params with the issues listed', async () => {
  const cases: [unknown, RegExp][] = [
    [{ device: ANDROID, screen: { maxFps: 500 } }, /maxFps must be at most 60/],
    [{ device: ANDROID, colour: 'red' }, /unknown parameter "colour"/],
    [{}, /device/],
    [[ANDROID], /params must be a JSON object/],
    [{ device: ANDROID, screen: { format: 'gif' } }, /format must be one of jpeg, webp, png/],
  ];
  let id = 100;
  for (const [params, re] of cases) {
    raw.send({ jsonrpc: '2.0', id: ++id, method: 'devices.subscribe', params });
    const err = errorOf(await raw.response(id));
    assert.is(err.code, RPC_ERRORS.INVALID_PARAMS);
    assert.match(err.message, re);
  }
  raw.send({ jsonrpc: '2.0', id: 200, method: 'tools.call', params: { parameters: {} } });
  const err = errorOf(await raw.response(200));
  assert.equal((err.data as { issues: { path: string }[] }).issues[0].path, 'tool');
  assert.is(err.message, 'invalid params for tools.call: tool is required');
  // MCP calls them "arguments" and names the tool "name": said so, with what tools.call takes.
  raw.send({ jsonrpc: '2.0', id: 202, method: 'tools.call', params: { name: 'mobile_list_apps', arguments: {} } });
  assert.is(errorOf(await raw.response(202)).message, 'invalid params for tools.call: tool is required; unknown parameter "name" (did you mean "tool"?); tools.call takes "tool", "parameters"');
  raw.send({ jsonrpc: '2.0', id: 203, method: 'tools.call', params: { tool: 'mobile_list_apps', arguments: {} } });
  assert.is(errorOf(await raw.response(203)).message, 'invalid params for tools.call: unknown parameter "arguments" (did you mean "parameters"?); tools.call takes "tool", "parameters"');
  raw.send({ jsonrpc: '2.0', id: 201, method: 'tools.call', params: { tool: 5 } });
  assert.match(errorOf(await raw.response(201)).message, /^invalid params for tools.call: tool must be a tool name from tools.list/);
});

test('-32602 names the device the request was for, unless the device itself is what was wrong', async () => {
  const cases: [unknown, string][] = [
    [{ device: ANDROID, screen: { maxFps: 500 } }, `invalid params for devices.subscribe on ${ANDROID}: screen.maxFps must be at most 60`],
    [{ device: ANDROID, takeover: 'yes' }, `invalid params for devices.lock on ${ANDROID}: `],
    [{}, 'invalid params for devices.lock: device is required'],
    [{ device: '' }, 'invalid params for devices.lock: device must not be empty'],
    [{ device: 7 }, 'invalid params for devices.lock: device must be a string'],
    [{ device: 'two\nlines', takeover: 'yes' }, 'invalid params for devices.lock: takeover'],
  ];
  let id = 300;
  for (const [params, start] of cases) {
    const method = (params as { screen?: unknown }).screen ? 'devices.subscribe' : 'devices.lock';
    raw.send({ jsonrpc: '2.0', id: ++id, method, params });
    const err = errorOf(await raw.response(id));
    assert.is(err.code, RPC_ERRORS.INVALID_PARAMS);
    assert.ok(err.message.startsWith(start), `${JSON.stringify(err.message)} starts with ${JSON.stringify(start)}`);
    assert.ok((err.data as { issues: unknown[] }).issues.length > 0, 'the issues are still listed');
  }
  // A device where the method takes none is an unknown parameter, not the call's device.
  raw.send({ jsonrpc: '2.0', id: 400, method: 'devices.list', params: { device: ANDROID } });
  assert.is(errorOf(await raw.response(400)).message, 'invalid params for devices.list: unknown parameter "device"; devices.list takes no parameters');
});

test('-32603 internal error carries no stack; the stack goes to the server log', async () => {
  raw.send({ jsonrpc: '2.0', id: 'x', method: 'test.explode', params: {} });
  const err = errorOf(await raw.response('x'));
  assert.is(err.code, RPC_ERRORS.INTERNAL_ERROR);
  assert.match(err.message, /kaboom/);
  assert.not.match(err.message, /\bat\s+\S+\s+\(/);
  assert.ok(logs.some((l) => l.includes('kaboom') && /\n\s+at /.test(l)), 'stack logged on the server');
});

test('batch: mixed requests, notifications and errors answer as one array; all-notification batch answers nothing', async () => {
  raw.send([
    { jsonrpc: '2.0', id: 1, method: 'tools.call', params: { tool: 'mobile_get_screen_size', parameters: { device: ANDROID } } },
    { jsonrpc: '2.0', method: 'devices.list' },
    { jsonrpc: '2.0', id: 2, method: 'nope' },
    42,
    { jsonrpc: '2.0', id: 3, method: 'devices.list' },
  ]);
  const batch = await raw.nextBatch();
  assert.is(batch.length, 4);
  const byId = new Map(batch.map((r) => [r.id, r]));
  assert.equal(byId.get(1)!.result, { width: 1080, height: 2400 });
  assert.is(errorOf(byId.get(2)!).code, RPC_ERRORS.METHOD_NOT_FOUND);
  assert.is(errorOf(byId.get(null)!).code, RPC_ERRORS.INVALID_REQUEST);
  assert.ok((byId.get(3)!.result as { devices: unknown[] }).devices.length === 2);
  raw.send([{ jsonrpc: '2.0', method: 'devices.list' }, { jsonrpc: '2.0', method: 'tools.list' }]);
  await sleep(200);
  assert.equal(raw.texts, []);
  raw.send(Array.from({ length: 101 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'devices.list' })));
  assert.match(errorOf(await raw.next(() => true)).message, /at most 100/);
});

test('messages over 1 MiB are refused with an error and the connection stays open', async () => {
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'scenarios.validate', params: { scenario: 'x'.repeat(1024 * 1024 + 10) } });
  raw.send(big);
  const answer = await raw.next(() => true);
  const err = errorOf(answer);
  assert.is(err.code, RPC_ERRORS.INVALID_REQUEST);
  assert.match(err.message, /limit is 1048576 bytes/);
  assert.is(answer.id, 1, 'the id near the start of the message is read, so the caller can match the refusal');
  // A string id, and one that only nested params carry: that one is not the request's.
  raw.send(`{"jsonrpc": "2.0", "method": "scenarios.validate", "id" : "big-2", "params": {"scenario": "${'y'.repeat(1024 * 1024)}"}}`);
  assert.is((await raw.next(() => true)).id, 'big-2');
  raw.send(`{"jsonrpc":"2.0","method":"scenarios.validate","params":{"id":7,"scenario":"${'z'.repeat(1024 * 1024)}"}}`);
  assert.is((await raw.next(() => true)).id, null);
  assert.ok((await raw.call('devices.list')).devices);
});

test('messages far over the limit close only that connection (1009); other sessions carry on', async () => {
  const other = await RawClient.open(bridge.wsUrl);
  raw.send('x'.repeat(5 * 1024 * 1024));
  const closed = await until('the socket closed', () => raw.closeEvent);
  assert.is(closed.code, 1009);
  assert.match(closed.reason, /^message of \d+ bytes over 4194304 bytes; the limit is 1048576 bytes$/);
  assert.ok((await other.call('devices.list')).devices);
  await other.close();
});

test('a malformed message on one connection never disturbs another', async () => {
  const other = await RawClient.open(bridge.wsUrl);
  const sub = await other.call('devices.subscribe', { device: ANDROID, elements: true });
  await other.notification('elements.changed');
  raw.send('not json at all');
  raw.send('{"jsonrpc":"2.0","method":"x","id":[1]}');
  await raw.next(() => true);
  await raw.next(() => true);
  assert.ok(sub.subscription);
  assert.ok((await other.call('devices.list')).devices);
  assert.is(other.closeEvent, undefined);
  await other.close();
});

test('-32001 during shutdown; calls in progress still answer before the socket closes', async () => {
  raw.send({ jsonrpc: '2.0', id: 'slow', method: 'test.slow', params: { ms: 300 } });
  // The call must be running when the shutdown starts; a fixed pause lost that race on a loaded machine.
  const startedBefore = slowCalls.filter((c) => c === 'started').length;
  while (slowCalls.filter((c) => c === 'started').length === startedBefore) await sleep(5);
  const closing = bridge.close('test shutdown');
  raw.send({ jsonrpc: '2.0', id: 'late', method: 'devices.list' });
  const late = await raw.response('late');
  assert.is(errorOf(late).code, RPC_ERRORS.SHUTTING_DOWN);
  const slow = await raw.response('slow');
  assert.equal(slow.result, { slept: 300 });
  await closing;
  assert.equal(await until('the socket closed', () => raw.closeEvent), { code: 1001, reason: 'test shutdown' });
});

test.run();

const limited = suite('bridge rate limit');

limited('-32000 past the per-connection rate limit, with retry_after_ms; persistent flooding closes the connection', async () => {
  const { bridge: b } = await testBridge({ rateLimit: { perSecond: 5, burst: 5 } });
  const c = await RawClient.open(b.wsUrl);
  const other = await RawClient.open(b.wsUrl);
  try {
    for (let i = 0; i < 8; i++) c.send({ jsonrpc: '2.0', id: i, method: 'devices.list' });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => c.response(i)));
    const refused = answers.filter((a) => a.error);
    assert.ok(refused.length >= 2, `${refused.length} refused`);
    const err = refused[0].error as { code: number; data: { retry_after_ms: number } };
    assert.is(err.code, RPC_ERRORS.RATE_LIMITED);
    assert.ok(err.data.retry_after_ms > 0);
    // The limit is per connection: the other one is untouched.
    assert.ok((await other.call('devices.list')).devices);
    // Persistent flooding: bursts until the bridge closes (a busy machine may refill a token between two bursts).
    for (let round = 0; round < 50 && !c.closeEvent; round++) {
      for (let i = 0; i < 30 && !c.closeEvent; i++) c.send({ jsonrpc: '2.0', id: 100 + round * 30 + i, method: 'devices.list' });
      await sleep(100);
    }
    assert.is(c.closeEvent?.code, 1008);
  } finally {
    await c.close();
    await other.close();
    await b.close();
  }
});

limited('a steady flood at twice the rate is closed with 1008, though tokens refill between its messages; each refusal before it is answered', async () => {
  const rate = 20;
  const burst = 10;
  const { bridge: b } = await testBridge({ rateLimit: { perSecond: rate, burst } });
  const c = await RawClient.open(b.wsUrl);
  try {
    const started = performance.now();
    let sent = 0;
    // Twice the rate by the clock however late the timer fires, one or two messages at a time: no
    // burst, and a token comes back between them, so refusals never run `burst` in a row.
    while (!c.closeEvent && sent < 20 * rate) {
      const owed = Math.min(2, Math.floor(((performance.now() - started) / 1000) * 2 * rate) - sent);
      for (let i = 0; i < owed; i++) c.send({ jsonrpc: '2.0', id: sent++, method: 'devices.list' });
      await sleep(1000 / rate / 2);
    }
    assert.is(c.closeEvent?.code, 1008, `not closed after ${sent} messages at twice the rate`);
    assert.match(c.closeEvent!.reason, /rate limit exceeded without a pause/);
    const answers = c.texts as { id: number; result?: unknown; error?: { code: number } }[];
    const accepted = answers.filter((a) => a.result).length;
    const refused = answers.filter((a) => a.error?.code === RPC_ERRORS.RATE_LIMITED).length;
    assert.ok(accepted > burst, `${accepted} accepted: tokens came back during the flood`);
    assert.ok(refused >= burst, `${refused} refusals answered before the close`);
  } finally {
    await c.close();
    await b.close();
  }
});

limited('a client that bursts past the limit and then backs off is answered every time, never closed', async () => {
  const rate = 20;
  const burst = 10;
  const { bridge: b } = await testBridge({ rateLimit: { perSecond: rate, burst } });
  const c = await RawClient.open(b.wsUrl);
  try {
    let refused = 0;
    for (let round = 0; round < 3; round++) {
      // Twice the burst at once: at most `burst` refused, which alone never closes.
      const ids = Array.from({ length: 2 * burst }, (_, i) => `${round}-${i}`);
      for (const id of ids) c.send({ jsonrpc: '2.0', id, method: 'devices.list' });
      const answers = await Promise.all(ids.map((id) => c.response(id)));
      refused += answers.filter((a) => (a.error as { code?: number } | undefined)?.code === RPC_ERRORS.RATE_LIMITED).length;
      // Backing off until the whole burst is back.
      await sleep((burst / rate) * 1000 + 100);
    }
    assert.ok(refused > burst, `${refused} refused in all: more than one burst's worth, forgiven after each pause`);
    assert.ok((await c.call('devices.list')).devices);
    assert.is(c.closeEvent, undefined);
  } finally {
    await c.close();
    await b.close();
  }
});

limited('notifications past the limit get no answer, alone or in a batch; requests in a mixed batch each get theirs', async () => {
  // A burst above the refusals sent, so that flooding does not close the connection first.
  const { bridge: b } = await testBridge({ rateLimit: { perSecond: 1, burst: 40 } });
  const c = await RawClient.open(b.wsUrl);
  try {
    for (let i = 0; i < 60; i++) c.send({ jsonrpc: '2.0', method: 'devices.list' });
    c.send([{ jsonrpc: '2.0', method: 'devices.list' }, { jsonrpc: '2.0', method: 'devices.list' }]);
    c.send([{ jsonrpc: '2.0', id: 'm', method: 'devices.list' }, { jsonrpc: '2.0', method: 'devices.list' }]);
    c.send({ jsonrpc: '2.0', id: 'last', method: 'devices.list' });
    // Refusals are sent in the order of the messages: anything answering a notification came before these.
    const last = await c.response('last');
    assert.is((last.error as { code?: number } | undefined)?.code, RPC_ERRORS.RATE_LIMITED, JSON.stringify(last));
    const mixed = c.texts.filter(Array.isArray) as { id: unknown; error?: { code: number } }[][];
    assert.is(mixed.length, 1, JSON.stringify(c.texts));
    assert.equal(mixed[0].map((r) => [r.id, r.error?.code]), [['m', RPC_ERRORS.RATE_LIMITED]]);
    assert.equal(c.texts.filter((m) => !Array.isArray(m)), [], 'nothing answered a notification');
  } finally {
    await c.close();
    await b.close();
  }
});

limited.run();
