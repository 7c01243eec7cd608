import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { screenCapture, verbContext } from '../../src/engine/verbs/index.js';

const A = 'virtual-android-1';

test("a verb reading the screen's pixels inside its own unit on the device gets them, not a TIMEOUT behind its own hold", async () => {
  const engine = createEngine({ virtual: {}, android: false, ios: false, timeoutMs: 1500 });
  try {
    const ctx = await verbContext({ engine, device: A, targetWaitMs: 0 });
    const cap = await engine.hold(A, 'checking pixels', (hold) => screenCapture({ ...ctx, hold }));
    assert.ok(cap.width > 0 && cap.height > 0);
  } finally {
    await engine.close();
  }
});

test.run();
