import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startBridge, type Bridge } from '../../src/bridge/index.js';
import { Peer } from '../../src/bridge/peers/peer.js';
import { createEngine } from '../../src/engine/create.js';
import { connectBridge } from '../../src/protocol/node.js';
import type { BridgeClient } from '../../src/protocol/index.js';
import { ANDROID, RawClient, testBridge, until } from '../bridge/helpers.js';
import { ScriptedPeer } from './scripted-peer.js';

const PHONE = 'scripted-phone';

interface Lab {
  peer: ScriptedPeer;
  agg: Bridge;
  clients: BridgeClient[];
}

/** A guard against a hang, not a timing assertion: without a deadline the call never answers at all. */
function answered<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} never answered`)), 15_000);
  });
  return Promise.race([p, hang]).finally(() => clearTimeout(timer));
}

async function lab(): Promise<Lab> {
  const peer = await ScriptedPeer.start();
  const shared = new Peer({ name: 'lab1', url: peer.url }, { firstRetryMs: 50, maxRetryMs: 200, pingMs: 100, connectTimeoutMs: 300 });
  let agg: Bridge | undefined;
  try {
    agg = await startBridge({
      engine: createEngine({ virtual: false, extraDrivers: [shared] }),
      host: '127.0.0.1',
      port: 0,
      webRoot: '/nonexistent',
      peers: [shared],
      callTimeoutMs: 400,
      peerLinks: { pingMs: 100, connectTimeoutMs: 300 },
      log: () => undefined,
    });
    await until('the peer listed', () => shared.up && shared.owns(PHONE));
    return { peer, agg, clients: [] };
  } catch (err) {
    // startBridge closes the engine (and the peer link with it) when it cannot listen.
    await agg?.close();
    await shared.close();
    await peer.close();
    throw err;
  }
}

async function shutdown(l: Lab | undefined): Promise<void> {
  if (!l) return;
  await Promise.all(l.clients.map((c) => c.close().catch(() => undefined)));
  await l.agg.close();
  await l.peer.close();
}

async function client(l: Lab, name: string): Promise<BridgeClient> {
  const c = await connectBridge(l.agg.wsUrl, { client: name });
  l.clients.push(c);
  return c;
}

const frozen = suite<{ lab?: Lab }>('a peer bridge that stops answering');
frozen.before.each(async (ctx) => {
  ctx.lab = await lab();
});
frozen.after.each(async (ctx) => {
  await shutdown(ctx.lab);
  ctx.lab = undefined;
});

frozen('stopped (no answers, no pongs): calls answer TIMEOUT, saying they may still run there, and the peer is marked down', async ({ lab }) => {
  const l = lab!;
  const c = await client(l, 'agent');
  // The caller's own link to the peer is open before the peer stops, as in a running session.
  const size = (await c.callTool('mobile_get_screen_size', { device: PHONE })) as { status?: string };
  assert.is(size.status, undefined, JSON.stringify(size));
  l.peer.silent = true;
  l.peer.deaf = true;
  const [press, lock] = (await answered(
    Promise.all([c.callTool('mobile_press_button', { device: PHONE, button: 'HOME' }), c.request('devices.lock', { device: PHONE })]),
    'a call on the stopped peer',
  )) as { status?: string; code?: string; message?: string }[];
  for (const r of [press, lock]) {
    assert.is(r.code, 'TIMEOUT', JSON.stringify(r));
    assert.match(r.message ?? '', /may still run/);
  }
  assert.match(press.message ?? '', /mobile_press_button on scripted-phone/);
  const down = await until('the peer marked down', () => {
    const s = l.agg.peers!.stats().lab1;
    return !s.up && s;
  });
  assert.match(down.error ?? '', /no pong|handshake|session\.hello/);
  const listed = (await c.request('devices.list', {})) as { devices: { id: string; state?: string; message?: string }[]; notes?: string[] };
  // SPEC §10: still listed, offline with the reason, as adb and --wda sources are.
  const phone = listed.devices.find((d) => d.id === PHONE);
  assert.is(phone?.state, 'offline', 'its devices are no longer listed ready');
  assert.match(phone?.message ?? '', /^peer lab1 \(peer bridge ws:\/\/.*\) is unreachable.*its devices return by themselves/);
  assert.ok(listed.notes?.some((n) => /lab1/.test(n)), JSON.stringify(listed.notes));
});

frozen('answering pings but not the call: TIMEOUT at the call\'s deadline, the link stays', async ({ lab }) => {
  const l = lab!;
  const c = await client(l, 'agent');
  // The lab pings every 100 ms in this process: on a loaded machine (test processes side by side) a
  // stalled event loop can make a pong late, and the peer then rightly counts as frozen, which is the
  // next tests' case, not this one's. Such a round is set aside and tried again, at most three times.
  const seen: string[] = [];
  for (let round = 0; round < 3; round++) {
    l.peer.silent = false;
    await until('the peer up', () => l.agg.peers!.stats().lab1.up);
    await c.callTool('mobile_get_screen_size', { device: PHONE });
    const closedBefore = l.peer.closed.length;
    l.peer.silent = true;
    const press = (await answered(c.callTool('mobile_press_button', { device: PHONE, button: 'HOME' }), 'a call on the silent peer')) as { code?: string; message?: string };
    assert.is(press.code, 'TIMEOUT', JSON.stringify(press));
    if (/looks stopped or frozen|did not start within|did not answer in time/.test(press.message ?? '')) {
      seen.push(press.message ?? '');
      continue;
    }
    assert.match(press.message ?? '', /did not answer within 400 ms/);
    assert.match(press.message ?? '', /may still complete/);
    assert.ok(l.agg.peers!.stats().lab1.up, 'a peer that answers pings stays up');
    assert.is(l.peer.closed.length, closedBefore, 'no link was cut');
    return;
  }
  assert.unreachable(`every round met a late pong instead of a peer that answers pings:\n${seen.join('\n')}`);
});

frozen('a down the peer did not answer in time counts as down: the holder\'s drop cancels it there', async ({ lab }) => {
  const l = lab!;
  const x = await RawClient.open(l.agg.wsUrl);
  try {
    await x.call('session.hello', { client: 'x' });
    // The caller's own link to the peer is open before the peer goes quiet.
    await x.call('tools.call', { tool: 'mobile_get_screen_size', parameters: { device: PHONE } });
    l.peer.silent = true;
    const down = (await x.call('input.touch', { device: PHONE, action: 'down', x: 5, y: 6 })) as { code?: string };
    assert.is(down.code, 'TIMEOUT', JSON.stringify(down));
    const link = l.peer.requests.find((r) => r.method === 'input.touch')!.connection;
    l.peer.silent = false;
    x.ws.terminate();
    // Within the resume grace and the peer's 15 s idle cancel: the finger must not wait for them.
    // On a loaded machine this lab's 100 ms pings can cut the link first, and a bridge lifts the
    // fingers of a connection that closes: that does not leave the finger down either.
    const cancel = await until('a cancel sent to the peer, or the link holding the finger closed', () => l.peer.requests.find((r) => r.method === 'input.touch' && r.params.action === 'cancel') ?? (l.peer.closed.includes(link) && 'closed'));
    if (cancel !== 'closed') assert.equal(cancel, { method: 'input.touch', params: { device: PHONE, action: 'cancel', x: 5, y: 6 }, connection: link });
  } finally {
    x.ws.terminate();
  }
});

frozen('a lock the peer did not answer in time counts as taken: the holder\'s drop unlocks it there', async ({ lab }) => {
  const l = lab!;
  const x = await RawClient.open(l.agg.wsUrl);
  try {
    await x.call('session.hello', { client: 'x' });
    await x.call('tools.call', { tool: 'mobile_get_screen_size', parameters: { device: PHONE } });
    l.peer.silent = true;
    const lock = (await x.call('devices.lock', { device: PHONE })) as { code?: string };
    assert.is(lock.code, 'TIMEOUT', JSON.stringify(lock));
    const link = l.peer.requests.find((r) => r.method === 'devices.lock')!.connection;
    l.peer.silent = false;
    x.ws.terminate();
    // Not left locked until the aggregator's link to the peer is cut at the end of the resume grace.
    // On a loaded machine this lab's 100 ms pings can cut that link first, and the peer then frees
    // the lock itself: that is not left locked either.
    const freed = await until('an unlock sent to the peer, or the link holding the lock closed', () => l.peer.requests.find((r) => r.method === 'devices.unlock') ?? (l.peer.closed.includes(link) && 'closed'));
    if (freed !== 'closed') assert.equal(freed, { method: 'devices.unlock', params: { device: PHONE }, connection: link });
  } finally {
    x.ws.terminate();
  }
});

frozen('a lease whose lock on the peer timed out asks the peer again, not taking it as held (it waited its whole timeout)', async ({ lab }) => {
  const l = lab!;
  const c = await client(l, 'ci');
  await c.request('tools.call', { tool: 'mobile_get_screen_size', parameters: { device: PHONE } });
  l.peer.silent = true;
  const leased = c.requestRaw('devices.lease', { device: PHONE, timeout_ms: 8000 }) as Promise<{ device?: string; code?: string; message?: string }>;
  // One lock on the peer went unanswered (the call's deadline is 400 ms); then the peer answers again.
  await until('a devices.lock sent to the silent peer', () => l.peer.requests.some((r) => r.method === 'devices.lock'));
  await new Promise((r) => setTimeout(r, 600));
  l.peer.silent = false;
  const r = await answered(leased, 'the lease');
  assert.not.ok(r.code, JSON.stringify(r));
  assert.ok(l.peer.requests.filter((q) => q.method === 'devices.lock').length >= 2, 'the peer was asked again');
});

frozen('stuck in devices.subscribe (the link and other calls still work): the viewer gets TIMEOUT, and a late subscription is closed on the peer', async ({ lab }) => {
  const l = lab!;
  const c = await client(l, 'viewer');
  l.peer.held.add('devices.subscribe');
  const sub = (await answered(c.requestRaw('devices.subscribe', { device: PHONE, screen: { format: 'jpeg' } }), 'the subscribe')) as { code?: string; message?: string };
  assert.is(sub.code, 'TIMEOUT', JSON.stringify(sub));
  assert.match(sub.message ?? '', /^device scripted-phone is on peer bridge ws:.*did not start its stream within 0\.4 s/);
  assert.ok(l.agg.peers!.stats().lab1.up, 'the link stays up');
  // Its answer comes after all: that subscription on the peer has no viewer here, so it is closed.
  assert.is(l.peer.answerHeld('devices.subscribe', { subscription: 'late-1', format: 'jpeg', source: 'virtual' }), 1);
  const closed = await until('the late subscription closed on the peer', () => l.peer.requests.find((r) => r.method === 'devices.unsubscribe'));
  assert.equal(closed.params, { subscription: 'late-1' });
});

frozen.run();

const gone = suite('a bridge that reads a request and its caller\'s close together');

gone('does not run the request: its caller gave up (an aggregator whose call timed out)', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] } });
  const raw = await RawClient.open(bridge.wsUrl).catch(async (err: unknown) => {
    await bridge.close();
    throw err;
  });
  try {
    const seen: string[] = [];
    bridge.engine.onCall((e) => seen.push(e.tool));
    // Request and close leave together, as a stopped process finds them when it resumes.
    raw.send({ jsonrpc: '2.0', id: 1, method: 'tools.call', params: { tool: 'mobile_press_button', parameters: { device: ANDROID, button: 'HOME' } } });
    raw.ws.terminate();
    const other = await RawClient.open(bridge.wsUrl);
    try {
      // Calls on one device run in arrival order: once this one has answered, the HOME press would have run.
      await other.call('tools.call', { tool: 'mobile_get_screen_size', parameters: { device: ANDROID } });
    } finally {
      await other.close();
    }
    assert.equal(seen, ['mobile_get_screen_size']);
  } finally {
    await bridge.close();
  }
});

gone('still runs a notification sent just before closing: its sender expects no answer', async () => {
  const { bridge } = await testBridge({ virtual: { devices: ['android'] } });
  try {
    const raw = await RawClient.open(bridge.wsUrl);
    const seen: string[] = [];
    bridge.engine.onCall((e) => seen.push(e.tool));
    raw.send({ jsonrpc: '2.0', method: 'tools.call', params: { tool: 'mobile_press_button', parameters: { device: ANDROID, button: 'HOME' } } });
    raw.ws.terminate();
    await until('the notification ran', () => seen.includes('mobile_press_button'));
  } finally {
    await bridge.close();
  }
});

gone.run();
