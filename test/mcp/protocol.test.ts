import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CallContext } from '../../src/engine/driver.js';
import { Engine } from '../../src/engine/engine.js';
import { failure } from '../../src/engine/errors.js';
import { findTool } from '../../src/engine/tools/index.js';
import { RecordingDriver } from '../engine/recording-driver.js';
import { VerbError, type VerbClock } from '../../src/engine/verbs/index.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { ANDROID, DEMO, virtualEngine } from './helpers.js';

/**
 * The server as a client written from the MCP specification sees it: raw JSON-RPC messages, so
 * nothing an SDK client smooths over (its own checks, its local cancellation) hides a mismatch.
 */
interface Raw {
  send(message: Record<string, unknown>): Promise<void>;
  /** The answer to request `id` (result or error). */
  answer(id: number): Promise<Record<string, any>>;
  /** Every message the server sent so far. */
  seen: JSONRPCMessage[];
  /** The next message (from now) that `wanted` picks. */
  next(wanted: (m: Record<string, any>) => boolean): Promise<Record<string, any>>;
  close(): Promise<void>;
}

async function rawPair(backend: LocalBackend, options: { engineTools?: boolean; progressEveryMs?: number; toolsRetryMs?: number } = {}): Promise<Raw> {
  const server = createMcpServer({ backend, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const seen: JSONRPCMessage[] = [];
  const waiting = new Map<number, (m: Record<string, any>) => void>();
  const watchers = new Set<(m: Record<string, any>) => void>();
  clientSide.onmessage = (m) => {
    seen.push(m);
    for (const w of watchers) w(m as Record<string, any>);
    const id = (m as { id?: number }).id;
    if (id !== undefined && ('result' in m || 'error' in m)) waiting.get(id)?.(m as Record<string, any>);
  };
  await server.connect(serverSide);
  await clientSide.start();
  const raw: Raw = {
    send: (message) => clientSide.send({ jsonrpc: '2.0', ...message } as JSONRPCMessage),
    answer: (id) => {
      const done = seen.find((m) => (m as { id?: number }).id === id && ('result' in m || 'error' in m));
      return done ? Promise.resolve(done as Record<string, any>) : new Promise((resolve) => waiting.set(id, resolve));
    },
    seen,
    next: (wanted) =>
      new Promise((resolve) => {
        const w = (m: Record<string, any>) => {
          if (!wanted(m)) return;
          watchers.delete(w);
          resolve(m);
        };
        watchers.add(w);
      }),
    close: () => server.close(),
  };
  await raw.send({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'spec-client', version: '1' } } });
  await raw.answer(0);
  await raw.send({ method: 'notifications/initialized' });
  return raw;
}

const test = suite('MCP protocol conformance');

test('an unknown tool is a JSON-RPC -32602 error, not a tool result', async () => {
  const backend = new LocalBackend(virtualEngine().engine);
  const raw = await rawPair(backend);
  try {
    await raw.send({ id: 1, method: 'tools/call', params: { name: 'tpa', arguments: { device: ANDROID } } });
    const typo = await raw.answer(1);
    assert.is(typo.error?.code, -32602, JSON.stringify(typo));
    assert.is(typo.error.message, 'unknown tool "tpa"; did you mean "tap"? call tools/list for the tools offered');
    await raw.send({ id: 2, method: 'tools/call', params: { name: 'mobile_list_apps', arguments: { device: ANDROID } } });
    const rawTool = await raw.answer(2);
    assert.is(rawTool.error?.code, -32602, JSON.stringify(rawTool));
    assert.match(rawTool.error.message, /call "list_apps", which does the same here/);
  } finally {
    await raw.close();
    await backend.close();
  }
});

test('a tools/call whose params do not fit (no name, arguments not an object) is one readable -32602 line, and the server goes on', async () => {
  const backend = new LocalBackend(virtualEngine().engine);
  const raw = await rawPair(backend);
  try {
    await raw.send({ id: 1, method: 'tools/call', params: {} });
    await raw.send({ id: 2, method: 'tools/call', params: { name: 'list_devices', arguments: 5 } });
    const [noName, notObject] = [await raw.answer(1), await raw.answer(2)];
    for (const [answer, field] of [[noName, 'params.name'], [notObject, 'params.arguments']] as const) {
      assert.is(answer.error?.code, -32602, JSON.stringify(answer));
      assert.match(answer.error.message, new RegExp(`^invalid tools/call request: ${field.replace('.', '\\.')}: .*; send \\{"name": "<tool>", "arguments": \\{…\\}\\}`));
      assert.not.match(answer.error.message, /MCP error|\n/);
    }
    await raw.send({ id: 3, method: 'tools/call', params: { name: 'list_devices', arguments: {} } });
    assert.ok((await raw.answer(3)).result, 'a good call after them is answered');
  } finally {
    await raw.close();
    await backend.close();
  }
});

test('with --engine-tools, a mobile_* name the engine does not have is -32602 too, with the raw tool meant', async () => {
  const backend = new LocalBackend(virtualEngine().engine);
  const raw = await rawPair(backend, { engineTools: true });
  try {
    await raw.send({ id: 1, method: 'tools/call', params: { name: 'mobile_list_app', arguments: { device: ANDROID } } });
    const typo = await raw.answer(1);
    assert.is(typo.error?.code, -32602, JSON.stringify(typo));
    assert.match(typo.error.message, /^unknown tool "mobile_list_app"; did you mean "mobile_list_apps"\?/);
  } finally {
    await raw.close();
    await backend.close();
  }
});

test('a tools/call or tools/list whose params break the schema is -32602 Invalid params, not -32603 Internal error', async () => {
  const backend = new LocalBackend(virtualEngine().engine);
  const raw = await rawPair(backend);
  try {
    await raw.send({ id: 1, method: 'tools/call', params: { name: 'tap', arguments: 'the Sign in button' } });
    await raw.send({ id: 2, method: 'tools/call', params: { arguments: {} } });
    await raw.send({ id: 3, method: 'tools/list', params: { cursor: 5 } });
    for (const id of [1, 2, 3]) {
      const a = await raw.answer(id);
      assert.is(a.error?.code, -32602, JSON.stringify(a));
    }
    assert.match((await raw.answer(3)).error.message, /cursor/);
  } finally {
    await raw.close();
    await backend.close();
  }
});

test('a tools/call with task augmentation, which this server does not declare, is run as a plain call (MCP 2025-11-25 tasks: MUST process it normally)', async () => {
  const backend = new LocalBackend(virtualEngine().engine);
  const raw = await rawPair(backend);
  try {
    await raw.send({ id: 1, method: 'tools/call', params: { name: 'list_devices', arguments: {}, task: { ttl: 60000 } } });
    const answer = await raw.answer(1);
    assert.not.ok(answer.error, JSON.stringify(answer.error));
    assert.match(answer.result.content[0].text, /virtual-android-1/);
    assert.not.ok('task' in answer.result);
  } finally {
    await raw.close();
    await backend.close();
  }
});

test('raw tools left out of tools/list while the backend could not list them come back with notifications/tools/list_changed (listChanged declared)', async () => {
  let down = true;
  class Flaky extends LocalBackend {
    override async engineTools() {
      return down ? failure('INTERNAL', 'the bridge at ws://127.0.0.1:1 is not reachable') : super.engineTools();
    }
  }
  const backend = new Flaky(virtualEngine().engine, { settleMs: 0 });
  const raw = await rawPair(backend, { engineTools: true, toolsRetryMs: 20 });
  try {
    const init = raw.seen.find((m) => (m as { id?: number }).id === 0) as Record<string, any>;
    assert.equal(init.result.capabilities.tools, { listChanged: true });
    await raw.send({ id: 1, method: 'tools/list' });
    const first = (await raw.answer(1)).result.tools as { name: string }[];
    assert.not.ok(first.some((t) => t.name.startsWith('mobile_')));
    const changed = raw.next((m) => m.method === 'notifications/tools/list_changed');
    down = false;
    // The server's retry timer is unref'd (stdin keeps a real server alive): this one keeps the test alive, and bounds the wait.
    let guard: NodeJS.Timeout | undefined;
    await Promise.race([changed, new Promise((_, reject) => (guard = setTimeout(() => reject(new Error('no notifications/tools/list_changed within 5 s')), 5000)))]);
    clearTimeout(guard);
    await raw.send({ id: 2, method: 'tools/list' });
    assert.ok(((await raw.answer(2)).result.tools as { name: string }[]).some((t) => t.name === 'mobile_take_screenshot'));
  } finally {
    await raw.close();
    await backend.close();
  }
});

test('tools/list: every tool in one page without nextCursor; a cursor it never issued is -32602 (MCP pagination)', async () => {
  const backend = new LocalBackend(virtualEngine().engine);
  const raw = await rawPair(backend);
  try {
    await raw.send({ id: 1, method: 'tools/list' });
    const page = (await raw.answer(1)).result;
    assert.ok(page.tools.length > 20);
    assert.not.ok('nextCursor' in page);
    await raw.send({ id: 2, method: 'tools/list', params: { cursor: 'page-2' } });
    const bogus = await raw.answer(2);
    assert.is(bogus.error?.code, -32602, JSON.stringify(bogus));
    assert.match(bogus.error.message, /invalid cursor "page-2"/);
  } finally {
    await raw.close();
    await backend.close();
  }
});

test('annotations: the tools that only look are readOnlyHint, the ones that act are not (raw tools as the engine says they mutate)', async () => {
  const backend = new LocalBackend(virtualEngine().engine);
  const raw = await rawPair(backend, { engineTools: true });
  try {
    await raw.send({ id: 1, method: 'tools/list' });
    const tools = (await raw.answer(1)).result.tools as { name: string; annotations?: Record<string, unknown> }[];
    const readOnly = (name: string) => tools.find((t) => t.name === name)?.annotations?.readOnlyHint;
    for (const name of ['list_devices', 'list_apps', 'list_elements', 'take_screenshot', 'wait_for', 'read_text']) assert.is(readOnly(name), true, name);
    // screenshot_match records a missing baseline: a file of its own, nothing on the device.
    assert.equal(tools.find((t) => t.name === 'assert')!.annotations, { title: 'Assert', readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    assert.is(tools.find((t) => t.name === 'take_screenshot')!.annotations!.title, 'Take screenshot');
    for (const name of ['tap', 'type_text', 'swipe', 'launch_app', 'clear_app_data', 'recording_start', 'recording_stop', 'pinch']) {
      assert.is(readOnly(name), false, name);
      assert.is(tools.find((t) => t.name === name)!.annotations!.destructiveHint, true, name);
    }
    for (const t of tools.filter((t) => t.name.startsWith('mobile_'))) {
      const def = findTool(t.name)!;
      // mobile_save_screenshot changes nothing on the device but writes a file: not read-only either.
      const writes = def.mutates || t.name === 'mobile_save_screenshot';
      assert.is(t.annotations?.readOnlyHint, !writes, t.name);
    }
    // Some model providers refuse a tool schema that names its JSON Schema draft.
    assert.equal(tools.filter((t) => '$schema' in ((t as { inputSchema?: object }).inputSchema ?? {})).map((t) => t.name), []);
  } finally {
    await raw.close();
    await backend.close();
  }
});

test('every argument of every tool says what it is (a model sees only the schema)', async () => {
  const backend = new LocalBackend(virtualEngine().engine);
  const raw = await rawPair(backend);
  try {
    await raw.send({ id: 1, method: 'tools/list' });
    const tools = (await raw.answer(1)).result.tools as { name: string; inputSchema: { properties: Record<string, { description?: string }> } }[];
    // The assertion fields are explained per assertion type in assert's description.
    const explainedThere = (tool: string, key: string) => tool === 'assert' && !['device', 'type', 'description'].includes(key);
    const silent = tools.flatMap((t) => Object.entries(t.inputSchema.properties).filter(([key, p]) => !p.description && !explainedThere(t.name, key)).map(([key]) => `${t.name}.${key}`));
    assert.equal(silent, []);
  } finally {
    await raw.close();
    await backend.close();
  }
});

/**
 * A verb clock whose waits, once armed, hold until the call is aborted (or `release()`), and that notes whether
 * the verb was told: cancellation is seen by what the verb got, not by how long anything took.
 */
function gatedClock(base: VerbClock) {
  let entered!: () => void;
  // Armed by the test, so the calls before the one under test (recording_start) run as usual; arm() again for another round.
  const state = {
    entered: new Promise<void>((r) => (entered = r)),
    armed: false,
    aborted: false,
    released: false,
    release: () => undefined as void,
    arm: () => {
      state.entered = new Promise<void>((r) => (entered = r));
      state.armed = true;
      state.released = false;
    },
  };
  const held = new Set<() => void>();
  state.release = () => {
    state.released = true;
    for (const go of held) go();
  };
  const clock: VerbClock = {
    now: base.now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(new VerbError('CANCELLED', 'cancelled'));
        if (!state.armed || state.released) return resolve(base.sleep(ms));
        const go = () => resolve(base.sleep(ms));
        held.add(go);
        signal?.addEventListener('abort', () => {
          state.aborted = true;
          held.delete(go);
          reject(new VerbError('CANCELLED', 'cancelled'));
        });
        entered();
      }),
  };
  return { clock, state };
}

test('notifications/cancelled stops the verb where it waits, sends no answer, and records nothing', async () => {
  const v = virtualEngine();
  const { clock, state } = gatedClock(v.verbClock);
  const backend = new LocalBackend(v.engine, { clock, targetWaitMs: 500, settleMs: 0 });
  const raw = await rawPair(backend);
  try {
    await raw.send({ id: 1, method: 'tools/call', params: { name: 'recording_start', arguments: { device: ANDROID, name: 'Cancelled', app_package: DEMO } } });
    assert.not.ok((await raw.answer(1)).result.isError);
    await raw.send({ id: 5, method: 'tools/call', params: { name: 'open_url', arguments: { device: ANDROID, url: 'mbdemo://screen/more' } } });
    assert.not.ok((await raw.answer(5)).result.isError);
    state.armed = true;
    await raw.send({ id: 2, method: 'tools/call', params: { name: 'wait_for', arguments: { device: ANDROID, target: 'Nothing of the kind', timeout_ms: 45000 } } });
    await state.entered;
    await raw.send({ method: 'notifications/cancelled', params: { requestId: 2, reason: 'the user stopped it' } });
    // Messages are handled in order: once the ping is answered, the cancellation was too.
    await raw.send({ id: 3, method: 'ping' });
    await raw.answer(3);
    assert.ok(state.aborted, 'the waiting verb was not told the call was cancelled');
    state.release();
    await raw.send({ id: 4, method: 'tools/call', params: { name: 'recording_stop', arguments: { device: ANDROID } } });
    const stopped = JSON.parse((await raw.answer(4)).result.content[0].text);
    assert.equal(stopped.scenario.steps.map((s: { action: string }) => s.action), ['open_url']);
    assert.not.ok(raw.seen.some((m) => (m as { id?: number }).id === 2), 'the cancelled request was answered');
  } finally {
    state.release();
    await raw.close();
    await backend.close();
  }
});

test('cancelled while a verb holds the phone: an assert is not recorded, a recording_start starts nothing, a pinch is not made; a cancelled recording_stop is answered again', async () => {
  const v = virtualEngine();
  const { clock, state } = gatedClock(v.verbClock);
  const backend = new LocalBackend(v.engine, { clock, targetWaitMs: 500, settleMs: 0 });
  const raw = await rawPair(backend);
  const call = async (id: number, name: string, args: Record<string, unknown>) => {
    await raw.send({ id, method: 'tools/call', params: { name, arguments: { device: ANDROID, ...args } } });
    return (await raw.answer(id)).result;
  };
  /** `name` sent and cancelled while a tap looking for a missing element holds the phone; then the tap is let go. */
  const cancelledBehindTap = async (id: number, name: string, args: Record<string, unknown>) => {
    state.arm();
    await raw.send({ id: id + 1000, method: 'tools/call', params: { name: 'tap', arguments: { device: ANDROID, target: 'Nothing of the kind' } } });
    await state.entered;
    await raw.send({ id, method: 'tools/call', params: { name, arguments: { device: ANDROID, ...args } } });
    await raw.send({ method: 'notifications/cancelled', params: { requestId: id, reason: 'the user pressed Esc' } });
    await raw.send({ id: id + 2000, method: 'ping' });
    await raw.answer(id + 2000);
    state.release();
    await raw.answer(id + 1000);
    state.armed = false;
  };
  const zoom = async (id: number) => JSON.parse((await call(id, 'list_elements', {})).content[0].text).elements.map((e: { text?: string }) => e.text ?? '').find((t: string) => /^Zoom /.test(t));
  try {
    await call(1, 'open_url', { url: 'mbdemo://item/1' });
    assert.is(await zoom(2), undefined, 'not zoomed yet');
    await cancelledBehindTap(10, 'recording_start', { name: 'Cancelled start', app_package: DEMO });
    const started = await call(11, 'recording_start', { name: 'Started', app_package: DEMO });
    assert.not.ok(started.isError, `a retry after a cancelled start is not refused: ${JSON.stringify(started)}`);
    assert.not.ok((await call(12, 'open_url', { url: 'mbdemo://item/1' })).isError);
    await cancelledBehindTap(20, 'assert', { type: 'element_exists', element_description: 'Photo of Item 1' });
    await cancelledBehindTap(30, 'pinch', { target: 'Photo of Item 1', scale: 2 });
    await cancelledBehindTap(40, 'recording_stop', {});
    const stopAgain = await call(41, "recording_stop", {});
    const again = JSON.parse(stopAgain.isError ? "{}" : stopAgain.content[0].text);
    assert.not.ok(stopAgain.isError, JSON.stringify(stopAgain));
    assert.is(again.repeated, true);
    assert.is(again.scenario.name, 'Started');
    assert.equal(again.scenario.assertions, [], 'the cancelled assert was not recorded');
    for (const id of [10, 20, 30, 40]) assert.not.ok(raw.seen.some((m) => (m as { id?: number }).id === id), `request ${id} was answered`);
    assert.is(await zoom(42), undefined, 'the cancelled pinch did not zoom the photo');
    assert.not.ok((await call(43, 'pinch', { target: 'Photo of Item 1', scale: 2 })).isError);
    assert.is(await zoom(44), 'Zoom 200 %', 'a pinch not cancelled does');
  } finally {
    state.release();
    await raw.close();
    await backend.close();
  }
});

test('notifications/cancelled stops a raw mobile_* tool on the device (--engine-tools), sends no answer, and frees the device', async () => {
  const driver = new RecordingDriver(['phone']);
  driver.delayMs = 30_000;
  const backend = new LocalBackend(new Engine({ drivers: [driver] }), { settleMs: 0 });
  const raw = await rawPair(backend, { engineTools: true });
  try {
    await raw.send({ id: 1, method: 'tools/call', params: { name: 'mobile_swipe_on_screen', arguments: { device: 'phone', direction: 'up' } } });
    for (let i = 0; i < 200 && !driver.log.some((l) => l.startsWith('start phone swipe')); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(driver.log.some((l) => l.startsWith('start phone swipe')), driver.log.join('\n'));
    await raw.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'the user stopped it' } });
    driver.delayMs = 1;
    await raw.send({ id: 2, method: 'tools/call', params: { name: 'mobile_press_button', arguments: { device: 'phone', button: 'HOME' } } });
    const next = await raw.answer(2);
    assert.not.ok(next.result.isError, JSON.stringify(next));
    assert.not.ok(driver.log.some((l) => l.startsWith('end phone swipe')), 'the swipe was told to stop');
    assert.not.ok(raw.seen.some((m) => (m as { id?: number }).id === 1), 'the cancelled request was answered');
  } finally {
    await raw.close();
    await backend.close();
  }
});

test('notifications/cancelled stops list_elements while the phone lists, so the next call does not wait for it', async () => {
  // A phone whose listing takes as long as the test says (the recording driver's swipe is a slow step that stops on abort).
  class SlowListing extends RecordingDriver {
    override async open(id: string) {
      const handle = await super.open(id);
      return handle && { ...handle, listElements: async (ctx: CallContext) => (await handle.swipe(0, 0, 1, 1, 10, ctx), []) };
    }
  }
  const driver = new SlowListing(['phone']);
  driver.delayMs = 30_000;
  const backend = new LocalBackend(new Engine({ drivers: [driver] }), { settleMs: 0 });
  const raw = await rawPair(backend, { engineTools: true });
  try {
    await raw.send({ id: 1, method: 'tools/call', params: { name: 'list_elements', arguments: { device: 'phone' } } });
    for (let i = 0; i < 200 && !driver.log.some((l) => l.startsWith('start phone swipe')); i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(driver.log.some((l) => l.startsWith('start phone swipe')), driver.log.join('\n'));
    await raw.send({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'the user stopped it' } });
    driver.delayMs = 1;
    await raw.send({ id: 2, method: 'tools/call', params: { name: 'mobile_press_button', arguments: { device: 'phone', button: 'HOME' } } });
    assert.not.ok((await raw.answer(2)).result.isError);
    assert.not.ok(driver.log.some((l) => l.startsWith('end phone swipe')), 'the listing was told to stop');
  } finally {
    await raw.close();
    await backend.close();
  }
});

test('closing the connection (the client closed stdin) stops a verb in flight instead of letting it wait out its timeout', async () => {
  const v = virtualEngine();
  const { clock, state } = gatedClock(v.verbClock);
  const backend = new LocalBackend(v.engine, { clock, targetWaitMs: 500, settleMs: 0 });
  const raw = await rawPair(backend);
  try {
    state.armed = true;
    await raw.send({ id: 1, method: 'tools/call', params: { name: 'wait_for', arguments: { device: ANDROID, target: 'Nothing of the kind', until: 'visible', timeout_ms: 45000 } } });
    await state.entered;
    await raw.close();
    assert.ok(state.aborted, 'the verb kept running after the connection closed');
  } finally {
    state.release();
    await raw.close();
    await backend.close();
  }
});

/** A backend whose verbs start only when the test lets them: a call that is still running, for as long as the test needs. */
class HeldBackend extends LocalBackend {
  release!: () => void;
  private readonly held = new Promise<void>((resolve) => (this.release = resolve));

  override async runVerb(...args: Parameters<LocalBackend['runVerb']>) {
    await this.held;
    return super.runVerb(...args);
  }
}

test('a call with _meta.progressToken gets growing notifications/progress while it runs, none after its answer, and one without gets none', async () => {
  const v = virtualEngine();
  const backend = new HeldBackend(v.engine, { clock: v.verbClock, targetWaitMs: 500, settleMs: 0 });
  const raw = await rawPair(backend, { progressEveryMs: 5 });
  const isProgress = (m: Record<string, any>) => m.method === 'notifications/progress';
  // Only so that a server that never reports progress fails this test instead of hanging it.
  const guard = setTimeout(() => backend.release(), 10_000);
  try {
    await raw.send({ id: 1, method: 'tools/call', params: { name: 'swipe', arguments: { device: ANDROID, direction: 'up' } } });
    await raw.send({ id: 2, method: 'tools/call', params: { name: 'press_back', arguments: { device: ANDROID }, _meta: { progressToken: 'p-2' } } });
    await Promise.race([raw.next((m) => isProgress(m) && m.params.progress >= 2), raw.answer(2)]);
    backend.release();
    assert.not.ok((await raw.answer(2)).result.isError);
    assert.not.ok((await raw.answer(1)).result.isError);
    const progress = raw.seen.filter(isProgress) as Record<string, any>[];
    assert.ok(progress.length >= 2, 'no progress while the call ran');
    for (const [i, p] of progress.entries()) {
      assert.is(p.params.progressToken, 'p-2');
      if (i > 0) assert.ok(p.params.progress > progress[i - 1].params.progress, 'progress must grow');
    }
    // The beats stopped with the answer: a notification about a finished request is a protocol error for the client.
    const answeredAt = raw.seen.findIndex((m) => (m as { id?: number }).id === 2);
    await raw.send({ id: 3, method: 'ping' });
    await raw.answer(3);
    assert.not.ok(raw.seen.slice(answeredAt).some(isProgress), 'progress after the answer');
  } finally {
    clearTimeout(guard);
    backend.release();
    await raw.close();
    await backend.close();
  }
});

test.run();
