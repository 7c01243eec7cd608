import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { ActivityFeed } from '../../src/bridge/activity/feed.js';
import type { CallEvent } from '../../src/engine/engine.js';
import { failure } from '../../src/engine/errors.js';
import type { UiElement } from '../../src/engine/types.js';
import type { ActivityRecentResult, DeviceActivityParams, DeviceLockParams } from '../../src/protocol/index.js';
import { ANDROID, RawClient, testBridge, until } from './helpers.js';

/** Issue 17 item 4 at the protocol level: named, masked, merged activity; the ring for late joiners; locks that go with their holder. */

const test = suite('activity feed and locks');
let bridge: Bridge;

test.after.each(async () => {
  await bridge?.close();
});

const DEMO = 'com.mobilebridge.demo';

async function elements(): Promise<UiElement[]> {
  // Straight to the device: no engine call event, so the bridge learns nothing from it.
  return bridge.engine.withDevice(ANDROID, 'test listing', (d, ctx) => d.listElements(ctx));
}

async function find(id: string): Promise<UiElement> {
  const e = (await elements()).find((x) => x.id === id);
  if (!e) throw new Error(`no ${id} on screen`);
  return e;
}

function activities(c: RawClient): DeviceActivityParams[] {
  return c.texts.filter((m) => (m as { method?: string }).method === 'device.activity').map((m) => (m as { params: DeviceActivityParams }).params);
}

async function sawSummary(c: RawClient, summary: string): Promise<DeviceActivityParams> {
  return until(`an activity “${summary}”`, () => activities(c).find((a) => a.summary === summary), 8000);
}

async function watcher(client = 'watcher'): Promise<RawClient> {
  const c = await RawClient.open(bridge.wsUrl);
  await c.call('session.hello', { client });
  await c.call('devices.subscribe', { device: ANDROID, elements: true });
  return c;
}

test('typing into a password field is shown as a count of characters, never the text; taps name the element', async () => {
  ({ bridge } = await testBridge());
  const agent = await RawClient.open(bridge.wsUrl);
  await agent.call('session.hello', { client: 'agent' });
  const watching = await watcher();
  await agent.call('tools.call', { tool: 'mobile_launch_app', parameters: { device: ANDROID, packageName: DEMO } });
  // The agent looks at the screen the way agents do; the bridge names things from that listing.
  await agent.call('tools.call', { tool: 'mobile_list_elements_on_screen', parameters: { device: ANDROID } });
  const email = await find('email');
  await agent.call('tools.call', { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: ANDROID, x: email.center.x, y: email.center.y } });
  const tap = await sawSummary(watching, 'tapped the “Email” field');
  assert.equal(tap.element, { id: 'email', type: 'edittext', name: 'Email' });
  await agent.call('tools.call', { tool: 'mobile_type_keys', parameters: { device: ANDROID, text: 'ada@example.com' } });
  const typed = await sawSummary(watching, 'typed “ada@example.com” into the “Email” field');
  assert.is(typed.masked, undefined);

  const password = await find('password');
  await agent.call('tools.call', { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: ANDROID, x: password.center.x, y: password.center.y } });
  await sawSummary(watching, 'tapped the “Password” field');
  // Counted as a person sees them: the thumbs-up with its skin tone is one character (two code points).
  await agent.call('tools.call', { tool: 'mobile_type_keys', parameters: { device: ANDROID, text: 'secret12\u{1F44D}\u{1F3FD}' } });
  const secret = await sawSummary(watching, 'typed 9 characters into the “Password” field');
  assert.is(secret.parameters.text, '•••');
  assert.is(secret.masked?.characters, 9);
  assert.match(secret.masked?.reason ?? '', 'password');
  assert.is((await find('password')).text.length, 12, 'the text did reach the device (a dot per UTF-16 unit, as Android masks)');

  const recent = (await watching.call('activity.recent', { device: ANDROID })) as unknown as ActivityRecentResult;
  assert.ok(recent.entries.some((e) => e.summary === 'typed 9 characters into the “Password” field'));
  for (const text of [JSON.stringify(watching.texts), JSON.stringify(agent.texts.filter((m) => (m as { method?: string }).method)), JSON.stringify(recent)]) {
    assert.not.match(text, 'secret12', 'the password appears in no notification and not in the ring');
  }
  await Promise.all([agent.close(), watching.close()]);
});

test('with nothing listed yet the bridge looks at the screen before telling what was typed; a tap with no listing keeps its coordinates', async () => {
  ({ bridge } = await testBridge());
  const agent = await RawClient.open(bridge.wsUrl);
  await agent.call('tools.call', { tool: 'mobile_launch_app', parameters: { device: ANDROID, packageName: DEMO } });
  const password = await find('password');
  await agent.call('tools.call', { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: ANDROID, x: password.center.x, y: password.center.y } });
  await agent.call('tools.call', { tool: 'mobile_type_keys', parameters: { device: ANDROID, text: 'hunter22' } });
  // A late joiner (no subscription while it happened) reads the ring.
  const late = await RawClient.open(bridge.wsUrl);
  const recent = (await until('the typing entry', async () => {
    const r = (await late.call('activity.recent', { device: ANDROID })) as unknown as ActivityRecentResult;
    return r.entries.length >= 3 ? r : undefined;
  })) as unknown as Promise<ActivityRecentResult>;
  const entries = (await recent).entries;
  assert.equal(entries.map((e) => e.summary), [`launched ${DEMO}`, `tapped (${password.center.x}, ${password.center.y})`, 'typed 8 characters into the “Password” field']);
  assert.not.match(JSON.stringify(entries), 'hunter22');
  await Promise.all([agent.close(), late.close()]);
});

test('a tap the bridge cannot place (the listing is older than the last action) makes the focus unknown: typing is masked while a password field is on screen', async () => {
  ({ bridge } = await testBridge());
  const agent = await RawClient.open(bridge.wsUrl);
  await agent.call('tools.call', { tool: 'mobile_launch_app', parameters: { device: ANDROID, packageName: DEMO } });
  await agent.call('tools.call', { tool: 'mobile_list_elements_on_screen', parameters: { device: ANDROID } });
  const [email, password] = [await find('email'), await find('password')];
  await agent.call('tools.call', { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: ANDROID, x: email.center.x, y: email.center.y } });
  // No listing since that tap (nobody watches): the next tap's element is not known for sure.
  await agent.call('tools.call', { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: ANDROID, x: password.center.x, y: password.center.y } });
  await agent.call('tools.call', { tool: 'mobile_type_keys', parameters: { device: ANDROID, text: 'hunter22' } });
  const recent = (await agent.call('activity.recent', { device: ANDROID })) as unknown as ActivityRecentResult;
  assert.equal(recent.entries.map((e) => e.summary).slice(-3), ['tapped the “Email” field', `tapped (${password.center.x}, ${password.center.y})`, 'typed 8 characters into a field']);
  // Likewise after a key that may move the focus (an IME "next" on ENTER, Tab).
  await agent.call('tools.call', { tool: 'mobile_list_elements_on_screen', parameters: { device: ANDROID } });
  await agent.call('tools.call', { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: ANDROID, x: email.center.x, y: email.center.y } });
  await agent.call('tools.call', { tool: 'mobile_press_button', parameters: { device: ANDROID, button: 'ENTER' } });
  await agent.call('tools.call', { tool: 'mobile_type_keys', parameters: { device: ANDROID, text: 'x' } });
  const after = (await agent.call('activity.recent', { device: ANDROID })) as unknown as ActivityRecentResult;
  assert.is(after.entries[after.entries.length - 1].summary, 'typed 1 character into a field');
  assert.match(recent.entries[recent.entries.length - 1].masked?.reason ?? '', 'could not tell which field');
  assert.not.match(JSON.stringify(recent), 'hunter22');
  await agent.close();
});

test('keys typed in quick succession make one entry (same id, count), ENTER included; other actions start a new one', async () => {
  ({ bridge } = await testBridge());
  const watching = await watcher();
  const agent = await RawClient.open(bridge.wsUrl);
  await agent.call('tools.call', { tool: 'mobile_launch_app', parameters: { device: ANDROID, packageName: DEMO } });
  await agent.call('tools.call', { tool: 'mobile_list_elements_on_screen', parameters: { device: ANDROID } });
  const email = await find('email');
  await agent.call('tools.call', { tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: ANDROID, x: email.center.x, y: email.center.y } });
  for (const text of ['ad', 'a@', 'x.io']) await agent.call('tools.call', { tool: 'mobile_type_keys', parameters: { device: ANDROID, text } });
  await agent.call('tools.call', { tool: 'mobile_press_button', parameters: { device: ANDROID, button: 'ENTER' } });
  const last = await sawSummary(watching, 'typed “ada@x.io” into the “Email” field and pressed ENTER');
  assert.is(last.count, 4);
  const typing = activities(watching).filter((a) => a.tool === 'mobile_type_keys');
  assert.equal(new Set(typing.map((a) => a.id)).size, 1, 'every typing notification carries the one entry id');
  await agent.call('tools.call', { tool: 'mobile_press_button', parameters: { device: ANDROID, button: 'HOME' } });
  const home = await sawSummary(watching, 'pressed HOME');
  assert.ok(home.id > last.id);
  const recent = (await watching.call('activity.recent', { device: ANDROID })) as unknown as ActivityRecentResult;
  assert.equal(recent.entries.map((e) => e.summary).slice(-3), ['tapped the “Email” field', 'typed “ada@x.io” into the “Email” field and pressed ENTER', 'pressed HOME']);
  await Promise.all([agent.close(), watching.close()]);
});

test('activity.recent keeps the last 50 entries, oldest first, and says who holds the lock', async () => {
  ({ bridge } = await testBridge());
  const agent = await RawClient.open(bridge.wsUrl);
  await agent.call('session.hello', { client: 'agent' });
  for (let i = 0; i < 60; i++) await agent.call('tools.call', { tool: 'mobile_press_button', parameters: { device: ANDROID, button: i % 2 ? 'HOME' : 'VOLUME_UP' } });
  const lock = await agent.call('devices.lock', { device: ANDROID });
  const late = await RawClient.open(bridge.wsUrl);
  const recent = (await late.call('activity.recent', { device: ANDROID })) as unknown as ActivityRecentResult;
  assert.is(recent.entries.length, 50);
  assert.equal(recent.entries.map((e) => e.id), Array.from({ length: 50 }, (_, i) => i + 11));
  assert.is(recent.entries[49].summary, 'pressed HOME');
  assert.is(recent.entries[49].client, 'agent');
  assert.equal(recent.lock, lock as unknown as ActivityRecentResult['lock']);
  const other = (await late.call('activity.recent', { device: 'virtual-ios-1' })) as unknown as ActivityRecentResult;
  assert.equal(other, { device: 'virtual-ios-1', entries: [], lock: null });
  await Promise.all([agent.close(), late.close()]);
});

test('activity.recent on a device id that is not connected is DEVICE_NOT_FOUND naming the connected ones, not an empty history', async () => {
  ({ bridge } = await testBridge());
  const c = await RawClient.open(bridge.wsUrl);
  try {
    const r = await c.call('activity.recent', { device: 'virtual-andriod-1' });
    assert.is(r.status, 'error', JSON.stringify(r));
    assert.is(r.code, 'DEVICE_NOT_FOUND');
    assert.match(String(r.message), /"virtual-andriod-1" not found; connected devices: .*virtual-android-1/);
  } finally {
    await c.close();
  }
});

test('a lock goes at once when its holder disconnects (not after the resume grace), and watchers are told why', async () => {
  ({ bridge } = await testBridge({ resumeGraceMs: 60_000 }));
  const holder = await RawClient.open(bridge.wsUrl);
  const hello = await holder.call('session.hello', { client: 'laptop' });
  const watching = await watcher();
  const lock = await holder.call('devices.lock', { device: ANDROID });
  const taken = (await watching.notification('device.lock', (p) => p.holder !== null)) as unknown as DeviceLockParams;
  assert.is(taken.since, lock.since as string, 'the badge can say since when');
  holder.ws.terminate();
  const released = (await watching.notification('device.lock', (p) => p.holder === null)) as unknown as DeviceLockParams;
  assert.is(released.reason, 'its holder disconnected');
  assert.is(released.previous?.session, hello.session as string);
  assert.is(bridge.locks.holder(ANDROID), undefined);
  assert.ok(bridge.sessions.get(hello.session as string), 'the session itself still waits for a resume');
  const done = await watching.call('tools.call', { tool: 'mobile_press_button', parameters: { device: ANDROID, button: 'HOME' } });
  assert.is(done.status, 'success', 'others can drive the device again');
  await watching.close();
});

test('a lock backing a running scenario outlives its holder’s connection until the run stops', async () => {
  ({ bridge } = await testBridge({ resumeGraceMs: 60_000 }));
  const holder = await RawClient.open(bridge.wsUrl);
  const hello = await holder.call('session.hello', { client: 'ci' });
  const scenario = {
    $schema_version: '2.1',
    scenario_id: 'long_wait',
    name: 'waits',
    description: 'a run that takes a while',
    platform: 'android',
    app_package: DEMO,
    metadata: { app_version: '1.0', environment: 'development' },
    steps: [
      { id: 'launch', action: 'launch_app', description: 'open' },
      { id: 'wait', action: 'wait_for_element', description: 'never comes', target: 'a button that never appears', wait_config: { type: 'element_visible', timeout_ms: 3000 } },
    ],
    assertions: [],
  };
  holder.send({ jsonrpc: '2.0', id: 99, method: 'scenarios.run', params: { device: ANDROID, scenario } });
  await holder.notification('scenario.progress', (p) => p.type === 'started', 20_000).catch(async (err: Error) => {
    throw new Error(`${err.message}: ${JSON.stringify(holder.texts).slice(0, 600)}`);
  });
  assert.is(bridge.locks.holder(ANDROID)?.id, hello.session as string);
  holder.ws.terminate();
  await until('the socket is gone', () => bridge.stats().connections === 1 || bridge.stats().connections === 0);
  assert.is(bridge.locks.holder(ANDROID)?.id, hello.session as string, 'the run keeps the device');
  await until('the run ended and released the lock', () => bridge.locks.holder(ANDROID) === undefined, 45_000);
});

test.run();

const rings = suite('activity rings');

function press(device: string, result: unknown = { status: 'success', message: 'pressed HOME' }): CallEvent {
  return { device, tool: 'mobile_press_button', parameters: { device, button: 'HOME' }, result, ok: !(result as { code?: string }).code, mutates: true, origin: 's-1', durationMs: 1 };
}

function feed(): { feed: ActivityFeed; shown: DeviceActivityParams[] } {
  const shown: DeviceActivityParams[] = [];
  return { feed: new ActivityFeed({ list: async () => [], broadcast: (_d, a) => void shown.push(a), log: () => undefined }), shown };
}

rings('calls on mistyped device ids are not recorded and leave real devices\' history alone', () => {
  const { feed: f, shown } = feed();
  f.onCall(press(ANDROID), () => ({ session: 's-1' }));
  for (let n = 0; n < 600; n++) f.onCall(press(`typo-${n}`, failure('DEVICE_NOT_FOUND', `device typo-${n} not found`)), () => ({ session: 's-1' }));
  assert.is(shown.length, 1, 'nothing shown for the typos');
  assert.equal(f.recent('typo-1'), []);
  assert.equal(f.recent(ANDROID).map((e) => e.id), [1]);
  f.onCall(press(ANDROID), () => ({ session: 's-1' }));
  assert.equal(f.recent(ANDROID).map((e) => e.id), [1, 2]);
  // A known device that went away still gets its failures recorded.
  f.onCall(press(ANDROID, failure('DEVICE_NOT_FOUND', 'unplugged')), () => ({ session: 's-1' }));
  assert.equal(f.recent(ANDROID).map((e) => [e.id, e.outcome.code]), [[1, undefined], [2, undefined], [3, 'DEVICE_NOT_FOUND']]);
});

rings('a device whose ring was let go for others goes on with its ids, never from 1 again', () => {
  const { feed: f } = feed();
  for (let n = 0; n <= 500; n++) f.onCall(press(`phone-${n}`), () => ({ session: 's-1' }));
  assert.equal(f.recent('phone-0'), [], 'the least recently used of 501 devices was let go');
  f.onCall(press('phone-0'), () => ({ session: 's-1' }));
  assert.equal(f.recent('phone-0').map((e) => e.id), [2]);
  assert.equal(f.recent('phone-500').map((e) => e.id), [1]);
});

rings.run();
