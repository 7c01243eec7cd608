import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CallContext, DeviceHandle } from '../../src/engine/driver.js';
import { Engine } from '../../src/engine/engine.js';
import { failure } from '../../src/engine/errors.js';
import { LocalBackend } from '../../src/mcp/backend.js';
import { BridgeBackend } from '../../src/mcp/bridge-backend.js';
import { RecordingDriver } from '../engine/recording-driver.js';
import { connectPair } from './helpers.js';

/** A phone whose screen capture hangs (a stuck screencap) until it is told to stop; the reason it was told is kept. */
class StuckCapture extends RecordingDriver {
  reasons: unknown[] = [];

  override async open(id: string): Promise<DeviceHandle | undefined> {
    const handle = await super.open(id);
    if (!handle) return handle;
    return {
      ...handle,
      screenshot: (ctx: CallContext) =>
        new Promise((_resolve, reject) => {
          this.log.push(`start ${id} screenshot`);
          ctx.signal.addEventListener('abort', () => {
            this.reasons.push(ctx.signal.reason);
            reject(ctx.signal.reason);
          });
        }),
    };
  }
}

const until = (check: () => boolean) =>
  new Promise<void>((resolve) => {
    const look = () => (check() ? resolve() : setTimeout(look, 5));
    look();
  });

for (const tool of ['take_screenshot', 'mobile_take_screenshot']) {
  test(`cancelling ${tool} stops the capture on the device, which is free for the next call`, async () => {
    const driver = new StuckCapture(['phone']);
    driver.delayMs = 1;
    // A deadline the old code would reach: the capture was then stopped by it, not by the cancel.
    const engine = new Engine({ drivers: [driver], timeoutMs: 3000 });
    const backend = new LocalBackend(engine);
    const pair = await connectPair(backend, { engineTools: true });
    try {
      const controller = new AbortController();
      const call = pair.client.callTool({ name: tool, arguments: { device: 'phone' } }, undefined, { signal: controller.signal }).catch(() => 'cancelled');
      await until(() => driver.log.includes('start phone screenshot'));
      controller.abort();
      assert.is(await call, 'cancelled');
      await until(() => driver.reasons.length > 0);
      assert.is((driver.reasons[0] as Error).name, 'CallCancelled', `the capture was stopped by ${String(driver.reasons[0])}`);
      const tap = (await engine.call('mobile_click_on_screen_at_coordinates', { device: 'phone', x: 1, y: 1 })) as { status?: string };
      assert.is(tap.status, 'success', JSON.stringify(tap));
    } finally {
      await pair.close();
      await backend.close();
    }
  });
}

test('over a bridge, the screenshot carries the cancel to the bridge call (requests.cancel)', async () => {
  const seen: (AbortSignal | undefined)[] = [];
  const backend = Object.create(BridgeBackend.prototype) as BridgeBackend;
  backend.callTool = async (_tool, _parameters, signal) => {
    seen.push(signal);
    return failure('INTERNAL', 'not a bridge');
  };
  const controller = new AbortController();
  await backend.screenshot('phone', {}, controller.signal);
  assert.is(seen[0], controller.signal);
});

test.run();
