import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { connectBridge } from '../../src/protocol/node.js';
import { ANDROID, RawClient, sleep, testBridge } from './helpers.js';

const test = suite('requests.cancel');

let bridge: Bridge;

test.before.each(async () => {
  ({ bridge } = await testBridge());
});

test.after.each(async () => {
  await bridge.close();
});

/** A verb that would wait a minute: nothing on the screen is ever called that. */
const waitForNothing = { device: ANDROID, step: { action: 'wait_for_element', target: 'the Nothing of the kind banner', wait_config: { type: 'element_visible', timeout_ms: 60000 } } };

test('a waiting verb stops at its caller\'s requests.cancel, answers CANCELLED; another session cannot cancel it', async () => {
  const a = await RawClient.open(bridge.wsUrl);
  const b = await RawClient.open(bridge.wsUrl);
  try {
    await a.call('session.hello', { client: 'agent' });
    a.send({ jsonrpc: '2.0', id: 'wait-1', method: 'verbs.run', params: waitForNothing });
    await sleep(300);
    // Ids are each client's own: b's "wait-1" is not a's.
    assert.equal(await b.call('requests.cancel', { id: 'wait-1' }), { cancelled: false });
    await sleep(300);
    assert.not.ok(a.texts.some((m) => (m as { id?: unknown }).id === 'wait-1'), 'still waiting after another session tried to cancel it');
    const started = performance.now();
    assert.equal(await a.call('requests.cancel', { id: 'wait-1' }), { cancelled: true });
    const answer = await a.response('wait-1', 10_000);
    const outcome = answer.result as { status: string; error?: { code: string } };
    assert.is(outcome.status, 'error', JSON.stringify(outcome));
    assert.is(outcome.error?.code, 'CANCELLED', JSON.stringify(outcome));
    assert.ok(performance.now() - started < 10_000);
    // Answered: nothing left to cancel.
    assert.equal(await a.call('requests.cancel', { id: 'wait-1' }), { cancelled: false });
    // The device is free for the next verb.
    const next = (await a.call('verbs.run', { device: ANDROID, step: { action: 'open_url', value: 'mbdemo://screen/home' } })) as { status: string };
    assert.is(next.status, 'passed');
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('many requests in flight at once: each is cancellable, and the shutdown watch is one listener (no MaxListenersExceededWarning)', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  const a = await RawClient.open(bridge.wsUrl);
  try {
    const ids = Array.from({ length: 14 }, (_, i) => `w-${i}`);
    for (const [i, id] of ids.entries()) a.send({ jsonrpc: '2.0', id, method: 'verbs.run', params: { ...waitForNothing, device: i % 2 ? ANDROID : 'virtual-ios-1' } });
    await sleep(500);
    for (const id of ids) assert.equal(await a.call('requests.cancel', { id }), { cancelled: true }, id);
    for (const id of ids) assert.is(((await a.response(id, 10_000)).result as { error?: { code: string } }).error?.code, 'CANCELLED', id);
    await sleep(50);
    assert.equal(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')), []);
  } finally {
    process.off('warning', onWarning);
    await a.close();
  }
});

test('requests.cancel without an id, or with one that is no id, is invalid params naming what to send', async () => {
  const a = await RawClient.open(bridge.wsUrl);
  try {
    a.send({ jsonrpc: '2.0', id: 1, method: 'requests.cancel', params: {} });
    a.send({ jsonrpc: '2.0', id: 2, method: 'requests.cancel', params: { id: true } });
    const [missing, wrong] = [(await a.response(1)).error, (await a.response(2)).error] as { code: number; message: string }[];
    assert.is(missing.code, -32602);
    assert.match(missing.message, /requests\.cancel: id is required/);
    assert.is(wrong.code, -32602);
    assert.match(wrong.message, /needs "id": the id \(a string or a number\) of a request of yours/);
  } finally {
    await a.close();
  }
});

test('the protocol client sends requests.cancel when the signal of a request aborts; the answer still comes', async () => {
  const client = await connectBridge(bridge.wsUrl, { client: 'agent' });
  try {
    const controller = new AbortController();
    const pending = client.requestRaw('verbs.run', waitForNothing, controller.signal) as Promise<{ status: string; error?: { code: string } }>;
    await sleep(300);
    controller.abort();
    const outcome = await pending;
    assert.is(outcome.error?.code, 'CANCELLED', JSON.stringify(outcome));
  } finally {
    await client.close();
  }
});

test('one signal given to many requests: all are cancelled by its abort, and the caller\'s signal gets no MaxListenersExceededWarning', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  const client = await connectBridge(bridge.wsUrl, { client: 'agent' });
  try {
    const controller = new AbortController();
    const pending = Array.from({ length: 14 }, (_, i) => client.requestRaw('verbs.run', { ...waitForNothing, device: i % 2 ? ANDROID : 'virtual-ios-1' }, controller.signal) as Promise<{ error?: { code: string } }>);
    await sleep(300);
    controller.abort();
    for (const outcome of await Promise.all(pending)) assert.is(outcome.error?.code, 'CANCELLED', JSON.stringify(outcome));
    await sleep(50);
    assert.equal(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning')), []);
  } finally {
    process.off('warning', onWarning);
    await client.close();
  }
});

test.run();
