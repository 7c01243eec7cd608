import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { junitXml } from '../../src/engine/runner/index.js';
import type { ResultDocument } from '../../src/validate/index.js';

/** A run cancelled at step `wait`, with `assertions` judged before the cancel. */
function cancelledRun(id: string, assertionStatus: 'passed' | 'failed', stepStatus: 'passed' | 'failed' = 'passed'): ResultDocument {
  return {
    run_id: `run_${id}`,
    scenario_id: id,
    status: 'cancelled',
    summary: 'cancelled at step wait (SIGINT)',
    started_at: '2026-11-30T04:00:00.000Z',
    duration_seconds: 2.5,
    metadata: { device_id: 'virtual-android-1' },
    steps_executed: [
      { step_id: 'open', action: 'tap', status: stepStatus, error_code: stepStatus === 'failed' ? 'ELEMENT_NOT_FOUND' : null, error_message: stepStatus === 'failed' ? 'no element "Promo" on screen' : null, sub_steps_executed: [] },
      { step_id: 'wait', action: 'wait_for_element', status: 'error', error_code: 'CANCELLED', error_message: 'cancelled (SIGINT)', sub_steps_executed: [] },
    ],
    assertion_results: [
      { assertion_id: 'late', type: 'element_visible', status: assertionStatus, expected: 'visible', actual: assertionStatus === 'failed' ? 'not visible' : 'visible', message: assertionStatus === 'failed' ? 'the Banner is not visible' : 'the Banner is visible' },
      { assertion_id: 'after_wait', type: 'element_visible', status: 'skipped', message: 'skipped: step wait did not run' },
    ],
  } as unknown as ResultDocument;
}

test('a cancelled run that had already failed is a <failure> saying so, not only <skipped>; one that had not stays <skipped>', () => {
  const xml = junitXml([
    { document: cancelledRun('failed_assertion', 'failed'), name: 'a.json', folder: '' },
    { document: cancelledRun('failed_step', 'passed', 'failed'), name: 'b.json', folder: '' },
    { document: cancelledRun('clean', 'passed'), name: 'c.json', folder: '' },
  ]);
  assert.match(xml, /<testsuites name="mobilebridge" tests="3" failures="2" errors="0" skipped="1" time="7.500">/);
  assert.match(xml, /<testsuite name="virtual-android-1" tests="3" failures="2" errors="0" skipped="1" /);
  assert.match(xml, /<testcase [^>]*file="a\.json"[^>]*><failure message="cancelled at step wait \(SIGINT\); before that, assertion late: [^"]*" type="element_visible">/);
  // The step the cancel interrupted (CANCELLED) is not what failed: the step before it is.
  assert.match(xml, /<testcase [^>]*file="b\.json"[^>]*><failure message="cancelled at step wait \(SIGINT\); before that, step open: no element &quot;Promo&quot; on screen" type="ELEMENT_NOT_FOUND">/);
  assert.match(xml, /<testcase [^>]*file="c\.json"[^>]*><skipped message="cancelled at step wait \(SIGINT\)"\/>/);
});

test.run();
