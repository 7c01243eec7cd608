import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CallContext, DeviceHandle, Driver, TracePoint } from '../../src/engine/driver.js';
import { Engine, type CallEvent } from '../../src/engine/engine.js';
import { createEngine } from '../../src/engine/create.js';
import type { DeviceInfo, TouchPhase, UiElement } from '../../src/engine/types.js';

/** Streamed touches in the engine (issue 17): the virtual phone follows the finger, moves coalesce, one activity entry. */

const A = 'virtual-android-1';

/** Where the list's rows are drawn now: row id → top edge. */
async function rows(engine: Engine): Promise<Map<string, number>> {
  const r = (await engine.call('mobile_list_elements_on_screen', { device: A })) as { elements: UiElement[] };
  return new Map(r.elements.filter((e) => /^item_\d+$/.test(e.id)).map((e) => [e.id, e.y]));
}

/** How far the list moved between two listings, from a row on screen in both. */
function shift(before: Map<string, number>, after: Map<string, number>): number {
  // A middle row: the first and last ones may be cut by the list's edges.
  const both = [...before.keys()].filter((id) => after.has(id));
  const common = both[Math.floor(both.length / 2)];
  if (!common) throw new Error(`no row in both listings: ${[...before.keys()]} / ${[...after.keys()]}`);
  return after.get(common)! - before.get(common)!;
}

test('the virtual list scrolls while the finger is down, and the stream is one activity event', async () => {
  const engine = createEngine({ virtual: { devices: ['android'] } });
  const events: CallEvent[] = [];
  engine.onCall((e) => events.push(e));
  try {
    await engine.call('mobile_open_url', { device: A, url: 'mbdemo://screen/home' });
    const before = await rows(engine);
    assert.ok(before.size > 3, 'the list is on screen');
    const down = await engine.touchEvent(A, 'down', { x: 500, y: 1500 }, { origin: 's1' });
    assert.equal(down, { status: 'success', streamed: true });
    await engine.touchEvent(A, 'move', { x: 500, y: 1400 }, { origin: 's1' });
    await engine.touchEvent(A, 'move', { x: 500, y: 1300 }, { origin: 's1' });
    assert.is(shift(before, await rows(engine)), -200, 'moved by exactly the distance dragged, finger still down');
    const other = await engine.touchEvent(A, 'move', { x: 500, y: 1200 }, { origin: 's2' });
    assert.is((other as { code?: string }).code, 'PERMISSION_DENIED', 'another caller cannot move this finger');
    const up = (await engine.touchEvent(A, 'up', { x: 500, y: 1250 }, { origin: 's1' })) as { status: string; message?: string };
    assert.is(up.status, 'success');
    assert.match(up.message ?? '', /dragged from \(500, 1500\) to \(500, 1250\)/);
    assert.is(shift(before, await rows(engine)), -250);
    const touches = events.filter((e) => e.tool === 'input.touch');
    assert.is(touches.length, 1, 'one activity event for the whole stream');
    assert.equal(touches[0].parameters.from, { x: 500, y: 1500 });
    assert.is(touches[0].parameters.moves, 2);
    assert.is(touches[0].origin, 's1');
    const stray = await engine.touchEvent(A, 'move', { x: 1, y: 1 }, { origin: 's1' });
    assert.is((stray as { code?: string }).code, 'INVALID_PARAMETER', 'a move with no finger down is refused');
    const outside = await engine.touchEvent(A, 'down', { x: 5000, y: 1 }, { origin: 's1' });
    assert.is((outside as { code?: string }).code, 'INVALID_PARAMETER');
    assert.match((outside as { message: string }).message, /outside the screen/);
  } finally {
    await engine.close();
  }
});

test('a touch down and up in place is a tap; keys reach the focused field', async () => {
  const engine = createEngine({ virtual: { devices: ['android'] } });
  try {
    await engine.call('mobile_open_url', { device: A, url: 'mbdemo://screen/signin' });
    const { elements } = (await engine.call('mobile_list_elements_on_screen', { device: A })) as { elements: UiElement[] };
    const field = elements.find((e) => e.type === 'edittext')!;
    await engine.touchEvent(A, 'down', field.center, { origin: 's1' });
    await engine.touchEvent(A, 'up', field.center, { origin: 's1' });
    await engine.call('mobile_type_keys', { device: A, text: 'abc', submit: false });
    assert.equal(await engine.pressKey(A, 'BACKSPACE'), { status: 'success', message: `pressed BACKSPACE on ${A}` });
    const after = (await engine.call('mobile_list_elements_on_screen', { device: A })) as { elements: UiElement[] };
    assert.is(after.elements.find((e) => e.id === field.id)?.text, 'ab');
    const left = (await engine.pressKey(A, 'LEFT')) as { status: string; code?: string; message?: string };
    assert.is(left.code, 'UNSUPPORTED', 'never claims a key it cannot press');
  } finally {
    await engine.close();
  }
});

/** A device whose touch injection is slow, counting what reaches it. */
function slowDevice(log: string[], options: { streams: boolean; trace: boolean }): Driver {
  const info: DeviceInfo = { id: 'slow-1', os: 'iOS', model: 'Slow', version: '17' };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const no = async () => {
    throw new Error('not used');
  };
  const handle: DeviceHandle = {
    info,
    screenSize: async () => ({ width: 1000, height: 2000 }),
    ...(options.streams ? { touch: async (phase: TouchPhase, x: number, y: number) => (await sleep(40), log.push(`${phase} ${x},${y}`), true) } : {}),
    ...(options.trace ? { tracePath: async (path: readonly TracePoint[], _ctx: CallContext) => void log.push(`trace ${path.map((p) => `${p.x},${p.y}`).join(' ')}`) } : {}),
    swipe: async (fx, fy, tx, ty) => void log.push(`swipe ${fx},${fy}->${tx},${ty}`),
    tap: async (x, y) => void log.push(`tap ${x},${y}`),
    listApps: no, launchApp: no, terminateApp: no, installApp: no, uninstallApp: no, clearAppData: no, foregroundApp: no,
    screenshot: no, listElements: no, doubleTap: no, longPress: no, typeText: no, pressButton: no, openUrl: no,
    getOrientation: no, setOrientation: no, setWifi: no,
  };
  return { name: 'slow', listDevices: async () => [info], open: async (id) => (id === info.id ? handle : undefined), close: async () => undefined };
}

test('a finger held on a row is the phone\'s long press while still down; the stream says so once it lifts', async () => {
  const engine = createEngine({ virtual: { devices: ['android'] } });
  const events: CallEvent[] = [];
  engine.onCall((e) => events.push(e));
  try {
    await engine.call('mobile_open_url', { device: A, url: 'mbdemo://screen/home' });
    const row = (await rows(engine)).get('item_3')!;
    const at = { x: 500, y: row + 36 };
    await engine.touchEvent(A, 'down', at, { origin: 's1' });
    // Longer than the virtual Android's long-press time (400 ms): the phone's own timer decides, as a real one does.
    await new Promise((r) => setTimeout(r, 450));
    const listed = (await engine.call('mobile_list_elements_on_screen', { device: A })) as { elements: UiElement[] };
    assert.ok(listed.elements.some((e) => e.type === 'dialog'), 'the row menu opened with the finger still down');
    await engine.touchEvent(A, 'move', { x: at.x, y: at.y - 300 }, { origin: 's1' });
    await engine.touchEvent(A, 'up', { x: at.x, y: at.y - 300 }, { origin: 's1' });
    await engine.call('mobile_open_url', { device: A, url: 'mbdemo://screen/home' });
    await engine.touchEvent(A, 'down', at, { origin: 's1' });
    await new Promise((r) => setTimeout(r, 450));
    await engine.touchEvent(A, 'up', { x: at.x + 2, y: at.y }, { origin: 's1' });
    const touches = events.filter((e) => e.tool === 'input.touch');
    assert.is(touches[0].parameters.long_press, undefined, 'a hold then a drag is a drag');
    assert.is(touches[1].parameters.long_press, true, 'held in place past the long-press time');
  } finally {
    await engine.close();
  }
});

test('moves behind a slow device coalesce: never more than the latest one waits', async () => {
  const log: string[] = [];
  const engine = createEngine({ virtual: false, extraDrivers: [slowDevice(log, { streams: true, trace: false })] });
  try {
    await engine.touchEvent('slow-1', 'down', { x: 10, y: 1000 }, { origin: 's' });
    const moves = [];
    for (let i = 1; i <= 20; i++) moves.push(engine.touchEvent('slow-1', 'move', { x: 10, y: 1000 - i * 10 }, { origin: 's' }));
    const results = await Promise.all(moves);
    await engine.touchEvent('slow-1', 'up', { x: 10, y: 790 }, { origin: 's' });
    const sent = log.filter((l) => l.startsWith('move'));
    assert.ok(sent.length <= 3, `20 moves reached the slow device as ${sent.length}: ${sent.join(' | ')}`);
    assert.is(sent[sent.length - 1], 'move 10,800', 'the latest point is the one sent');
    assert.ok(results.filter((r) => (r as { coalesced?: boolean }).coalesced).length >= 17, 'merged moves say so');
    assert.is(log[log.length - 1], 'up 10,790');
  } finally {
    await engine.close();
  }
});

test('without streamed touch the path is replayed on release, and the answer says so', async () => {
  const log: string[] = [];
  const engine = createEngine({ virtual: false, extraDrivers: [slowDevice(log, { streams: false, trace: true })] });
  try {
    const down = (await engine.touchEvent('slow-1', 'down', { x: 100, y: 1000 }, { origin: 's' })) as { streamed: boolean; message: string };
    assert.is(down.streamed, false);
    assert.match(down.message, /replayed as one gesture/);
    await engine.touchEvent('slow-1', 'move', { x: 100, y: 900 }, { origin: 's' });
    await engine.touchEvent('slow-1', 'move', { x: 100, y: 800 }, { origin: 's' });
    assert.equal(log, [], 'nothing reaches the device before the finger lifts');
    const up = (await engine.touchEvent('slow-1', 'up', { x: 100, y: 700 }, { origin: 's' })) as { message: string };
    assert.equal(log, ['trace 100,1000 100,900 100,800 100,700']);
    assert.match(up.message, /replayed as one gesture on release; the screen did not follow/);
  } finally {
    await engine.close();
  }
});

test.run();
