import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { SharedNotification, textOf } from '../../src/bridge/outgoing.js';
import { Session, SessionStore } from '../../src/bridge/sessions.js';
import { ANDROID, RawClient, scrollChurn as churn, testBridge, until } from './helpers.js';

/**
 * Issue 16, memory under load: a notification that goes to many sessions (an element diff to every
 * viewer of a device, device activity to its participants) is serialised once, and the sessions'
 * sockets and replay rings share its bytes instead of holding a copy each. Counted in objects
 * held, not RSS.
 */
const test = suite('bridge notification memory');

let bridge: Bridge | undefined;

test.after.each(async () => {
  await bridge?.close();
  bridge = undefined;
});

const limits = { replayMessages: 500, replayBytes: 2 * 1024 * 1024, graceMs: 1000, maxDetached: 10 };

test('a shared notification reads as the same JSON a per-session one would, field order included', () => {
  const params = { device: 'd', seq: 3, added: [{ id: 'a', text: 'é "quoted" \u2028' }], removed: ['b'], changed: [] };
  const shared = new SharedNotification('elements.changed', params, 'subscription');
  for (const id of ['sub-1', 'sub-22']) {
    assert.is(textOf(shared.to(id)), JSON.stringify({ jsonrpc: '2.0', method: 'elements.changed', params: { subscription: id, ...params } }));
  }
  assert.is(textOf(new SharedNotification('m', {}, 'subscription').to('x')), '{"jsonrpc":"2.0","method":"m","params":{"subscription":"x"}}');
  const whole = new SharedNotification('device.activity', { device: 'd', n: 1 });
  assert.is(textOf(whole.to()), JSON.stringify({ jsonrpc: '2.0', method: 'device.activity', params: { device: 'd', n: 1 } }));
  // The byte bound of the replay ring still counts the whole message.
  const big = new SharedNotification('elements.changed', { device: 'd', added: Array.from({ length: 200 }, (_, i) => ({ id: `e${i}`, label: 'x'.repeat(40) })) }, 'subscription');
  const one = big.to('sub-1');
  assert.is(one.size, textOf(one).length);
});

test('sessions keep one copy of a large shared body in their replay rings, and replay it whole', () => {
  const sessions = Array.from({ length: 12 }, () => new Session(limits));
  const bodies = new Set<unknown>();
  for (let seq = 1; seq <= 20; seq++) {
    const diff = { device: 'd', seq, added: [], removed: [], changed: Array.from({ length: 100 }, (_, i) => ({ id: `e${i}`, y: seq * 10 + i, label: 'row '.repeat(10) })) };
    const shared = new SharedNotification('elements.changed', diff, 'subscription');
    for (const [i, s] of sessions.entries()) s.notifyShared(shared, `sub-${i}`);
  }
  for (const [i, s] of sessions.entries()) {
    const { messages, dropped } = s.missedSince(0);
    assert.is(messages.length, 20);
    assert.is(dropped, 0);
    for (const m of messages) {
      assert.instance(m.body, Buffer, 'a large body is kept as bytes');
      bodies.add(m.body);
    }
    const last = JSON.parse(textOf(messages[19])) as { params: { subscription: string; seq: number; changed: unknown[] } };
    assert.equal([last.params.subscription, last.params.seq, last.params.changed.length], [`sub-${i}`, 20, 100]);
  }
  assert.is(bodies.size, 20, `12 sessions × 20 notifications held ${bodies.size} bodies`);
});

/** A store whose sessions record what they were sent; `detach` plays a dropped socket. */
function store(replayTotalBytes: number) {
  const sessions = new SessionStore({ ...limits, graceMs: 60_000, replayTotalBytes }, () => undefined);
  const open = () => {
    const s = sessions.create();
    const conn = { sent: 0, send() { this.sent++; } };
    sessions.attach(s, conn as never);
    return { s, conn };
  };
  return { sessions, open };
}

test('all replay rings together stay within their budget, counting a shared body once; those waiting for a resume give way first', () => {
  const { sessions, open } = store(200_000);
  const viewers = Array.from({ length: 30 }, open);
  // 30 viewers × 10 diffs of ~10 KB: 3 MB if every ring held its own copy, ~100 KB shared.
  for (let seq = 0; seq < 10; seq++) {
    const shared = new SharedNotification('elements.changed', { device: 'd', seq, changed: 'x'.repeat(10_000) }, 'subscription');
    for (const v of viewers) v.s.notifyShared(shared, `sub-${v.s.id}`);
  }
  assert.ok(sessions.replayBudget.bytes < 200_000, `${sessions.replayBudget.bytes} bytes held`);
  assert.ok(viewers.every((v) => v.s.missedSince(0).messages.length === 10 && v.s.missedSince(0).dropped === 0), 'nothing trimmed while within the budget');

  // One session drops its socket; then messages of the others' own push the total over the limit.
  const away = viewers[0];
  sessions.detach(away.s, away.conn as never);
  for (let i = 0; i < 20; i++) viewers[1 + (i % 3)].s.notify('scenario.progress', { note: 'y'.repeat(8_000) });
  assert.ok(sessions.replayBudget.bytes <= 200_000, `${sessions.replayBudget.bytes} bytes held`);
  const awayMissed = away.s.missedSince(0);
  assert.ok(awayMissed.dropped > 0, 'the detached session gave way first, and a resume says how many it lost');
  assert.is(awayMissed.dropped + awayMissed.messages.length, 10);
  // Everything the connected sessions were sent still arrived, trimmed or not.
  assert.is(viewers[1].conn.sent, 10 + 7);

  // Sessions that end give their share back.
  sessions.endAll('test over');
  assert.is(sessions.replayBudget.bytes, 0);
});

test('viewers of one device get every element diff intact while their sessions share one serialisation of it', async () => {
  ({ bridge } = await testBridge({ elementsPollMs: 100 }));
  const actor = await RawClient.open(bridge.wsUrl);
  const viewers = await Promise.all([0, 1, 2, 3].map(() => RawClient.open(bridge!.wsUrl)));
  const hellos = await Promise.all(viewers.map((v) => v.call('session.hello', { client: 'viewer' })));
  const subs = await Promise.all(viewers.map((v) => v.call('devices.subscribe', { device: ANDROID, elements: true })));
  const diffsOf = (v: RawClient) =>
    v.texts.filter((t) => (t as { method?: string }).method === 'elements.changed' && !(t as { params: { reset?: boolean } }).params.reset) as { params: { subscription: string; seq: number } }[];
  const c = churn(actor);
  await until('several element diffs for every viewer', () => viewers.every((v) => diffsOf(v).length >= 5), 30_000);
  await c.stop();

  const bodies = new Set<unknown>();
  let diffs = 0;
  for (const [i, v] of viewers.entries()) {
    // Each viewer reads its own subscription id on every diff (head and shared body make one message).
    assert.ok(diffsOf(v).every((t) => t.params.subscription === (subs[i] as { subscription: string }).subscription));
    const session = bridge.sessions.get(hellos[i].session as string)!;
    for (const m of session.missedSince(0).messages) {
      const parsed = JSON.parse(textOf(m)) as { method: string; params: { reset?: boolean } };
      if (parsed.method !== 'elements.changed' || parsed.params.reset) continue;
      diffs++;
      // Bytes held by object identity: a shared body once, a message of the session's own once per session.
      bodies.add(m.body instanceof Buffer ? m.body : m);
    }
  }
  const perViewer = Math.max(...viewers.map((v) => diffsOf(v).length));
  assert.ok(diffs >= 4 * 5, `${diffs} diffs remembered`);
  // One body per change, whichever viewers it went to (a viewer that joined later shares the later ones).
  assert.ok(bodies.size <= perViewer, `${diffs} remembered diffs held ${bodies.size} bodies for ${perViewer} changes`);
  await Promise.all([actor, ...viewers].map((v) => v.close()));
});

test.run();
