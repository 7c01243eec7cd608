import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { BridgeClient, ConnectionClosedError, RPC_ERRORS, RpcError, decodeFrame, encodeFrame, FrameDecodeError, type FrameHeader } from '../../src/protocol/index.js';
import { connectBridge, nodeSocketFactory } from '../../src/protocol/node.js';
import { ANDROID, testBridge, until } from './helpers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const test = suite('protocol client');

let bridge: Bridge;
test.before.each(async () => {
  ({ bridge } = await testBridge());
});
test.after.each(async () => {
  await bridge.close();
});

test('correlates many concurrent requests; protocol faults reject with RpcError; batch keeps order', async () => {
  const c = await connectBridge(bridge.wsUrl, { client: 'client-test' });
  const urls = ['home', 'more', 'settings', 'inbox'].map((s) => `mbdemo://screen/${s}`);
  const results = await Promise.all([
    ...urls.map((url) => c.callTool('mobile_open_url', { device: ANDROID, url })),
    c.callTool('mobile_get_screen_size', { device: ANDROID }),
    c.request('devices.list'),
  ]);
  urls.forEach((url, i) => assert.match((results[i] as { message: string }).message, url));
  assert.equal(results[4], { width: 1080, height: 2400 });
  const err = await c.request('devices.subscribe', { device: '' }).catch((e: unknown) => e);
  assert.instance(err, RpcError);
  assert.is((err as RpcError).code, RPC_ERRORS.INVALID_PARAMS);
  const missing = await c.requestRaw('no.such', {}).catch((e: unknown) => e);
  assert.is((missing as RpcError).code, RPC_ERRORS.METHOD_NOT_FOUND);
  const batch = await c.batch([{ method: 'tools.call', params: { tool: 'mobile_get_orientation', parameters: { device: ANDROID } } }, { method: 'devices.list' }]);
  assert.equal(batch[0], { orientation: 'portrait' });
  assert.is((batch[1] as { devices: unknown[] }).devices.length, 2);
  await c.close();
  assert.is(c.state, 'closed');
  await c.request('devices.list').then(
    () => assert.unreachable(),
    (e: unknown) => assert.instance(e, ConnectionClosedError),
  );
});

test('a batch with a bad request keeps the answers of the good ones, the bad one as its RpcError', async () => {
  const c = await connectBridge(bridge.wsUrl, { client: 'batcher' });
  // Closed also when an assertion fails: a live client would keep the test process running.
  const answers = await c.batch([
    { method: 'tools.call', params: { tool: 'mobile_open_url', parameters: { device: ANDROID, url: 'mbdemo://screen/signin' } } },
    { method: 'devices.fly', params: {} },
    { method: 'tools.call', params: { tool: 'mobile_get_screen_size', arguments: {} } },
    { method: 'devices.list' },
  ]).finally(() => c.close());
  assert.is(answers.length, 4);
  // The deep link ran: its answer says so instead of being lost with the batch.
  assert.match((answers[0] as { message: string }).message, 'mbdemo://screen/signin');
  assert.instance(answers[1], RpcError);
  assert.is((answers[1] as RpcError).code, RPC_ERRORS.METHOD_NOT_FOUND);
  assert.instance(answers[2], RpcError);
  assert.is((answers[2] as RpcError).code, RPC_ERRORS.INVALID_PARAMS);
  assert.is((answers[3] as { devices: unknown[] }).devices.length, 2);
  await c.batch([{ method: 'devices.list' }]).then(
    () => assert.unreachable(),
    (e: unknown) => assert.instance(e, ConnectionClosedError),
  );
});

test('a request over the message limit is refused before sending, not left waiting for an answer without its id', async () => {
  // The time-out only ends the test if the request hangs; it is not what the test checks.
  const c = await connectBridge(bridge.wsUrl, { client: 'big', requestTimeoutMs: 20_000 });
  try {
    const text = 'a'.repeat(2 * 1024 * 1024);
    const err = await c.callTool('mobile_type_keys', { device: ANDROID, text }).catch((e: unknown) => e);
    assert.instance(err, RpcError);
    assert.is((err as RpcError).code, RPC_ERRORS.INVALID_REQUEST);
    assert.match((err as RpcError).message, 'over the bridge\'s limit of 1048576');
    const batch = await c.batch([{ method: 'devices.list' }, { method: 'tools.call', params: { tool: 'mobile_type_keys', parameters: { device: ANDROID, text } } }]).catch((e: unknown) => e);
    assert.instance(batch, RpcError);
    // Multi-byte text is measured in bytes: 400,000 "é" are 800,000 bytes, under the limit.
    const accents = await c.callTool('mobile_get_screen_size', { device: ANDROID, note: 'é'.repeat(400_000) });
    assert.is((accents as { code?: string }).code, 'INVALID_PARAMETER', 'sent and answered (the tool refuses the unknown parameter)');
    assert.equal(await c.callTool('mobile_get_screen_size', { device: ANDROID }), { width: 1080, height: 2400 });
  } finally {
    await c.close();
  }
});

test('a batch over the bridge\'s batch limit is refused before sending, not left waiting for answers that never come', async () => {
  // The time-out only ends the test if the batch hangs; it is not what the test checks.
  const c = await connectBridge(bridge.wsUrl, { client: 'batcher', requestTimeoutMs: 20_000 });
  try {
    const max = c.hello!.limits.max_batch;
    const err = await c.batch(Array.from({ length: max + 1 }, () => ({ method: 'devices.list' }))).catch((e: unknown) => e);
    assert.instance(err, RpcError);
    assert.is((err as RpcError).code, RPC_ERRORS.INVALID_REQUEST);
    assert.match((err as RpcError).message, `at most ${max} requests`);
    const full = await c.batch(Array.from({ length: max }, () => ({ method: 'devices.list' })));
    assert.is(full.length, max);
    assert.equal(await c.batch([]), []);
  } finally {
    await c.close();
  }
});

test('requests made while reconnecting are sent once the session is back', async () => {
  const c = await connectBridge(bridge.wsUrl, { reconnect: { initialDelayMs: 50 } });
  const states: string[] = [];
  c.onState((s) => states.push(s));
  const session = c.session!;
  bridge.sessions.get(session)!.connection!.close(4005, 'test drop');
  await until('reconnecting', () => c.state === 'reconnecting');
  const answer = await c.callTool('mobile_get_screen_size', { device: ANDROID });
  assert.equal(answer, { width: 1080, height: 2400 });
  assert.is(c.session, session, 'same session after resume');
  assert.equal(states, ['reconnecting', 'open']);
  await c.close();
});

test('a request that failed while the client reconnected (an attempt was refused) is never sent once the bridge is back: its caller was told it did not happen', async () => {
  const sent: string[] = [];
  const plan = ['open', 'refuse', 'open'];
  let made = 0;
  let last: any;
  const createSocket = () => {
    const n = ++made;
    const socket: any = {
      readyState: 0,
      send(text: string) {
        const m = JSON.parse(text);
        sent.push(`socket${n}: ${m.method}`);
        const result = { session: 'S', resumed: n > 1, subscriptions: [], protocol: '1', server: {} };
        if (m.method === 'session.hello') setTimeout(() => socket.onmessage({ data: JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) }), 5);
      },
      close() {
        socket.readyState = 3;
      },
    };
    setTimeout(() => {
      if (plan[n - 1] === 'refuse') {
        socket.readyState = 3;
        socket.onerror({ message: 'ECONNREFUSED' });
        socket.onclose({ code: 1006 });
      } else {
        socket.readyState = 1;
        socket.onopen({});
      }
    }, 10);
    last = socket;
    return socket;
  };
  const c = await BridgeClient.connect({ url: 'ws://127.0.0.1:1', createSocket, reconnect: { initialDelayMs: 50, maxDelayMs: 100, maxAttempts: 5 } });
  const first = last;
  first.readyState = 3;
  first.onclose({ code: 1006 });
  const typed = c.requestRaw('verbs.run', { device: 'd', step: { action: 'type', value: 'hello' } }).then(() => 'answered', (e: Error) => e.message);
  assert.match(await typed, /connection closed/);
  await until('the third socket says hello', () => sent.includes('socket3: session.hello'));
  await new Promise((r) => setTimeout(r, 50));
  assert.not.ok(sent.some((line) => line.endsWith('verbs.run')), sent.join('\n'));
  await c.close();
});

test('after a bridge restart, frames and element events of the subscriptions made again come after the session event that names them', async () => {
  const c = await connectBridge(bridge.wsUrl, { reconnect: { initialDelayMs: 50, maxDelayMs: 100 } });
  try {
    // What a viewer does: it knows its subscriptions by id, and learns the new ids from the session event.
    const ids = new Set<string>();
    const arrivals: { what: string; subscription: string; known: boolean }[] = [];
    const take = (what: string, subscription: string) => arrivals.push({ what, subscription, known: ids.has(subscription) });
    c.onFrame((f) => take('a frame', f.header.subscription));
    c.on('elements.changed', (p) => take('elements.changed', p.subscription));
    const sessions: { resumed: boolean; resubscribed: string[] }[] = [];
    c.onSession((e) => {
      for (const moved of e.resubscribed) {
        ids.delete(moved.old);
        ids.add(moved.new);
      }
      sessions.push({ resumed: e.resumed, resubscribed: e.resubscribed.map((r) => r.new) });
    });
    // An element subscription first: its snapshot comes at once, while the others are still being made again.
    for (const options of [{ elements: true }, { screen: { format: 'png' as const } }, { screen: { maxWidth: 100 } }]) ids.add((await c.subscribe(ANDROID, options)).subscription);
    const port = bridge.port;
    await bridge.close();
    arrivals.length = 0;
    ({ bridge } = await testBridge({ port }));
    await until('the session made again', () => sessions[0], 15_000);
    assert.is(sessions[0].resumed, false);
    assert.is(sessions[0].resubscribed.length, 3);
    // A still screen sends one frame per subscription: each must reach the listeners under its new id.
    await until('a frame or snapshot for each subscription made again', () => sessions[0].resubscribed.every((id) => arrivals.some((a) => a.subscription === id)), 15_000);
    assert.equal(arrivals.filter((a) => !a.known), [], 'nothing arrived under an id the listeners did not know yet');
  } finally {
    // Its reconnect timers would keep the process alive after a failure.
    await c.close();
  }
});

test('the first connection failing rejects connect() with the reason', async () => {
  const { bridge: locked } = await testBridge({ token: 't' });
  try {
    const err = await BridgeClient.connect({ url: locked.wsUrl, createSocket: nodeSocketFactory() }).catch((e: Error) => e);
    assert.instance(err, Error);
    assert.match((err as Error).message, /401/);
  } finally {
    await locked.close();
  }
});

test('frame codec round trip and malformed frames', () => {
  const header: FrameHeader = { subscription: 'sub-1', device: 'd', seq: 3, width: 2, height: 1, format: 'png', captured_at: 1, device_width: 4, device_height: 2 };
  const image = new Uint8Array([9, 8, 7]);
  const frame = encodeFrame(header, image);
  assert.is(new DataView(frame.buffer).getUint32(0, false), new TextEncoder().encode(JSON.stringify(header)).length);
  const back = decodeFrame(frame);
  assert.equal(back.header, header);
  assert.equal([...back.image], [9, 8, 7]);
  assert.equal(decodeFrame(frame.buffer as ArrayBuffer).header, header);
  for (const bad of [new Uint8Array([0, 0]), new Uint8Array([0, 0, 1, 0, 1, 2]), encodeFrame({ ...header, format: 'gif' } as unknown as FrameHeader, image)]) {
    assert.throws(() => decodeFrame(bad), (e: unknown) => e instanceof FrameDecodeError);
  }
});

test('the protocol package bundles for the browser without Node modules', async () => {
  const result = await build({
    entryPoints: [`${ROOT}src/protocol/index.ts`],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  assert.not.match(code, /from ["'](node:|ws["'])/);
  assert.match(code, /BridgeClient = class/);
});

test.run();
