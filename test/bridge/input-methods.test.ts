import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connectBridge } from '../../src/protocol/node.js';
import { RPC_ERRORS, type DeviceActivityParams, type RpcError } from '../../src/protocol/index.js';
import { createEngine } from '../../src/engine/create.js';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import type { TouchPhase } from '../../src/engine/types.js';
import { ANDROID, RawClient, testBridge, until } from './helpers.js';

/** input.touch / input.key over the protocol (issue 17): lock rules, one activity entry per drag, bad input. */

test('a locked device refuses others\' touches and keys; the holder\'s drag is one activity entry for every watcher', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] } });
  const holder = await connectBridge(bridge.wsUrl, { client: 'holder' });
  const other = await connectBridge(bridge.wsUrl, { client: 'other' });
  try {
    const seen: DeviceActivityParams[] = [];
    other.on('device.activity', (a) => seen.push(a));
    await other.subscribe(ANDROID, { elements: false });
    await holder.callTool('mobile_open_url', { device: ANDROID, url: 'mbdemo://screen/home' });
    await holder.request('devices.lock', { device: ANDROID });
    const refused = (await other.request('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 })) as { code?: string; message?: string };
    assert.is(refused.code, 'PERMISSION_DENIED');
    assert.match(refused.message ?? '', /input\.touch down refused: device virtual-android-1 is locked/);
    assert.is(((await other.request('input.key', { device: ANDROID, key: 'BACKSPACE' })) as { code?: string }).code, 'PERMISSION_DENIED');
    const before = seen.length;
    assert.equal(await holder.request('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 }), { status: 'success', streamed: true });
    for (let y = 1480; y >= 1200; y -= 40) await holder.request('input.touch', { device: ANDROID, action: 'move', x: 500, y });
    await holder.request('input.touch', { device: ANDROID, action: 'up', x: 500, y: 1200 });
    await until('the drag in the other session\'s activity', () => seen.some((a) => a.tool === 'input.touch'));
    const drags = seen.slice(before).filter((a) => a.tool === 'input.touch');
    assert.is(drags.length, 1, 'one entry, not one per move');
    assert.equal([drags[0].parameters.from, drags[0].parameters.to, drags[0].parameters.moves], [{ x: 500, y: 1500 }, { x: 500, y: 1200 }, 8]);
    assert.is(drags[0].client, 'holder');
  } finally {
    await holder.close();
    await other.close();
    await bridge.close();
  }
});

test('bad input.touch parameters are protocol errors that say what is allowed and which device the call was for', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] } });
  const client = await connectBridge(bridge.wsUrl, { client: 't' });
  try {
    const err = await client.request('input.touch', { device: ANDROID, action: 'drag' as 'down', x: 1, y: 1 }).then(() => undefined, (e: RpcError) => e);
    assert.match(err?.message ?? '', /^invalid params for input\.touch on virtual-android-1: action must be one of down, move, up, cancel/);
    assert.is(err?.code, RPC_ERRORS.INVALID_PARAMS);
    assert.equal((err?.data as { issues: { path: string }[] }).issues.map((i) => i.path), ['action']);
    const far = await client.request('input.touch', { device: ANDROID, action: 'down', x: 1, y: 200_000 }).then(() => undefined, (e: Error) => e);
    assert.match(far?.message ?? '', /^invalid params for input\.touch on virtual-android-1: y must be at most 100000/);
    // A down off the screen is the same refusal whichever edge it is past.
    const neg = (await client.request('input.touch', { device: ANDROID, action: 'down', x: -1, y: 1 })) as { code?: string; message?: string };
    assert.is(neg.code, 'INVALID_PARAMETER');
    assert.match(neg.message ?? '', 'touch down at (-1, 1) is outside the screen of virtual-android-1');
    const key = await client.request('input.key', { device: ANDROID, key: 'F5' as 'TAB' }).then(() => undefined, (e: Error) => e);
    assert.match(key?.message ?? '', /^invalid params for input\.key on virtual-android-1: key must be one of BACKSPACE/);
    const stray = (await client.request('input.touch', { device: ANDROID, action: 'up', x: 1, y: 1 })) as { code?: string };
    assert.is(stray.code, 'INVALID_PARAMETER', 'an up with no finger down');
  } finally {
    await client.close();
    await bridge.close();
  }
});

test('input.key with modifiers ["CTRL"] presses a letter\'s shortcut: Ctrl+A selects the focused field on the virtual Android; a letter alone and CTRL on other keys are refused', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android', 'ios'] } });
  const client = await connectBridge(bridge.wsUrl, { client: 'viewer' });
  const IOS = 'virtual-ios-1';
  try {
    const seen: DeviceActivityParams[] = [];
    client.on('device.activity', (a) => seen.push(a));
    await client.subscribe(ANDROID, { elements: false });
    await client.callTool('mobile_open_url', { device: ANDROID, url: 'mbdemo://screen/signin' });
    const form = (await client.callTool('mobile_list_elements_on_screen', { device: ANDROID })) as { elements: { id: string; center: { x: number; y: number } }[] };
    await client.callTool('mobile_click_on_screen_at_coordinates', { device: ANDROID, ...form.elements.find((e) => e.id === 'email')!.center });
    await client.callTool('mobile_type_keys', { device: ANDROID, text: 'old@example.com' });
    const pressed = (await client.request('input.key', { device: ANDROID, key: 'A', modifiers: ['CTRL'] })) as { status?: string; message?: string };
    assert.equal([pressed.status, pressed.message], ['success', `pressed CTRL+A on ${ANDROID}`]);
    await client.callTool('mobile_type_keys', { device: ANDROID, text: 'new@example.com' });
    const listed = (await client.callTool('mobile_list_elements_on_screen', { device: ANDROID })) as { elements: { id: string; text: string }[] };
    assert.is(listed.elements.find((e) => e.id === 'email')?.text, 'new@example.com', 'typing replaced what Ctrl+A selected');
    await until('the key in the activity feed', () => seen.some((a) => a.tool === 'input.key'));
    const entry = seen.find((a) => a.tool === 'input.key')!;
    assert.equal(entry.parameters.modifiers, ['CTRL']);
    assert.match(entry.summary ?? '', /pressed CTRL\+A/);
    const alone = (await client.request('input.key', { device: ANDROID, key: 'A' })) as { code?: string; message?: string };
    assert.is(alone.code, 'INVALID_PARAMETER');
    assert.match(alone.message ?? '', /mobile_type_keys/);
    const ctrlTab = (await client.request('input.key', { device: ANDROID, key: 'TAB', modifiers: ['CTRL'] })) as { code?: string };
    assert.is(ctrlTab.code, 'INVALID_PARAMETER');
    const shift = await client.request('input.key', { device: ANDROID, key: 'A', modifiers: ['SHIFT' as 'CTRL'] }).then(() => undefined, (e: RpcError) => e);
    assert.is(shift?.code, RPC_ERRORS.INVALID_PARAMS);
    assert.match(shift?.message ?? '', /modifiers may hold CTRL/);
    const ios = (await client.request('input.key', { device: IOS, key: 'A', modifiers: ['CTRL'] })) as { code?: string; message?: string };
    assert.is(ios.code, 'UNSUPPORTED');
    assert.match(ios.message ?? '', /no Ctrl key/);
  } finally {
    await client.close();
    await bridge.close();
  }
});

test('a finger dragged past the top or left edge stays on the edge, as past the others', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] } });
  const client = await connectBridge(bridge.wsUrl, { client: 'viewer' });
  try {
    assert.equal(await client.request('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 }), { status: 'success', streamed: true });
    const move = (await client.request('input.touch', { device: ANDROID, action: 'move', x: -40, y: 1400 })) as { status?: string };
    assert.is(move.status, 'success', JSON.stringify(move));
    const up = (await client.request('input.touch', { device: ANDROID, action: 'up', x: -40, y: -25 })) as { status?: string; message?: string };
    assert.is(up.status, 'success', JSON.stringify(up));
    assert.match(up.message ?? '', 'to (0, 0)');
  } finally {
    await client.close();
    await bridge.close();
  }
});

test('a finger left down is lifted when its session ends, so the next caller can touch', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] }, resumeGraceMs: 50 });
  const first = await connectBridge(bridge.wsUrl, { client: 'first' });
  const second = await connectBridge(bridge.wsUrl, { client: 'second' });
  try {
    await first.request('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 });
    assert.is(((await second.request('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 })) as { code?: string }).code, 'PERMISSION_DENIED');
    await first.request('session.bye', {});
    const deadline = Date.now() + 5000;
    let r: { status?: string; code?: string } = {};
    while (Date.now() < deadline) {
      r = (await second.request('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 })) as typeof r;
      if (r.status === 'success') break;
      await new Promise((res) => setTimeout(res, 50));
    }
    assert.is(r.status, 'success', JSON.stringify(r));
    await second.request('input.touch', { device: ANDROID, action: 'cancel', x: 500, y: 1500 });
  } finally {
    await first.close().catch(() => undefined);
    await second.close();
    await bridge.close();
  }
});

/** A virtual phone whose finger reports, in order, what it was told (down, move, up, cancel). */
function watchedPhone(): { driver: VirtualDriver; told: TouchPhase[] } {
  const driver = new VirtualDriver({ devices: ['android'] });
  const phone = driver.device(ANDROID)!;
  const told: TouchPhase[] = [];
  const touch = phone.touch.bind(phone);
  phone.touch = (phase, x, y, ctx) => (told.push(phase), touch(phase, x, y, ctx));
  return { driver, told };
}

test('a socket dropped mid-drag lifts the finger on the device at once; the session still resumes', async () => {
  const { driver, told } = watchedPhone();
  // The default resume grace (30 s) and idle cancel (15 s) are far beyond the wait below.
  const { bridge } = await testBridge({ engine: createEngine({ virtual: false, extraDrivers: [driver] }) });
  const dropped = await RawClient.open(bridge.wsUrl);
  let back: RawClient | undefined;
  try {
    const hello = (await dropped.call('session.hello', { client: 'viewer' })) as { session: string; resume_token: string };
    assert.equal(await dropped.call('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 }), { status: 'success', streamed: true });
    await dropped.call('input.touch', { device: ANDROID, action: 'move', x: 500, y: 1400 });
    assert.equal(told, ['down', 'move']);
    dropped.ws.terminate();
    await until('the finger lifted on the phone', () => told.length > 2);
    assert.equal(told, ['down', 'move', 'cancel']);
    assert.ok(bridge.sessions.get(hello.session), 'the session waits for a resume');

    back = await RawClient.open(bridge.wsUrl);
    const resumed = (await back.call('session.hello', { client: 'viewer', resume: hello.session, resume_token: hello.resume_token, received: 0 })) as { resumed: boolean };
    assert.is(resumed.resumed, true);
    const move = (await back.call('input.touch', { device: ANDROID, action: 'move', x: 500, y: 1300 })) as { code?: string };
    assert.is(move.code, 'INVALID_PARAMETER', 'the lifted finger stays lifted after the resume');
    assert.equal(told, ['down', 'move', 'cancel']);
  } finally {
    dropped.ws.terminate();
    await back?.close();
    await bridge.close();
  }
});

test('a session resumed on a new socket while the old one looks open lifts the old socket\'s finger; the session keeps its lock', async () => {
  const { driver, told } = watchedPhone();
  const { bridge } = await testBridge({ engine: createEngine({ virtual: false, extraDrivers: [driver] }) });
  const old = await RawClient.open(bridge.wsUrl);
  let back: RawClient | undefined;
  let other: RawClient | undefined;
  try {
    const hello = (await old.call('session.hello', { client: 'viewer' })) as { session: string; resume_token: string };
    await old.call('devices.lock', { device: ANDROID });
    await old.call('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 });
    await old.call('input.touch', { device: ANDROID, action: 'move', x: 500, y: 1400 });
    assert.equal(told, ['down', 'move']);

    // The old socket is still open: the bridge has not noticed that the client lost it.
    back = await RawClient.open(bridge.wsUrl);
    const resumed = (await back.call('session.hello', { client: 'viewer', resume: hello.session, resume_token: hello.resume_token, received: 0 })) as { resumed: boolean };
    assert.is(resumed.resumed, true);
    await until('the finger lifted on the phone', () => told.length > 2);
    assert.equal(told, ['down', 'move', 'cancel']);
    await until('the old socket closed', () => old.closeEvent);
    assert.equal(old.closeEvent, { code: 4000, reason: 'session resumed on another connection' });
    const move = (await back.call('input.touch', { device: ANDROID, action: 'move', x: 500, y: 1300 })) as { code?: string };
    assert.is(move.code, 'INVALID_PARAMETER', 'the old socket\'s drag is over');

    // The lock is the session's, not the socket's: it stays, and the session still drives the phone.
    assert.is(bridge.locks.holder(ANDROID)?.id, hello.session);
    other = await RawClient.open(bridge.wsUrl);
    const refused = (await other.call('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 })) as { code?: string };
    assert.is(refused.code, 'PERMISSION_DENIED');
    assert.equal(await back.call('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 }), { status: 'success', streamed: true });
    await back.call('input.touch', { device: ANDROID, action: 'up', x: 500, y: 1500 });
  } finally {
    old.ws.terminate();
    await back?.close();
    await other?.close();
    await bridge.close();
  }
});

test('what still arrives on a socket whose session was resumed elsewhere does not act for the session', async () => {
  const { driver, told } = watchedPhone();
  const { bridge } = await testBridge({ engine: createEngine({ virtual: false, extraDrivers: [driver] }) });
  const old = await RawClient.open(bridge.wsUrl);
  let back: RawClient | undefined;
  try {
    const hello = (await old.call('session.hello', { client: 'viewer' })) as { session: string; resume_token: string };
    // The old client reads nothing more, so it does not see the bridge close its socket and goes on sending.
    const socket = (old.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    socket.pause();
    back = await RawClient.open(bridge.wsUrl);
    await back.call('session.hello', { client: 'viewer', resume: hello.session, resume_token: hello.resume_token, received: 0 });
    old.send({ jsonrpc: '2.0', method: 'input.touch', params: { device: ANDROID, action: 'down', x: 500, y: 1500 } });
    socket.resume();
    // Once the bridge has the old socket's close, it has read the notification sent before it, and
    // started it before anything the new socket sends after that.
    await until('the old socket gone from the bridge', () => bridge.stats().connections === 1);
    const move = (await back.call('input.touch', { device: ANDROID, action: 'move', x: 500, y: 1400 })) as { code?: string };
    assert.is(move.code, 'INVALID_PARAMETER', 'no finger was put down for the session');
    assert.equal(told, []);
  } finally {
    old.ws.terminate();
    await back?.close();
    await bridge.close();
  }
});

test('a cancel with no finger of the caller\'s own down changes nothing: nothing reaches the phone, another caller\'s finger stays', async () => {
  const { driver, told } = watchedPhone();
  const { bridge } = await testBridge({ engine: createEngine({ virtual: false, extraDrivers: [driver] }) });
  const first = await RawClient.open(bridge.wsUrl);
  const second = await RawClient.open(bridge.wsUrl);
  try {
    const none = (await first.call('input.touch', { device: ANDROID, action: 'cancel', x: 500, y: 1500 })) as { code?: string };
    assert.is(none.code, 'INVALID_PARAMETER');
    await first.call('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 });
    const others = (await second.call('input.touch', { device: ANDROID, action: 'cancel', x: 500, y: 1500 })) as { code?: string };
    assert.is(others.code, 'PERMISSION_DENIED');
    assert.equal(await first.call('input.touch', { device: ANDROID, action: 'move', x: 500, y: 1400 }), { status: 'success', streamed: true });
    assert.equal(told, ['down', 'move']);
    await first.call('input.touch', { device: ANDROID, action: 'up', x: 500, y: 1400 });
  } finally {
    await first.close();
    await second.close();
    await bridge.close();
  }
});


test('a verb, a tool call or a key is refused while another session\'s finger is down on the device, as that session\'s touches are; after the up it runs', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] } });
  const person = await connectBridge(bridge.wsUrl, { client: 'person' });
  const agent = await connectBridge(bridge.wsUrl, { client: 'agent' });
  try {
    await person.callTool('mobile_open_url', { device: ANDROID, url: 'mbdemo://screen/home' });
    assert.equal(await person.request('input.touch', { device: ANDROID, action: 'down', x: 500, y: 1500 }), { status: 'success', streamed: true });
    const acted: string[] = [];
    const off = bridge.engine.onCall((e) => e.mutates && acted.push(e.tool));
    const refused = (await agent.request('verbs.run', { device: ANDROID, step: { action: 'press_back' } })) as { code?: string; message?: string };
    off();
    assert.is(refused.code, 'PERMISSION_DENIED', JSON.stringify(refused));
    assert.match(refused.message ?? '', /has a finger down on virtual-android-1; wait until it lifts/);
    // Nor a raw tool or a key: the same refusal, whichever way the caller acts.
    const tapped = (await agent.callTool('mobile_click_on_screen_at_coordinates', { device: ANDROID, x: 100, y: 100 })) as { code?: string; message?: string };
    assert.is(tapped.code, 'PERMISSION_DENIED', JSON.stringify(tapped));
    assert.match(tapped.message ?? '', /has a finger down on virtual-android-1; wait until it lifts/);
    const key = (await agent.requestRaw('input.key', { device: ANDROID, key: 'ENTER' })) as { code?: string };
    assert.is(key.code, 'PERMISSION_DENIED', JSON.stringify(key));
    const looked = (await agent.callTool('mobile_get_screen_size', { device: ANDROID })) as { code?: string };
    assert.is.not(looked.code, 'PERMISSION_DENIED', 'a tool that only looks runs under the finger');
    assert.equal(acted, [], 'nothing reached the phone under the finger');
    // A verb that only looks does not act under the finger.
    const waited = (await agent.request('verbs.run', { device: ANDROID, step: { action: 'wait_for_element', target: 'anything', wait_config: { type: 'element_visible', timeout_ms: 1 } } })) as { code?: string };
    assert.is.not(waited.code, 'PERMISSION_DENIED', JSON.stringify(waited));
    await person.request('input.touch', { device: ANDROID, action: 'up', x: 500, y: 1500 });
    const ran = (await agent.request('verbs.run', { device: ANDROID, step: { action: 'press_back' } })) as { status?: string };
    assert.is(ran.status, 'passed', JSON.stringify(ran));
  } finally {
    await person.close();
    await agent.close();
    await bridge.close();
  }
});

test.run();
