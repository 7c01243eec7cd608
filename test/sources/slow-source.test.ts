import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Driver } from '../../src/engine/driver.js';
import { SourceSet } from '../../src/engine/sources/source-set.js';
import type { DeviceInfo } from '../../src/engine/types.js';

const phone = (id: string): DeviceInfo => ({ id, os: 'Android', model: 'Pixel', version: '14' });

/** A driver whose listing answers with `devices`, or, while `hang` is set, only when its deadline aborts it. */
function source(devices: DeviceInfo[]) {
  const state = { hang: false, calls: 0 };
  const driver: Driver = {
    name: 'fake',
    listDevices: (ctx) => {
      state.calls++;
      if (!state.hang) return Promise.resolve(devices);
      return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
    },
    open: async () => undefined,
    close: async () => undefined,
  } as Driver;
  return { driver, state };
}

test('a source that is down does not hold up the others each time its retry falls due (SPEC §10)', async () => {
  const good = source([phone('good-1')]);
  const slow = source([phone('slow-1')]);
  // A deadline far longer than anything else here: a listing that waited for it would show.
  const set = new SourceSet(
    [
      { name: 'good', where: 'adb server good', driver: good.driver },
      { name: 'slow', where: 'adb server slow', driver: slow.driver },
    ],
    { listTimeoutMs: 1500, firstRetryMs: 1, maxRetryMs: 1 },
  );
  const ctx = { signal: new AbortController().signal };
  try {
    assert.equal((await set.listDevices(ctx)).map((d) => [d.id, d.state ?? 'ready']), [['good-1', 'ready'], ['slow-1', 'ready']]);
    // It starts to hang: the first listing waits for its deadline, since nothing says it is down yet.
    slow.state.hang = true;
    const first = await set.listDevices(ctx);
    assert.equal(first.map((d) => [d.id, d.state ?? 'ready']), [['good-1', 'ready'], ['slow-1', 'offline']]);
    // From then on its retries (due at once here) run beside the listings, which do not wait for them.
    const callsBefore = slow.state.calls;
    for (let i = 0; i < 3; i++) {
      // Its retry (1 ms backoff here) is due by now.
      await new Promise((r) => setTimeout(r, 10));
      const started = Date.now();
      const listed = await set.listDevices(ctx);
      assert.ok(Date.now() - started < 1000, `listing ${i} waited ${Date.now() - started} ms for the down source`);
      assert.equal(listed.map((d) => [d.id, d.state ?? 'ready']), [['good-1', 'ready'], ['slow-1', 'offline']]);
    }
    assert.ok(slow.state.calls > callsBefore, 'its retry still runs, beside the listings');
    // Back again: a source that answers at once is listed at once.
    slow.state.hang = false;
    await new Promise((r) => setTimeout(r, 1600));
    assert.equal((await set.listDevices(ctx)).map((d) => [d.id, d.state ?? 'ready']), [['good-1', 'ready'], ['slow-1', 'ready']]);
  } finally {
    await set.close();
  }
});

test.run();
