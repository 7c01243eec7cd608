import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Engine } from '../../src/engine/engine.js';
import { runVerb, verbContext } from '../../src/engine/verbs/index.js';
import { RecordingDriver } from '../engine/recording-driver.js';

for (const step of [{ action: 'press_button', value: 'HOME' }, { action: 'tap', target: 'the OK button' }]) {
test(`a verb (${step.action}) cancelled while it waits for the device behind another caller answers CANCELLED at once; nothing of it reaches the device`, async () => {
  const driver = new RecordingDriver(['phone']);
  driver.delayMs = 1500;
  const engine = new Engine({ drivers: [driver], timeoutMs: 30_000 });
  try {
    const other = engine.call('mobile_click_on_screen_at_coordinates', { device: 'phone', x: 1, y: 1 }, { origin: 'someone else' });
    while (!driver.log.includes('start phone tap 1,1')) await new Promise((r) => setTimeout(r, 5));
    const cancel = new AbortController();
    const ctx = await verbContext({ engine, device: 'phone', signal: cancel.signal });
    const verb = runVerb(ctx, step);
    await new Promise((r) => setTimeout(r, 50));
    const at = performance.now();
    cancel.abort();
    const outcome = await verb;
    assert.ok(performance.now() - at < 500, 'answered while the other caller\'s tap still ran');
    assert.is(outcome.status, 'error', JSON.stringify(outcome));
    assert.is(outcome.error?.code, 'CANCELLED');
    await other;
    await engine.call('mobile_click_on_screen_at_coordinates', { device: 'phone', x: 2, y: 2 });
    assert.equal(driver.log.filter((l) => l.startsWith('start')), ['start phone tap 1,1', 'start phone tap 2,2']);
  } finally {
    await engine.close();
  }
});
}

test.run();
