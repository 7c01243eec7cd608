import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CallContext, DeviceHandle, Driver } from '../../src/engine/driver.js';
import { VirtualDriver } from '../../src/engine/drivers/virtual/index.js';
import { ToolError } from '../../src/engine/errors.js';
import type { ResultDocument } from '../../src/validate/index.js';
import { validateResultValue } from '../../src/validate/index.js';
import { rig, run } from './harness.js';

/** A virtual phone that can be unplugged: afterwards every call fails as a vanished device does. */
class UnpluggableDriver implements Driver {
  readonly name = 'unpluggable';
  unplugged = false;
  constructor(private readonly inner: VirtualDriver) {}
  async listDevices(ctx: CallContext) {
    return this.unplugged ? [] : this.inner.listDevices(ctx);
  }
  async open(id: string, ctx: CallContext): Promise<DeviceHandle | undefined> {
    const device = await this.inner.open(id, ctx);
    if (!device) return undefined;
    return new Proxy(device, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (this.unplugged) throw new ToolError('DEVICE_NOT_FOUND', `${id} was disconnected`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
  async close() {}
}

test('cancelling mid-run finishes the document as cancelled, with the steps done so far', async () => {
  const r = rig();
  try {
    const controller = new AbortController();
    let steps = 0;
    const { document: d, resultFile } = await run(r, 'actions_android', 'virtual-android-1', {
      signal: controller.signal,
      onProgress: (e) => {
        if (e.type === 'step' && ++steps === 3) controller.abort();
      },
    });
    assert.is(d.status, 'cancelled');
    assert.is(d.steps_executed.length, 3);
    assert.ok(d.ended_at);
    assert.ok(d.assertion_results.every((a) => a.status === 'skipped'));
    assert.is(d.skipped_assertions, d.total_assertions);
    const onDisk = JSON.parse(readFileSync(resultFile, 'utf8')) as ResultDocument;
    assert.is(onDisk.status, 'cancelled');
    assert.equal(validateResultValue(onDisk), []);
  } finally {
    await r.close();
  }
});

test('cancelling in the middle of a step names that step in the summary', async () => {
  const r = rig();
  try {
    const controller = new AbortController();
    let launched = false;
    // The first engine call after the launch step was recorded belongs to the next step, which is then under way.
    const off = r.engine.onCall(() => {
      if (launched) controller.abort();
    });
    const { document: d } = await run(r, 'actions_android', 'virtual-android-1', {
      signal: controller.signal,
      onProgress: (e) => {
        if (e.type === 'step' && e.step.step_id === 'launch') launched = true;
      },
    });
    off();
    assert.is(d.status, 'cancelled');
    assert.equal(d.steps_executed.map((s) => s.step_id), ['launch']);
    assert.is(d.summary, 'cancelled after 1 step (during step type_email, whose result is not recorded)');
  } finally {
    await r.close();
  }
});

test('a device that disappears mid-run ends the run as error with a complete document', async () => {
  const inner = new VirtualDriver({ devices: ['android'] });
  const plug = new UnpluggableDriver(inner);
  const r = rig([plug], false);
  try {
    let steps = 0;
    const { document: d, resultFile } = await run(r, 'actions_android', 'virtual-android-1', {
      onProgress: (e) => {
        if (e.type === 'step' && ++steps === 2) plug.unplugged = true;
      },
    });
    assert.is(d.status, 'error');
    const last = d.steps_executed[d.steps_executed.length - 1];
    assert.is(last.status, 'error');
    assert.is(last.error_code, 'DEVICE_NOT_FOUND');
    assert.match(d.summary, /DEVICE_NOT_FOUND/);
    const onDisk = JSON.parse(readFileSync(resultFile, 'utf8')) as ResultDocument;
    assert.is(onDisk.status, 'error');
    assert.ok(onDisk.ended_at);
    assert.equal(validateResultValue(onDisk), []);
  } finally {
    await r.close();
  }
});

test('an unknown device gives an error document, not an exception', async () => {
  const r = rig();
  try {
    const { document: d } = await run(r, 'actions_android', 'no-such-phone');
    assert.is(d.status, 'error');
    assert.match(d.summary, /DEVICE_NOT_FOUND/);
    assert.is(d.steps_executed.length, 0);
  } finally {
    await r.close();
  }
});

test.run();
