import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CANCEL_GRACE_MS } from '../../src/engine/cancel-watch.js';
import type { CallContext, DeviceHandle } from '../../src/engine/driver.js';
import { Engine } from '../../src/engine/engine.js';
import { RecordingDriver } from './recording-driver.js';

/** A caller's cancel (CallOptions.signal): requests.cancel and MCP cancellation end here. */

type Answer = { status?: string; code?: string; message?: string; may_have_run?: true; apps?: unknown[] };
const TAP = 'mobile_click_on_screen_at_coordinates';
const tap = (x: number) => ({ device: 'phone', x, y: 1 });

/** Taps on `phone` go as the test says: `ignoreAbort` keeps one running through its cancel for `lateMs`. */
class SlowDriver extends RecordingDriver {
  ignoreAbort = false;
  lateMs = 0;
  listings = 0;

  override async open(id: string): Promise<DeviceHandle | undefined> {
    const handle = await super.open(id);
    if (!handle) return handle;
    return {
      ...handle,
      tap: async (x: number, y: number, ctx: CallContext) => {
        if (!this.ignoreAbort) return handle.tap(x, y, ctx);
        this.log.push(`start ${id} tap ${x},${y}`);
        await new Promise((resolve) => setTimeout(resolve, this.lateMs));
        this.log.push(`end ${id} tap ${x},${y}`);
      },
      listApps: async (ctx: CallContext) => {
        this.listings++;
        await handle.swipe(0, 0, 1, 1, 10, ctx);
        return [];
      },
    };
  }
}

function rig(delayMs: number): { driver: SlowDriver; engine: Engine } {
  const driver = new SlowDriver(['phone']);
  driver.delayMs = delayMs;
  return { driver, engine: new Engine({ drivers: [driver], timeoutMs: 30_000 }) };
}

const started = (driver: SlowDriver, what: string) =>
  new Promise<void>((resolve) => {
    const check = () => (driver.log.some((l) => l.startsWith(`start phone ${what}`)) ? resolve() : setTimeout(check, 5));
    check();
  });

test('a call cancelled while it waits its turn answers at once, says nothing was done, and never runs', async () => {
  const { driver, engine } = rig(800);
  try {
    const first = engine.call(TAP, tap(1)) as Promise<Answer>;
    await started(driver, 'tap 1');
    const cancel = new AbortController();
    const second = engine.call(TAP, tap(2), { signal: cancel.signal }) as Promise<Answer>;
    const at = performance.now();
    cancel.abort();
    const answer = await second;
    assert.ok(performance.now() - at < 400, 'answered while the first tap still ran');
    assert.is(answer.code, 'INTERNAL', JSON.stringify(answer));
    assert.match(answer.message!, /mobile_click_on_screen_at_coordinates on phone was cancelled by its caller before it started: nothing was done on phone/);
    assert.is(answer.may_have_run, undefined);
    assert.is((await first).status, 'success');
    await engine.call(TAP, tap(3));
    assert.equal(driver.log.filter((l) => l.startsWith('start')), ['start phone tap 1,1', 'start phone tap 3,1'], 'the cancelled tap never reached the device');
  } finally {
    await engine.close();
  }
});

test('a signal already aborted runs nothing', async () => {
  const { driver, engine } = rig(1);
  try {
    const answer = (await engine.call(TAP, tap(1), { signal: AbortSignal.abort() })) as Answer;
    assert.match(answer.message!, /before it started: nothing was done/);
    assert.equal(driver.log, []);
  } finally {
    await engine.close();
  }
});

test('a running tap that stops at the cancel: it may have acted (may_have_run), and the device is not called hung', async () => {
  const { driver, engine } = rig(10_000);
  try {
    const cancel = new AbortController();
    const call = engine.call(TAP, tap(1), { signal: cancel.signal }) as Promise<Answer>;
    await started(driver, 'tap 1');
    cancel.abort();
    const answer = await call;
    assert.is(answer.code, 'INTERNAL', JSON.stringify(answer));
    assert.match(answer.message!, /was cancelled by its caller while it ran; it may have acted on the device, fully or in part: look at the screen before repeating it/);
    assert.is(answer.may_have_run, true);
    assert.not.ok(driver.log.includes('end phone tap 1,1'), 'the tap was told to stop');
    const [listed] = await engine.listDevices();
    assert.is(listed.state ?? 'available', 'available', JSON.stringify(listed));
    driver.delayMs = 1;
    assert.is(((await engine.call(TAP, tap(2))) as Answer).status, 'success', 'the device is free for the next call');
  } finally {
    await engine.close();
  }
});

test('a read-only call cancelled while it ran says nothing on the device changed', async () => {
  const { driver, engine } = rig(10_000);
  try {
    const cancel = new AbortController();
    const call = engine.call('mobile_list_apps', { device: 'phone' }, { signal: cancel.signal }) as Promise<Answer>;
    await started(driver, 'swipe');
    cancel.abort();
    const answer = await call;
    assert.match(answer.message!, /cancelled by its caller while it ran; it only reads, so nothing on the device changed/);
    assert.is(answer.may_have_run, undefined);
    assert.is(driver.listings, 1);
  } finally {
    await engine.close();
  }
});

test('a running call that finishes within the grace answers with what it did; one that ignores the cancel gives up its slot after the grace', async () => {
  const { driver, engine } = rig(1);
  try {
    driver.ignoreAbort = true;
    driver.lateMs = 200;
    const cancel = new AbortController();
    const done = engine.call(TAP, tap(1), { signal: cancel.signal }) as Promise<Answer>;
    await started(driver, 'tap 1');
    cancel.abort();
    assert.is((await done).status, 'success', 'the tap happened: done is done');

    driver.lateMs = 60_000;
    const stuck = new AbortController();
    const hung = engine.call(TAP, tap(2), { signal: stuck.signal }) as Promise<Answer>;
    await started(driver, 'tap 2');
    const at = performance.now();
    stuck.abort();
    const answer = await hung;
    const waited = performance.now() - at;
    assert.ok(waited >= CANCEL_GRACE_MS - 50 && waited < CANCEL_GRACE_MS + 2000, `answered ${Math.round(waited)} ms after the cancel`);
    assert.is(answer.may_have_run, true, JSON.stringify(answer));
    driver.ignoreAbort = false;
    assert.is(((await engine.call(TAP, tap(3))) as Answer).status, 'success', 'the slot was given up');
  } finally {
    await engine.close();
  }
});

test('one signal shared by many calls: all cancelled, one listener on it (no MaxListenersExceededWarning)', async () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  const { driver, engine } = rig(5_000);
  try {
    const cancel = new AbortController();
    const calls = Array.from({ length: 15 }, (_, i) => engine.call(TAP, tap(i), { signal: cancel.signal }) as Promise<Answer>);
    await started(driver, 'tap 0');
    cancel.abort();
    const answers = await Promise.all(calls);
    assert.is(answers[0].may_have_run, true);
    for (const a of answers.slice(1)) assert.match(a.message!, /before it started/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(warnings.filter((w) => w === 'MaxListenersExceededWarning'), []);
  } finally {
    process.off('warning', onWarning);
    await engine.close();
  }
});

test.run();
