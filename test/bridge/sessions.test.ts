import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type WebSocket from 'ws';
import * as v from 'valibot';
import { defineExtensionMethod, type Bridge } from '../../src/bridge/index.js';
import {
  BridgeClient,
  RPC_ERRORS,
  type DeviceActivityParams,
  type DeviceLockParams,
  type ElementsChangedParams,
  type SessionEvent,
  type WebSocketLike,
} from '../../src/protocol/index.js';
import { nodeSocketFactory } from '../../src/protocol/node.js';
import { ANDROID, PluggableDriver, RawClient, sleep, testBridge, until, type Json } from './helpers.js';
import { textOf } from '../../src/bridge/outgoing.js';

const test = suite('bridge sessions');

let bridge: Bridge;

test.after.each(async () => {
  await bridge?.close();
});

/** A typed client whose sockets the test can cut like a network failure would. */
async function droppable(url: string, client: string, reconnectDelayMs = 20) {
  const sockets: WebSocketLike[] = [];
  const factory = nodeSocketFactory();
  // While held, reconnects go to a closed port and fail, so a test decides when the resume happens.
  let held = false;
  const c = await BridgeClient.connect({
    url,
    client,
    reconnect: { initialDelayMs: reconnectDelayMs, maxDelayMs: reconnectDelayMs * 2 },
    createSocket: (u) => {
      const s = factory(held ? 'ws://127.0.0.1:9/ws' : u);
      sockets.push(s);
      return s;
    },
  });
  const sessions: SessionEvent[] = [];
  c.onSession((e) => sessions.push(e));
  return {
    c,
    sessions,
    cut: () => (sockets[sockets.length - 1] as unknown as WebSocket).terminate(),
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
    },
  };
}

const tap = (c: BridgeClient, url: string) => c.callTool('mobile_open_url', { device: ANDROID, url });

test('two sessions on one device both see every action as device.activity', async () => {
  ({ bridge } = await testBridge());
  const a = await BridgeClient.connect({ url: bridge.wsUrl, client: 'alice', createSocket: nodeSocketFactory() });
  const b = await BridgeClient.connect({ url: bridge.wsUrl, client: 'bob', createSocket: nodeSocketFactory() });
  const outsider = await BridgeClient.connect({ url: bridge.wsUrl, client: 'carol', createSocket: nodeSocketFactory() });
  const seen: Record<string, DeviceActivityParams[]> = { a: [], b: [], outsider: [] };
  a.on('device.activity', (p) => seen.a.push(p));
  b.on('device.activity', (p) => seen.b.push(p));
  outsider.on('device.activity', (p) => seen.outsider.push(p));
  // An activity-only subscription: no frames, no elements.
  await a.subscribe(ANDROID);
  await b.subscribe(ANDROID, { screen: { maxWidth: 100 } });
  await tap(a, 'mbdemo://screen/more');
  await b.callTool('mobile_press_button', { device: ANDROID, button: 'BACK' });
  await a.callTool('mobile_get_screen_size', { device: ANDROID }); // read-only: not an action
  await a.callTool('mobile_click_on_screen_at_coordinates', { device: ANDROID, x: 99999, y: 1 }); // fails, still shown
  await until('activity everywhere', () => seen.a.length >= 3 && seen.b.length >= 3);
  await sleep(100);
  for (const list of [seen.a, seen.b]) {
    assert.equal(list.map((e) => [e.tool, e.client, e.outcome.status]), [
      ['mobile_open_url', 'alice', 'success'],
      ['mobile_press_button', 'bob', 'success'],
      ['mobile_click_on_screen_at_coordinates', 'alice', 'error'],
    ]);
  }
  const first = seen.b[0];
  assert.is(first.session, a.session);
  assert.is(first.device, ANDROID);
  assert.equal(first.parameters, { device: ANDROID, url: 'mbdemo://screen/more' });
  assert.type(first.duration_ms, 'number');
  assert.is(seen.b[2].outcome.code, 'INVALID_PARAMETER');
  assert.equal(seen.outsider, []);
  await Promise.all([a.close(), b.close(), outsider.close()]);
});

test('elements.changed: a reset snapshot first, then seq-numbered diffs by id after each action', async () => {
  ({ bridge } = await testBridge());
  const c = await BridgeClient.connect({ url: bridge.wsUrl, createSocket: nodeSocketFactory() });
  await tap(c, 'mbdemo://screen/signin');
  const events: ElementsChangedParams[] = [];
  c.on('elements.changed', (p) => events.push(p));
  const sub = await c.subscribe(ANDROID, { elements: true });
  await until('snapshot', () => events[0]);
  assert.is(events[0].reset, true);
  assert.is(events[0].subscription, sub.subscription);
  const seq0 = events[0].seq;
  const email = events[0].added.find((e) => e.id === 'email');
  assert.ok(email, 'sign-in screen lists the email field');
  await c.callTool('mobile_click_on_screen_at_coordinates', { device: ANDROID, ...email!.center });
  await c.callTool('mobile_type_keys', { device: ANDROID, text: 'demo@example.com', submit: false });
  await until('typed text shows up', () => events.some((e) => e.changed.some((el) => el.id === 'email' && el.text === 'demo@example.com')));
  const diffs = events.slice(1);
  diffs.forEach((e, i) => assert.is(e.seq, seq0 + i + 1, 'consecutive seq'));
  assert.ok(diffs.every((e) => !e.reset));
  await tap(c, 'mbdemo://screen/home');
  await until('list appears', () => events.some((e) => e.added.some((el) => el.id === 'item_1') && e.removed.includes('email')));
  await c.close();
});

test('resume after a dropped socket restores subscriptions and replays the missed notifications', async () => {
  ({ bridge } = await testBridge());
  const a = await droppable(bridge.wsUrl, 'alice');
  const b = await BridgeClient.connect({ url: bridge.wsUrl, client: 'bob', createSocket: nodeSocketFactory() });
  const activity: DeviceActivityParams[] = [];
  a.c.on('device.activity', (p) => activity.push(p));
  let frames = 0;
  const sub = await a.c.subscribe(ANDROID, { screen: { maxWidth: 120 } });
  a.c.onFrame((f) => {
    if (f.header.subscription === sub.subscription) frames++;
  });
  await until('a frame', () => frames > 0);
  const session = a.c.session;

  // Held: on a loaded machine bob's three taps took longer than alice's reconnect delay, and she
  // resumed after two of them.
  a.hold();
  a.cut();
  await until('server noticed', () => bridge.sessions.get(session!)?.connection === undefined);
  // While alice is away, bob acts: alice's session buffers what happens.
  await tap(b, 'mbdemo://screen/more');
  await tap(b, 'mbdemo://screen/home');
  await tap(b, 'mbdemo://screen/settings');
  a.release();
  await until('resumed', () => a.sessions.length > 0, 5000);
  const resumed = a.sessions[0];
  assert.is(resumed.resumed, true);
  assert.is(resumed.session, session);
  assert.is(resumed.replayed, 3);
  assert.is(resumed.dropped, 0);
  await until('replayed activity', () => activity.length === 3);
  assert.equal(activity.map((p) => p.parameters.url), ['mbdemo://screen/more', 'mbdemo://screen/home', 'mbdemo://screen/settings']);
  assert.equal([...a.c.activeSubscriptions.keys()], [sub.subscription]);
  // Same subscription id; the current screen comes again at once, then frames flow as it changes.
  const resumedAt = frames;
  await until('the current screen after resume', () => frames > resumedAt);
  const before = frames;
  await tap(b, 'mbdemo://screen/more');
  await until('frames after resume', () => frames > before);
  await until('live activity after resume', () => activity.length === 4);
  await sleep(100);
  assert.is(activity.length, 4, 'no duplicates');
  await Promise.all([a.c.close(), b.close()]);
});

test('element diffs are not kept for a session away: a resume counts them dropped and starts the subscription over with a reset', async () => {
  ({ bridge } = await testBridge());
  const a = await droppable(bridge.wsUrl, 'alice');
  const b = await BridgeClient.connect({ url: bridge.wsUrl, client: 'bob', createSocket: nodeSocketFactory() });
  const events: ElementsChangedParams[] = [];
  const activity: DeviceActivityParams[] = [];
  a.c.on('elements.changed', (p) => events.push(p));
  a.c.on('device.activity', (p) => activity.push(p));
  const sub = await a.c.subscribe(ANDROID, { elements: true });
  await until('snapshot', () => events[0]?.reset);
  const session = a.c.session!;
  const kept = (method: string) =>
    bridge!.sessions
      .get(session)!
      .missedSince(0)
      .messages.filter((m) => (JSON.parse(textOf(m)) as { method: string }).method === method).length;
  // A diff or two while connected: they are in the ring, for a resume.
  await tap(b, 'mbdemo://screen/more');
  await until('a diff', () => events.some((e) => !e.reset));
  assert.ok(kept('elements.changed') > 0);

  a.hold();
  a.cut();
  await until('server noticed', () => bridge.sessions.get(session)?.connection === undefined);
  assert.is(kept('elements.changed'), 0, 'the diffs it had are let go');
  await tap(b, 'mbdemo://screen/home');
  await tap(b, 'mbdemo://screen/settings');
  await sleep(700); // element polling sees both screens
  assert.is(kept('elements.changed'), 0, 'no diff is kept while away');
  assert.ok(kept('device.activity') >= 2, 'activity is kept');
  const before = events.length;
  a.release();
  await until('resumed', () => a.sessions.length > 0, 5000);
  const resumed = a.sessions[0];
  assert.is(resumed.resumed, true);
  assert.ok(resumed.dropped > 0, `the diffs it missed are counted (dropped ${resumed.dropped})`);
  // Activity is still replayed in full.
  await until('replayed activity', () => activity.filter((p) => p.parameters.url !== 'mbdemo://screen/more').length === 2);
  // And the element subscription starts over from the screen as it is now.
  await until('a reset after the resume', () => events.slice(before).find((e) => e.reset));
  const reset = events.slice(before).find((e) => e.reset)!;
  assert.is(reset.subscription, sub.subscription);
  const now = await b.callTool('mobile_list_elements_on_screen', { device: ANDROID });
  assert.equal(reset.added.map((e) => e.id).sort(), (now as unknown as { elements: { id: string }[] }).elements.map((e) => e.id).sort());
  await Promise.all([a.c.close(), b.close()]);
});

test('the replay buffer is bounded and the resume says how many notifications were dropped', async () => {
  ({ bridge } = await testBridge({ replayBuffer: { messages: 2, bytes: 1 << 20 } }));
  const a = await droppable(bridge.wsUrl, 'alice');
  const b = await BridgeClient.connect({ url: bridge.wsUrl, createSocket: nodeSocketFactory() });
  const activity: DeviceActivityParams[] = [];
  a.c.on('device.activity', (p) => activity.push(p));
  await a.c.subscribe(ANDROID);
  const session = a.c.session!;
  a.hold();
  a.cut();
  await until('server noticed', () => bridge.sessions.get(session)?.connection === undefined);
  for (const screen of ['more', 'home', 'settings', 'inbox', 'more']) await tap(b, `mbdemo://screen/${screen}`);
  a.release();
  await until('resumed', () => a.sessions[0]);
  assert.equal([a.sessions[0].resumed, a.sessions[0].replayed, a.sessions[0].dropped], [true, 2, 3]);
  await until('replayed', () => activity.length === 2);
  assert.equal(activity.map((p) => p.parameters.url), ['mbdemo://screen/inbox', 'mbdemo://screen/more']);
  await Promise.all([a.c.close(), b.close()]);
});

test('after the grace period a resume fails clearly and the client re-subscribes under a new session', async () => {
  ({ bridge } = await testBridge({ resumeGraceMs: 100 }));
  const a = await droppable(bridge.wsUrl, 'alice', 400);
  const sub = await a.c.subscribe(ANDROID, { elements: true });
  const session = a.c.session!;
  bridge.sessions.get(session)!.connection!.close(4005, 'test: server-side drop');
  await until('resumed or not', () => a.sessions[0], 5000);
  const event = a.sessions[0];
  assert.is(event.resumed, false);
  assert.match(event.resumeError!, /unknown or expired/);
  assert.is.not(event.session, session);
  assert.is(event.resubscribed.length, 1);
  assert.is(event.resubscribed[0].old, sub.subscription);
  assert.ok(a.c.activeSubscriptions.has(event.resubscribed[0].new));
  assert.is(bridge.sessions.get(session), undefined);
  await a.c.close();
});

test('resume needs the session\'s resume_token', async () => {
  ({ bridge } = await testBridge());
  const owner = await RawClient.open(bridge.wsUrl);
  const hello = await owner.call('session.hello', { client: 'owner' });
  const thief = await RawClient.open(bridge.wsUrl);
  const stolen = await thief.call('session.hello', { resume: hello.session, resume_token: 'guess' });
  assert.is(stolen.resumed, false);
  assert.match(stolen.resume_error as string, /resume_token does not match/);
  assert.is.not(stolen.session, hello.session);
  // The id alone (what device.activity shows everyone) says what is missing, not that a token is wrong.
  const bare = await (await RawClient.open(bridge.wsUrl)).call('session.hello', { resume: hello.session });
  assert.is(bare.resumed, false);
  assert.match(bare.resume_error as string, new RegExp(`^resuming session ${hello.session} needs its resume_token \\(the one its session.hello answered with`));
  // With the token, a second connection takes the session over and the first is told why.
  const heir = await RawClient.open(bridge.wsUrl);
  const taken = await heir.call('session.hello', { resume: hello.session, resume_token: hello.resume_token, received: 0 });
  assert.is(taken.resumed, true);
  assert.equal(await until('the first connection closed', () => owner.closeEvent), { code: 4000, reason: 'session resumed on another connection' });
  // A refused resume on a connection that already carries a resumed session keeps that session, and says so.
  const again = await heir.call('session.hello', { resume: 'no-such-session' });
  assert.is(again.session, hello.session);
  assert.match(again.resume_error as string, `this connection stays on session ${hello.session}`);
  assert.match(stolen.resume_error as string, `this connection stays on session ${stolen.session}`);
  await Promise.all([thief.close(), heir.close()]);
});

test('a resume that claims more notifications than the session sent is refused, not resumed with the missed ones skipped', async () => {
  ({ bridge } = await testBridge());
  const away = await RawClient.open(bridge.wsUrl);
  const hello = await away.call('session.hello', { client: 'away' });
  await away.call('devices.subscribe', { device: ANDROID });
  const actor = await RawClient.open(bridge.wsUrl);
  const session = bridge.sessions.get(hello.session as string)!;
  await away.close();
  await until('server noticed', () => session.connection === undefined);
  await actor.call('tools.call', { tool: 'mobile_open_url', parameters: { device: ANDROID, url: 'mbdemo://screen/more' } });
  await until('the activity numbered', () => session.sent === 1);
  const back = await RawClient.open(bridge.wsUrl);
  back.send({ jsonrpc: '2.0', id: 1, method: 'session.hello', params: { resume: hello.session, resume_token: hello.resume_token, received: 5 } });
  const refused = await back.response(1);
  assert.is((refused.error as Json).code, RPC_ERRORS.INVALID_PARAMS);
  assert.match((refused.error as Json).message as string, /received is 5, but session s-\w+ has sent only 1 notifications/);
  // Nothing moved: the session still waits, and a resume with the right count gets what it missed.
  const resumed = await back.call('session.hello', { resume: hello.session, resume_token: hello.resume_token, received: 0 });
  assert.is(resumed.resumed, true);
  assert.is(resumed.replayed, 1);
  const activity = await back.notification('device.activity');
  assert.is((activity.parameters as Json).url, 'mbdemo://screen/more');
  await Promise.all([back.close(), actor.close()]);
});

test('devices.lock: mutating calls from others are refused, reads are not; takeover is explicit and announced', async () => {
  ({ bridge } = await testBridge());
  const a = await BridgeClient.connect({ url: bridge.wsUrl, client: 'runner', createSocket: nodeSocketFactory() });
  const b = await BridgeClient.connect({ url: bridge.wsUrl, client: 'viewer', createSocket: nodeSocketFactory() });
  const locksSeenByA: DeviceLockParams[] = [];
  const locksSeenByB: DeviceLockParams[] = [];
  a.on('device.lock', (p) => locksSeenByA.push(p));
  b.on('device.lock', (p) => locksSeenByB.push(p));
  await b.subscribe(ANDROID);
  const lock = (await a.request('devices.lock', { device: ANDROID })) as { holder: { session: string; client: string } };
  assert.equal(lock.holder, { session: a.session, client: 'runner' });
  await until('b told', () => locksSeenByB[0]);
  assert.equal(locksSeenByB[0].holder, { session: a.session, client: 'runner' });

  const refused = (await b.callTool('mobile_press_button', { device: ANDROID, button: 'HOME' })) as { status: string; code: string; message: string };
  assert.is(refused.code, 'PERMISSION_DENIED');
  assert.match(refused.message, new RegExp(`locked by session ${a.session} \\(runner\\)`));
  assert.match(refused.message, /takeover/);
  assert.equal(await b.callTool('mobile_get_screen_size', { device: ANDROID }), { width: 1080, height: 2400 });
  assert.is(((await a.callTool('mobile_press_button', { device: ANDROID, button: 'HOME' })) as { status: string }).status, 'success');
  // Another device is not affected.
  assert.is(((await b.callTool('mobile_press_button', { device: 'virtual-ios-1', button: 'HOME' })) as { status: string }).status, 'success');

  const noTakeover = (await b.request('devices.lock', { device: ANDROID })) as { code: string };
  assert.is(noTakeover.code, 'PERMISSION_DENIED');
  const notHolder = (await b.request('devices.unlock', { device: ANDROID })) as { code: string };
  assert.is(notHolder.code, 'PERMISSION_DENIED');
  const taken = (await b.request('devices.lock', { device: ANDROID, takeover: true })) as { holder: { session: string } };
  assert.is(taken.holder.session, b.session);
  await until('a told of the takeover', () => locksSeenByA.find((p) => p.holder?.session === b.session));
  assert.is(locksSeenByA[locksSeenByA.length - 1].previous?.session, a.session);
  const nowRefused = (await a.callTool('mobile_press_button', { device: ANDROID, button: 'HOME' })) as { code: string };
  assert.is(nowRefused.code, 'PERMISSION_DENIED');

  // The lock ends with its session.
  await b.close();
  assert.is(bridge.locks.holder(ANDROID), undefined);
  assert.is(((await a.callTool('mobile_press_button', { device: ANDROID, button: 'HOME' })) as { status: string }).status, 'success');
  await a.close();
});

test('a holder whose socket dropped hears on resume that its lock went, and its next tap is refused while another holds the device', async () => {
  ({ bridge } = await testBridge());
  const a = await droppable(bridge.wsUrl, 'viewer');
  const b = await BridgeClient.connect({ url: bridge.wsUrl, client: 'bob', createSocket: nodeSocketFactory() });
  const locksSeenByA: DeviceLockParams[] = [];
  a.c.on('device.lock', (p) => locksSeenByA.push(p));
  await a.c.request('devices.lock', { device: ANDROID });
  const session = a.c.session!;
  a.hold();
  a.cut();
  await until('server noticed', () => bridge.sessions.get(session)?.connection === undefined);
  await b.request('devices.lock', { device: ANDROID });
  a.release();
  await until('resumed', () => a.sessions.length > 0, 5000);
  assert.is(a.sessions[0].resumed, true);
  const released = await until('the release replayed', () => locksSeenByA.find((p) => p.holder === null));
  assert.equal(released, { device: ANDROID, holder: null, previous: { session, client: 'viewer' }, reason: 'its holder disconnected' });
  assert.is(bridge.locks.holder(ANDROID)?.id, b.session, 'the resumed session did not get the lock back');
  const refused = (await a.c.callTool('mobile_click_on_screen_at_coordinates', { device: ANDROID, x: 100, y: 100 })) as { code: string; message: string };
  assert.is(refused.code, 'PERMISSION_DENIED');
  assert.match(refused.message, `locked by session ${b.session} (bob)`);
  await Promise.all([a.c.close(), b.close()]);
});

test('devices.changed on plug/unplug; an unplugged device pauses its subscriptions, which resume by themselves when it is back', async () => {
  const driver = new PluggableDriver();
  ({ bridge } = await testBridge({ extraDrivers: [driver] }));
  const c = await RawClient.open(bridge.wsUrl);
  driver.plug('usb-1');
  const added = await c.notification('devices.changed');
  assert.equal(added, { added: [{ id: 'usb-1', os: 'Android', model: 'Pluggable', version: '1' }], removed: [], notes: [] });
  const { devices } = (await c.call('devices.list')) as { devices: { id: string }[] };
  assert.ok(devices.some((d) => d.id === 'usb-1'));
  const sub = await c.call('devices.subscribe', { device: 'usb-1', screen: { format: 'png' }, elements: true });
  await until('a frame of the new device', () => c.frames.find((f) => f.header.device === 'usb-1'));
  driver.unplug('usb-1');
  const gone = (await c.notification('devices.changed')) as { added: unknown[]; removed: string[]; gone: { id: string; state: string; reason: string }[] };
  assert.equal([gone.added, gone.removed], [[], ['usb-1']]);
  assert.equal(gone.gone.map((g) => [g.id, g.state]), [['usb-1', 'removed']]);
  assert.match(gone.gone[0].reason, /usb-1/);
  const paused = await c.notification('subscription.paused');
  assert.is(paused.subscription, sub.subscription);
  assert.match(paused.reason as string, /disconnected/);
  assert.is(bridge.hub.stats().subscriptions, 1, 'the subscription stays');
  // Issue 16: after an adb server restart the device comes back; frames and element events resume unasked.
  c.frames.length = 0;
  c.texts.length = 0;
  driver.plug('usb-1');
  const resumed = await c.notification('subscription.resumed');
  assert.is(resumed.subscription, sub.subscription);
  await until('frames again', () => c.frames.find((f) => f.header.device === 'usb-1'));
  await until('element events again', () => c.texts.some((t) => (t as { method?: string }).method === 'elements.changed'));
  await c.close();
});

test('a device gone without a device event (capture fails) pauses, and a probe resumes it once it answers', async () => {
  const driver = new PluggableDriver();
  ({ bridge } = await testBridge({ extraDrivers: [driver] }));
  const c = await RawClient.open(bridge.wsUrl);
  driver.plug('usb-2');
  await c.notification('devices.changed');
  const sub = await c.call('devices.subscribe', { device: 'usb-2', screen: { format: 'png' } });
  await until('a frame', () => c.frames.find((f) => f.header.device === 'usb-2'));
  driver.vanish('usb-2');
  const paused = await c.notification('subscription.paused');
  assert.is(paused.subscription, sub.subscription);
  c.frames.length = 0;
  driver.reappear('usb-2');
  const resumed = await c.notification('subscription.resumed', undefined, 10_000);
  assert.is(resumed.subscription, sub.subscription);
  await until('frames again', () => c.frames.find((f) => f.header.device === 'usb-2'));
  await c.close();
});

test('method groups keep per-session state, dropped with a cleanup hook when the session ends', async () => {
  const ended: string[] = [];
  const KEY = Symbol('counter');
  const counter = defineExtensionMethod('test.count', v.strictObject({}), (_p, ctx) => {
    const state = ctx.session.state(KEY, () => {
      ctx.session.onEnd((reason) => ended.push(reason));
      return { n: 0 };
    });
    return { n: ++state.n };
  });
  ({ bridge } = await testBridge({ methods: [counter] }));
  const a = await RawClient.open(bridge.wsUrl);
  const b = await RawClient.open(bridge.wsUrl);
  assert.equal(await a.call('test.count', {}), { n: 1 });
  assert.equal(await a.call('test.count', {}), { n: 2 });
  assert.equal(await b.call('test.count', {}), { n: 1 });
  await a.call('session.bye');
  assert.equal(ended, ['session.bye']);
  await b.close();
});

test.run();
