import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { UiElement } from '../../src/engine/types.js';
import { createEngine } from '../../src/engine/create.js';
import { ManualClock } from '../../src/engine/drivers/virtual/index.js';
import type { Engine } from '../../src/engine/engine.js';
import { find, makeRig, SIM_UDID, type Rig } from './rig.js';

/** iOS has no streamed touch (issue 17): a drag is collected and replayed as one W3C actions path on release. */

const ios = suite<{ rig: Rig }>('iOS drags and keys through the emulated WebDriverAgent');

ios.before(async (ctx) => {
  ctx.rig = await makeRig();
});
ios.after(async (ctx) => {
  await ctx.rig?.close();
});

async function rows(rig: Rig): Promise<Map<string, number>> {
  const { elements } = (await rig.call('mobile_list_elements_on_screen')) as { elements: UiElement[] };
  return new Map(elements.filter((e) => /^item_\d+$/.test(e.id)).map((e) => [e.id, e.y]));
}

function shift(before: Map<string, number>, after: Map<string, number>): number {
  const both = [...before.keys()].filter((id) => after.has(id));
  const id = both[Math.floor(both.length / 2)];
  if (!id) throw new Error('no list row on screen in both listings');
  return after.get(id)! - before.get(id)!;
}

const touch = (rig: Rig, action: 'down' | 'move' | 'up', x: number, y: number) => rig.engine.touchEvent(SIM_UDID, action, { x, y }, { origin: 'test' });

/**
 * Runs `work` with the engine's clock (performance.now) running `ms` ahead after `pass()`, so a finger seems held
 * that long without the test waiting; timers (the call deadlines) still run in real time.
 */
async function withSkippedTime<T>(work: (pass: (ms: number) => void) => Promise<T>): Promise<T> {
  const real = performance.now.bind(performance);
  let skipped = 0;
  performance.now = () => real() + skipped;
  try {
    return await work((ms) => (skipped += ms));
  } finally {
    performance.now = real;
  }
}

ios('a drag is one /actions path on release, with every point, and the answer says the screen did not follow', async ({ rig }) => {
  await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  await rig.call('mobile_open_url', { url: 'mbdemo://screen/home' });
  const before = await rows(rig);
  assert.ok(before.size > 3, 'the list is on screen');
  const down = (await touch(rig, 'down', 600, 1800)) as { streamed: boolean; message: string };
  assert.is(down.streamed, false);
  assert.match(down.message, /no streamed touches.*replayed as one gesture/);
  const sent = rig.wda.requests.length;
  await touch(rig, 'move', 600, 1600);
  await touch(rig, 'move', 600, 1400);
  assert.is(rig.wda.requests.length, sent, 'nothing reaches WDA while the finger is down');
  assert.is(shift(before, await rows(rig)), 0);
  const up = (await touch(rig, 'up', 600, 1200)) as { status: string; message: string };
  assert.is(up.status, 'success', JSON.stringify(up));
  assert.match(up.message, /path \(4 points\) was replayed as one gesture on release; the screen did not follow/);
  assert.ok(rig.wda.requests.slice(sent).includes('POST /session/:id/actions'));
  assert.is(shift(before, await rows(rig)), -600, 'the list moved by the whole path');
});

ios('a finger held still for 6 s is a 6 s long press, answered when WDA played it; a longer hold is cut to 10 s and says so', async ({ rig }) => {
  await rig.call('mobile_open_url', { url: 'mbdemo://screen/home' });
  const [id, y] = [...(await rows(rig))][2];
  // A real WDA answers POST /actions once XCTest played the gesture: the 6 s press outlasts a touch's 5 s deadline.
  rig.wda.faults.gesturesTakeTheirTime = true;
  try {
    const up = await withSkippedTime(async (pass) => {
      await touch(rig, 'down', 600, y + 40);
      pass(6000);
      return (await touch(rig, 'up', 600, y + 40)) as { status: string; message: string };
    });
    assert.is(up.status, 'success', JSON.stringify(up));
    assert.match(up.message, /replayed as a long press of 6\d\d\d ms at \(600, \d+\) on release$/);
  } finally {
    rig.wda.faults.gesturesTakeTheirTime = false;
  }
  await rig.call('mobile_open_url', { url: 'mbdemo://screen/home' });
  const long = await withSkippedTime(async (pass) => {
    await touch(rig, 'down', 600, y + 40);
    pass(12_000);
    return (await touch(rig, 'up', 600, y + 40)) as { status: string; message: string };
  });
  assert.match(long.message, /replayed as a long press of 10000 ms .* \(held 12\d\d\d ms; a replayed press lasts at most 10 s\)/, `${id}: ${long.message}`);
});

/** A row held 1.3 s, then dragged 300 px up: what the phone shows after it (the list's shift, and any menu). */
async function holdThenDrag(engine: Engine, device: string, pass: (ms: number) => void): Promise<{ shift?: number; menu: string[]; message: string }> {
  const list = async () => (await engine.call('mobile_list_elements_on_screen', { device })) as { elements: UiElement[] };
  await engine.call('mobile_open_url', { device, url: 'mbdemo://screen/home' });
  const before = await list();
  const rowsOf = (l: { elements: UiElement[] }) => new Map(l.elements.filter((e) => /^item_\d+$/.test(e.id)).map((e) => [e.id, e.y]));
  const row = before.elements.find((e) => e.id === 'item_3')!;
  const at = { x: row.center.x, y: row.center.y };
  await engine.touchEvent(device, 'down', at, { origin: 'test' });
  pass(1300);
  // A hand never holds quite still: a pixel of jitter is still the hold.
  await engine.touchEvent(device, 'move', { x: at.x + 1, y: at.y }, { origin: 'test' });
  for (const dy of [100, 200, 300]) await engine.touchEvent(device, 'move', { x: at.x, y: at.y - dy }, { origin: 'test' });
  const up = (await engine.touchEvent(device, 'up', { x: at.x, y: at.y - 300 }, { origin: 'test' })) as { status: string; message?: string };
  assert.is(up.status, 'success', JSON.stringify(up));
  const after = await list();
  const known = new Set(before.elements.map((e) => e.text).filter(Boolean));
  const rowsAfter = rowsOf(after);
  // A menu covering the list hides its rows: then nothing tells a shift.
  return {
    shift: rowsAfter.size ? shift(rowsOf(before), rowsAfter) : undefined,
    menu: after.elements.filter((e) => e.text && !known.has(e.text)).map((e) => e.text),
    message: up.message ?? '',
  };
}

ios('a hold before a drag reaches the iPhone as a long press as long as the hold, then the drag, as on the virtual iPhone', async ({ rig }) => {
  await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  const sent = rig.wda.gestures.length;
  const wda = await withSkippedTime((pass) => holdThenDrag(rig.engine, SIM_UDID, pass));
  const [finger] = rig.wda.gestures[sent] as { actions: { type: string; duration?: number }[] }[];
  assert.equal(finger.actions.slice(1, 3).map((a) => a.type), ['pointerDown', 'pause']);
  assert.ok(finger.actions[2].duration! >= 1300, `held ${finger.actions[2].duration} ms, not the 1.3 s the finger stayed`);
  assert.match(wda.message, /held 13\d\d ms in place first \(a long press\)$/);
  const clock = new ManualClock(1_000_000);
  const engine = createEngine({ virtual: { devices: ['ios'], clock } });
  try {
    const local = await holdThenDrag(engine, 'virtual-ios-1', (ms) => clock.advance(ms));
    assert.ok(local.menu.length > 0, 'the virtual iPhone opened the row menu while the finger was held');
    assert.equal({ shift: wda.shift, menu: wda.menu }, { shift: local.shift, menu: local.menu }, 'the WDA iPhone ends as the virtual one');
  } finally {
    await engine.close();
  }
});

ios('a press held 450 ms is a tap on the iPhone behind WDA and on the virtual iPhone alike (UIKit waits 500 ms)', async ({ rig }) => {
  const heldOn = async (engine: Engine, device: string, pass: (ms: number) => void, ms: number) => {
    await engine.call('mobile_open_url', { device, url: 'mbdemo://screen/home' });
    const { elements } = (await engine.call('mobile_list_elements_on_screen', { device })) as { elements: UiElement[] };
    const row = elements.find((e) => e.id === 'item_3')!;
    await engine.touchEvent(device, 'down', row.center, { origin: 'test' });
    pass(ms);
    // The virtual phone's timer runs with the finger down: a listing during the hold shows a long press at once.
    const during = (await engine.call('mobile_list_elements_on_screen', { device })) as { elements: UiElement[] };
    await engine.touchEvent(device, 'up', row.center, { origin: 'test' });
    const after = (await engine.call('mobile_list_elements_on_screen', { device })) as { elements: UiElement[] };
    // A tap on the row opens its detail screen.
    return { menuWhileHeld: during.elements.some((e) => e.type === 'dialog'), opened: after.elements.some((e) => /^Limited edition/.test(e.text)) };
  };
  await rig.call('mobile_launch_app', { packageName: 'com.mobilebridge.demo' });
  const wda = await withSkippedTime((pass) => heldOn(rig.engine, SIM_UDID, pass, 450));
  const clock = new ManualClock(1_000_000);
  const engine = createEngine({ virtual: { devices: ['ios'], clock } });
  try {
    const local = await heldOn(engine, 'virtual-ios-1', (ms) => clock.advance(ms), 450);
    assert.is(local.menuWhileHeld, false, 'no long press before 500 ms on the virtual iPhone');
    assert.equal([local.opened, wda.opened], [true, true], 'both iPhones took the press as a tap');
    assert.is((await heldOn(engine, 'virtual-ios-1', (ms) => clock.advance(ms), 500)).menuWhileHeld, true);
  } finally {
    await engine.close();
  }
});

ios('Backspace is XCUIKeyboardKeyDelete through /wda/keys; keys the keyboard lacks are UNSUPPORTED, nothing pressed', async ({ rig }) => {
  await rig.call('mobile_open_url', { url: 'mbdemo://screen/signin' });
  const { elements } = await rig.call('mobile_list_elements_on_screen');
  await rig.call('mobile_click_on_screen_at_coordinates', find(elements, 'Email').center);
  await rig.call('mobile_type_keys', { text: 'abc' });
  assert.is((await rig.engine.pressKey(SIM_UDID, 'BACKSPACE')).status, 'success');
  assert.is(rig.device.fieldValue('email'), 'ab');
  const before = rig.wda.requests.length;
  const left = (await rig.engine.pressKey(SIM_UDID, 'LEFT')) as { code?: string; message?: string };
  assert.is(left.code, 'UNSUPPORTED');
  assert.is(rig.wda.requests.length, before, 'nothing was sent');
});

ios.run();
