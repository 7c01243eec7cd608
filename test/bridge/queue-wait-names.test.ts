import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Bridge } from '../../src/bridge/index.js';
import { createEngine } from '../../src/engine/create.js';
import { ANDROID, OpenedClients, RawClient, testBridge, until, type Json } from './helpers.js';

/**
 * SPEC §2: calls on a device run one at a time, in arrival order, whoever sends them. A call whose
 * deadline passed while another session's verb had the device names the verb and the session, as
 * a lock refusal names its holder (the engine's words for a backlog: test/engine/deadlines).
 */
const test = suite('queue wait names');

let bridge: Bridge;
const clients = new OpenedClients();

test.after.each(async () => {
  await clients.closeAll();
  await bridge?.close();
});

async function session(client: string): Promise<RawClient> {
  const c = await clients.open(bridge.wsUrl);
  await c.call('session.hello', { client });
  return c;
}

let nextId = 1;
function send(c: RawClient, method: string, params: unknown): Promise<Json> {
  const id = `q-${nextId++}`;
  c.send({ jsonrpc: '2.0', id, method, params });
  return c.response(id, 30_000).then((r) => r.result as Json);
}

const tap = (x: number) => ({ tool: 'mobile_click_on_screen_at_coordinates', parameters: { device: ANDROID, x, y: 10 } });

test("a call that times out behind another session's verb names the verb and its session", async () => {
  // Every device call takes 700 ms: a verb's look and tap hold the device about 1.4 s, longer than another call's 1 s deadline.
  ({ bridge } = await testBridge({ engine: createEngine({ virtual: { latencyMs: 700 }, timeoutMs: 1000 }) }));
  const verbs = await session('agent-a');
  const agent = await session('agent-b');
  let looked = false;
  const stop = bridge.engine.onCall((e) => (looked ||= e.tool === 'mobile_list_elements_on_screen'));
  try {
    // A tap looks at the screen and taps as one unit on the device (the launcher's Settings icon is there).
    const verb = send(verbs, 'verbs.run', { device: ANDROID, step: { action: 'tap', target: 'Settings' } });
    await until('the verb looking at the screen', () => looked);
    const answer = await send(agent, 'tools.call', tap(5));
    assert.is(answer.code, 'TIMEOUT', JSON.stringify(answer));
    assert.match(String(answer.message), /it arrived behind 1 call on virtual-android-1 \(1 of session s-[0-9a-f]+ \(agent-a\), tap of session s-[0-9a-f]+ \(agent-a\) having the device then\); tap still has the device after \d+ ms: try again once it is done/);
    // Its own outcome is not the point here (its calls share the slow device's deadlines).
    await verb;
  } finally {
    stop();
  }
});

test.run();
