import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { exitCodeFor } from '../../src/cli/commands/run.js';
import type { ResultDocument } from '../../src/validate/index.js';

/** docs/runner.md's exit codes, from the result documents alone. */

function doc(status: ResultDocument['status'], summary: string, steps: Partial<ResultDocument['steps_executed'][number]>[] = []): ResultDocument {
  return { status, summary, steps_executed: steps } as unknown as ResultDocument;
}

test('an error exits 2 when its code is a device code, read from where the summary puts it, and 1 otherwise', () => {
  assert.is(exitCodeFor([doc('error', 'error before the first step: DEVICE_NOT_FOUND: device "x" not found')]), 2);
  assert.is(exitCodeFor([doc('error', 'error after 3 steps: TIMEOUT: the device did not answer')]), 2);
  assert.is(exitCodeFor([doc('error', 'error at step open (launch_app): APP_NOT_INSTALLED: com.x is not installed')]), 2);
  // A message that only mentions a device code is not one.
  assert.is(exitCodeFor([doc('error', 'error before the first step: INTERNAL: the TIMEOUT setting could not be read')]), 1);
  assert.is(exitCodeFor([doc('error', 'error: the run stopped because its results could not be written: PERMISSION_DENIED on the folder')]), 1);
  assert.is(exitCodeFor([doc('error', 'error at step a (tap): INTERNAL: x', [{ status: 'failed', error_code: 'TIMEOUT', action: 'tap' }])]), 2, 'a step with a device code');
});

test('failed runs: 4 when a target was not found, 5 otherwise; cancelled 130; passed 0', () => {
  assert.is(exitCodeFor([doc('passed', 'passed: 3/3 steps passed')]), 0);
  assert.is(exitCodeFor([doc('failed', 'failed: …', [{ status: 'failed', error_code: 'ELEMENT_NOT_FOUND', action: 'tap' }])]), 4);
  assert.is(exitCodeFor([doc('failed', 'failed: …', [{ status: 'failed', error_code: 'TIMEOUT', action: 'wait_for_element' }])]), 4);
  assert.is(exitCodeFor([doc('failed', 'failed: 1 assertion not passed', [])]), 5);
  assert.is(exitCodeFor([doc('passed', 'passed'), doc('cancelled', 'cancelled after 2 steps')]), 130);
});

test.run();
