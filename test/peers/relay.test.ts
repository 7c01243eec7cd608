import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Peer } from '../../src/bridge/peers/peer.js';
import { FrameRelay } from '../../src/bridge/peers/relay.js';
import { textOf } from '../../src/bridge/outgoing.js';
import { Session } from '../../src/bridge/sessions.js';

/** A peer link that the test drives by hand: it answers devices.subscribe and emits binary messages. */
function fakePeer(subscribe: (n: number) => Promise<unknown> = async (n) => ({ subscription: `up-${n}` })) {
  const binary = new Set<(b: Buffer) => void>();
  const notes = new Set<(method: string, params: unknown) => void>();
  const requests: { method: string; params: unknown }[] = [];
  let n = 0;
  const peer = {
    where: 'peer bridge ws://fake',
    link: {
      onBinary: (fn: (b: Buffer) => void) => (binary.add(fn), () => binary.delete(fn)),
      onNotification: (fn: (method: string, params: unknown) => void) => (notes.add(fn), () => notes.delete(fn)),
      onState: () => () => undefined,
      request: async (method: string, params: unknown) => {
        requests.push({ method, params });
        return method === 'devices.subscribe' ? subscribe(++n) : {};
      },
    },
    onReconnect: () => () => undefined,
  };
  const emit = (header: Record<string, unknown>, body: string) => {
    const json = Buffer.from(JSON.stringify(header));
    const prefix = Buffer.alloc(4);
    prefix.writeUInt32BE(json.length);
    for (const fn of binary) fn(Buffer.concat([prefix, json, Buffer.from(body)]));
  };
  const notify = (method: string, params: unknown) => notes.forEach((fn) => fn(method, params));
  return { peer: peer as unknown as Peer, emit, notify, requests };
}

/** A session whose connection records what it was sent; `buffered` plays a slow reader. */
function viewer() {
  const got: { header: Record<string, unknown>; body: string }[] = [];
  const conn = { open: true, buffered: 0, get bufferedAmount() { return this.buffered; }, send() {}, sendBinary(head: Buffer, done: () => void, body?: Uint8Array) {
    // Head and body arrive as two fragments of one message; a client sees them joined.
    const data = Buffer.concat([head, body ?? Buffer.alloc(0)]);
    const len = data.readUInt32BE(0);
    got.push({ header: JSON.parse(data.subarray(4, 4 + len).toString()) as Record<string, unknown>, body: data.subarray(4 + len).toString() });
    done();
  } };
  const session = new Session({ replayMessages: 10, replayBytes: 10_000, graceMs: 1000, maxDetached: 1 });
  session.connection = conn as never;
  return { session, conn, got };
}

const video = (seq: number, kind: 'config' | 'key' | 'delta') => ({ subscription: 'up-1', device: 'd', seq, width: 2, height: 2, format: 'h264', captured_at: 0, key: kind === 'key', config: kind === 'config' });

test('video through the relay: bytes unchanged, subscription rewritten, late joiners start at the configuration + key frame, slow ones skip to the next key frame', async () => {
  const { peer, emit, requests } = fakePeer();
  const relay = new FrameRelay(peer, () => undefined, (id) => id);
  const one = viewer();
  const s1 = await relay.subscribe(one.session, { device: 'd', screen: { format: 'jpeg' }, elements: false }, 'd');
  if ('status' in s1) throw new Error(s1.message);
  s1.start();
  emit(video(1, 'config'), 'SPS+PPS');
  emit(video(2, 'key'), 'IDR');
  emit(video(3, 'delta'), 'P1');
  assert.equal(one.got.map((g) => [g.header.subscription, g.body]), [[s1.sub.id, 'SPS+PPS'], [s1.sub.id, 'IDR'], [s1.sub.id, 'P1']]);
  assert.is(one.got[1].header.key, true, 'extra header fields pass through');

  const two = viewer();
  const s2 = await relay.subscribe(two.session, { device: 'd', screen: { format: 'jpeg' }, elements: false }, 'd');
  if ('status' in s2) throw new Error(s2.message);
  assert.is(requests.filter((r) => r.method === 'devices.subscribe').length, 1, 'one subscription on the peer for both');
  s2.start();
  assert.equal(two.got.map((g) => g.body), ['SPS+PPS', 'IDR', 'P1'], 'a late joiner can decode from its first message');

  two.conn.buffered = 64 * 1024 * 1024;
  emit(video(4, 'delta'), 'P2');
  two.conn.buffered = 0;
  emit(video(5, 'delta'), 'P3');
  emit(video(6, 'key'), 'IDR2');
  emit(video(7, 'delta'), 'P4');
  assert.equal(two.got.slice(3).map((g) => g.body), ['IDR2', 'P4'], 'the slow viewer resumes at the next key frame, never a broken picture');
  assert.equal(one.got.slice(3).map((g) => g.body), ['P2', 'P3', 'IDR2', 'P4']);

  relay.unsubscribe(s1.sub);
  relay.unsubscribe(s2.sub);
  assert.ok(requests.some((r) => r.method === 'devices.unsubscribe'), 'the peer subscription ends with the last viewer');
});

test('pictures: a late joiner gets the last one; a busy socket gets the newest, not every one', async () => {
  const { peer, emit } = fakePeer();
  const relay = new FrameRelay(peer, () => undefined, (id) => id);
  const one = viewer();
  const s1 = await relay.subscribe(one.session, { device: 'd', screen: { format: 'jpeg' }, elements: false }, 'd');
  if ('status' in s1) throw new Error(s1.message);
  s1.start();
  const still = (seq: number) => ({ subscription: 'up-1', device: 'd', seq, width: 2, height: 2, format: 'jpeg', captured_at: 0 });
  emit(still(1), 'A');
  emit(still(2), 'B');
  const two = viewer();
  const s2 = await relay.subscribe(two.session, { device: 'd', screen: { format: 'jpeg' }, elements: false }, 'd');
  if ('status' in s2) throw new Error(s2.message);
  s2.start();
  assert.equal(two.got.map((g) => g.body), ['B']);
  let release!: () => void;
  two.conn.sendBinary = (head: Buffer, done: () => void, body?: Uint8Array) => {
    const data = Buffer.concat([head, body ?? Buffer.alloc(0)]);
    const len = data.readUInt32BE(0);
    two.got.push({ header: {}, body: data.subarray(4 + len).toString() });
    release = done;
  };
  emit(still(3), 'C');
  emit(still(4), 'D');
  emit(still(5), 'E');
  release();
  assert.equal(two.got.map((g) => g.body), ['B', 'C', 'E'], 'D was superseded while C was in the socket');
  assert.equal(one.got.map((g) => g.body), ['A', 'B', 'C', 'D', 'E']);
});

test('per-subscription news from the peer (paused, resumed, stream changed) reach each viewer under its own id', async () => {
  const { peer, notify } = fakePeer();
  const relay = new FrameRelay(peer, () => undefined, (id) => id);
  const one = viewer();
  const notes: { method: string; params: Record<string, unknown> }[] = [];
  one.session.notify = (method: string, params: unknown) => void notes.push({ method, params: params as Record<string, unknown> });
  const s1 = await relay.subscribe(one.session, { device: 'd', screen: { format: 'h264' }, elements: false }, 'd');
  if ('status' in s1) throw new Error(s1.message);
  s1.start();
  notify('subscription.paused', { subscription: 'up-1', device: 'd', reason: 'device d went away' });
  notify('stream.changed', { subscription: 'up-1', device: 'd', format: 'jpeg', source: 'screencap', fallback_reason: 'scrcpy stopped' });
  notify('subscription.resumed', { subscription: 'up-1', device: 'd' });
  notify('subscription.paused', { subscription: 'someone-else', device: 'd', reason: 'x' });
  assert.equal(notes.map((n) => [n.method, n.params.subscription]), [['subscription.paused', s1.sub.id], ['stream.changed', s1.sub.id], ['subscription.resumed', s1.sub.id]]);
  assert.equal(s1.sub.info().format, 'jpeg', 'the viewer\'s subscription reports the new format');
});

/** A relay over a fake peer with one viewer subscribed to device d's elements. */
async function watchingElements() {
  const { peer, notify } = fakePeer();
  const relay = new FrameRelay(peer, () => undefined, (id) => id);
  const one = viewer();
  const s1 = await relay.subscribe(one.session, { device: 'd', elements: true }, 'd');
  if ('status' in s1) throw new Error(s1.message);
  s1.start();
  return { notify, relay, one, s1 };
}

test('a resumed session starts its relayed element subscription over with a reset of the elements as they are now', async () => {
  const { notify, relay, one, s1 } = await watchingElements();
  const el = (id: string, label: string) => ({ id, type: 'button', label, rect: { x: 0, y: 0, width: 1, height: 1 } });
  notify('elements.changed', { subscription: 'up-1', device: 'd', seq: 1, reset: true, added: [el('a', 'A'), el('b', 'B')], removed: [], changed: [] });
  const received = one.session.missedSince(0).messages.length;
  // The socket drops: diffs go unkept while it is away.
  one.session.connection = undefined;
  one.session.detachedAt = Date.now();
  one.session.dropElementDiffs();
  notify('elements.changed', { subscription: 'up-1', device: 'd', seq: 2, reset: false, added: [el('c', 'C')], removed: ['a'], changed: [el('b', 'B2')] });
  const missed = one.session.missedSince(received);
  assert.equal(missed.messages.length, 0);
  assert.is(missed.dropped, 1);
  one.session.detachedAt = undefined;
  relay.resumeSession(one.session);
  const after = one.session.missedSince(received).messages.map((m) => JSON.parse(textOf(m)) as { params: { subscription: string; seq: number; reset: boolean; added: { id: string; label: string }[] } });
  assert.is(after.length, 1);
  assert.is(after[0].params.subscription, s1.sub.id);
  assert.is(after[0].params.reset, true);
  assert.is(after[0].params.seq, 2);
  assert.equal(after[0].params.added.map((e) => `${e.id}:${e.label}`).sort(), ['b:B2', 'c:C']);
});

test('the peer\'s listing note is passed on with its diffs and kept for a viewer that starts over, until a null clears it', async () => {
  const { notify, relay, one } = await watchingElements();
  const el = (id: string) => ({ id, type: 'button', label: id, rect: { x: 0, y: 0, width: 1, height: 1 } });
  const sent = () => one.session.missedSince(0).messages.map((m) => (JSON.parse(textOf(m)) as { params: { reset?: boolean; note?: string | null } }).params);
  notify('elements.changed', { subscription: 'up-1', device: 'd', seq: 1, reset: true, added: [el('a')], removed: [], changed: [] });
  notify('elements.changed', { subscription: 'up-1', device: 'd', seq: 2, added: [el('close')], removed: [], changed: [], note: 'the app crashed' });
  assert.is(sent()[1].note, 'the app crashed', 'passed on with the diff');
  notify('elements.changed', { subscription: 'up-1', device: 'd', seq: 3, added: [el('b')], removed: [], changed: [] });
  relay.resumeSession(one.session);
  const reset = sent().at(-1)!;
  assert.is(reset.reset, true);
  assert.is(reset.note, 'the app crashed', 'a diff without a note leaves it as it was');
  notify('elements.changed', { subscription: 'up-1', device: 'd', seq: 4, added: [], removed: ['close'], changed: [], note: null });
  relay.resumeSession(one.session);
  assert.is(sent().at(-1)!.note, undefined, 'null cleared it');
});

test('two viewers subscribing while the peer has not answered yet share its answer: both refused when it refuses, both told the format when it accepts', async () => {
  const answers: ((v: unknown) => void)[] = [];
  const { peer, requests } = fakePeer(() => new Promise((resolve) => answers.push(resolve)));
  const relay = new FrameRelay(peer, () => undefined, (id) => id);
  const params = { device: 'd', screen: { format: 'jpeg' as const }, elements: false };
  const a = viewer();
  const b = viewer();
  const pending = [relay.subscribe(a.session, params, 'd'), relay.subscribe(b.session, params, 'd')];
  answers[0]({ status: 'error', code: 'DEVICE_NOT_FOUND', message: 'device d went away' });
  for (const r of await Promise.all(pending)) assert.is('status' in r && r.code, 'DEVICE_NOT_FOUND', JSON.stringify(r));
  assert.is(b.session.subscriptions.size, 0, 'no subscription left that would never deliver');

  // The device is back: a new subscription on the peer, and both viewers get what it answered.
  const c = viewer();
  const d = viewer();
  const again = [relay.subscribe(c.session, params, 'd'), relay.subscribe(d.session, params, 'd')];
  answers[1]({ subscription: 'up-2', device: 'd', format: 'jpeg', source: 'virtual' });
  for (const r of await Promise.all(again)) {
    if ('status' in r) throw new Error(r.message);
    assert.is(r.sub.info().source, 'virtual');
  }
  assert.is(requests.filter((r) => r.method === 'devices.subscribe').length, 2, 'one subscription on the peer per attempt');
});

test.run();
