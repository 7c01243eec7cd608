import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import type { Step } from '../../src/validate/index.js';
import { rig, scenario } from './harness.js';

test('api_level: 34 on the virtual Android 14 phone (metadata and device_property conditions), null on iOS', async () => {
  const r = rig();
  try {
    const base = scenario(r, 'clear_data_cross');
    const launch = { ...base.steps[0], condition: { type: 'device_property', property: 'api_level', operator: '>=', value: 34 } } as Step;
    const s = { ...base, steps: [launch], assertions: [] };
    const go = (device: string) => runScenario({ engine: r.engine, device, scenario: s, scenarioDir: join(r.dir, 'scenarios'), outDir: r.out, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'none' });
    const android = (await go('virtual-android-1')).document;
    assert.is(android.metadata.api_level, 34);
    assert.is(android.steps_executed[0].condition_evaluated, true, android.steps_executed[0].error_message ?? '');
    assert.is(android.steps_executed[0].status, 'passed');
    const ios = (await go('virtual-ios-1')).document;
    assert.is(ios.metadata.api_level, null);
    assert.is(ios.steps_executed[0].condition_evaluated, false);
  } finally {
    await r.close();
  }
});

test.run();
