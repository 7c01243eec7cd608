import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import { interpolateFields } from '../../src/engine/runner/variables.js';
import { loadScenario } from '../../src/validate/index.js';
import { rig } from './harness.js';

test('a description fills in the names it knows and leaves any other ${…} as written; other texts still need declared names', () => {
  const step = { id: 's', action: 'type', description: 'Costs ${price}, not ${other}; $${literal}; ${pending}', value: '${price}' };
  assert.equal(interpolateFields(step, { price: '4.50', pending: null }), { ...step, description: 'Costs 4.50, not ${other}; ${literal}; ${pending}', value: '4.50' });
  assert.throws(() => interpolateFields({ ...step, value: '${other}' }, { price: '4.50' }), /\$\{other\} is not a declared variable/);
});

test('a scenario whose step and assertion descriptions hold an undeclared ${…} validates and runs', async () => {
  const r = rig();
  try {
    const { report, scenario } = loadScenario(
      JSON.stringify({
        $schema_version: '2.1', scenario_id: 'prose', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
        metadata: { app_version: '1', environment: 't' },
        steps: [{ id: 'launch', action: 'launch_app', description: 'Launch, then check ${price}' }],
        assertions: [{ id: 'shown', after_step: 'launch', type: 'element_visible', description: 'The ${whatever} shows', element_description: 'the Sign in button' }],
      }),
    );
    assert.equal(report.errors, []);
    const { document: d } = await runScenario({ engine: r.engine, device: 'virtual-android-1', scenario: scenario!, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'none' });
    assert.is(d.status, 'passed', JSON.stringify(d.steps_executed));
  } finally {
    await r.close();
  }
});

test.run();
