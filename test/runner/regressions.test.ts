import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Scenario } from '../../src/validate/index.js';
import { rig, run, scenario } from './harness.js';

/** flow_control with a29's expected title changed, so that check fails where it passed. */
function broken(base: Scenario): Scenario {
  return { ...base, assertions: base.assertions.map((a) => (a.id === 'a29_screen_title' ? { ...a, expected_text: 'Not this title' } : a)) as Scenario['assertions'] };
}

test('what passed in the previous run of the scenario on the device and fails now is a regression observation (SPEC §5)', async () => {
  const r = rig();
  try {
    const first = await run(r, 'flow_control', 'virtual-android-1');
    assert.is(first.document.status, 'passed', first.document.summary);
    assert.equal(first.document.observations.filter((o) => o.type === 'regression'), [], 'nothing to compare the first run with');
    // The same scenario on the other phone is a different history.
    await run(r, 'flow_control', 'virtual-ios-1', { scenario: broken(scenario(r, 'flow_control')) });
    // Each run starts from a fresh app as the first did: the item liked by a run shows "Unlike" in
    // the next, and "the Like button" is not that button.
    const fresh = () => r.engine.call('mobile_clear_app_data', { device: 'virtual-android-1', packageName: 'com.mobilebridge.demo' });
    await fresh();
    const second = await run(r, 'flow_control', 'virtual-android-1', { scenario: broken(scenario(r, 'flow_control')) });
    assert.is(second.document.status, 'failed');
    const found = second.document.observations.filter((o) => o.type === 'regression');
    assert.equal(found.map((o) => o.step_id), ['var_true']);
    assert.match(found[0].message, new RegExp(`^assertion a29_screen_title passed in ${first.document.run_id} and is failed now: `));
    // A failure that also failed last time is no regression.
    await fresh();
    const third = await run(r, 'flow_control', 'virtual-android-1', { scenario: broken(scenario(r, 'flow_control')) });
    assert.equal(third.document.observations.filter((o) => o.type === 'regression'), []);
  } finally {
    await r.close();
  }
});

test.run();
