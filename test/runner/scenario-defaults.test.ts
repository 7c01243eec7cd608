import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import type { Scenario } from '../../src/validate/index.js';
import { rig } from './harness.js';

/**
 * runScenario fills in a scenario's defaults itself: a program handing it recording_stop's object
 * (which, like a file, leaves expected_visible and the like out) replays it as `mobilebridge run`
 * replays the saved file.
 */

const recorded = (assertions: unknown[]): Scenario =>
  ({
    $schema_version: '2.2',
    scenario_id: 'home_items',
    name: 'Home items',
    description: 'Recorded',
    platform: 'android',
    app_package: 'com.mobilebridge.demo',
    metadata: { app_version: '1.0', environment: 'development' },
    steps: [{ id: 'open_home', action: 'open_url', value: 'mbdemo://screen/home', description: 'Open home' }],
    assertions,
  }) as unknown as Scenario;

async function runObject(scenario: Scenario) {
  const r = rig();
  try {
    return (await runScenario({ engine: r.engine, device: 'virtual-android-1', scenario, scenarioDir: join(r.dir, 'scenarios'), outDir: r.out, clock: r.verbClock, settleMs: 0, screenshots: 'none', cache: false })).document;
  } finally {
    await r.close();
  }
}

test('an element_visible without expected_visible, as the recorder writes it, passes when the element shows', async () => {
  const doc = await runObject(recorded([{ id: 'check_items', after_step: 'open_home', type: 'element_visible', description: 'Items shows', element_description: 'Items' }]));
  assert.is(doc.status, 'passed', JSON.stringify(doc.assertion_results));
  assert.is(doc.assertion_results[0].expected, true);
});

test('an object that is not a valid scenario ends the run in error before the first step, naming what is wrong', async () => {
  const doc = await runObject(recorded([{ id: 'check_items', after_step: 'nowhere', type: 'element_visible', description: 'Items shows', element_description: 'Items' }]));
  assert.is(doc.status, 'error');
  assert.equal(doc.steps_executed, []);
  assert.match(doc.summary, 'INVALID_PARAMETER: the scenario is not valid (1 error: /assertions/0/after_step: after_step "nowhere" names no step');
});

test.run();
