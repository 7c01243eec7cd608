import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { junitXml } from '../../src/engine/runner/index.js';
import { incompleteJunit } from '../../src/engine/runner/reports/incomplete.js';
import type { ResultDocument, Scenario } from '../../src/validate/index.js';

const RLO = '\u202E';
const LRI = '\u2066';
const PDI = '\u2069';
const CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

/** A failed run whose scenario name, step id and message carry bidi controls, as an author or a screen may put them there. */
function failedRun(): ResultDocument {
  const step = { step_id: 'pay', action: 'tap', status: 'failed', error_code: 'ELEMENT_NOT_FOUND', error_message: `no element "${RLO}lecnac${PDI}" on screen`, sub_steps_executed: [] };
  return {
    run_id: 'run_20261129_120000',
    scenario_id: 'checkout',
    status: 'failed',
    summary: `failed at step pay: ${LRI}Pay${PDI}`,
    started_at: '2026-11-29T12:00:00.000Z',
    duration_seconds: 1,
    metadata: { device_id: 'virtual-android-1' },
    steps_executed: [step],
    assertion_results: [],
  } as unknown as ResultDocument;
}

test('junit.xml writes bidi embedding, override and isolate controls visibly ([U+202E]); CI pages show them raw, reordering the text', () => {
  const xml = junitXml([{ document: failedRun(), name: `scenarios/${RLO}nosj.json`, folder: 'scenarios', scenario: { name: `Check out ${RLO}yap` } as Scenario }]);
  assert.not.match(xml, CONTROLS);
  assert.match(xml, /name="Check out \[U\+202E\]yap"/);
  assert.match(xml, /no element &quot;\[U\+202E\]lecnac\[U\+2069\]&quot; on screen/);
  assert.match(xml, /\[U\+2066\]Pay\[U\+2069\]/);
});

test('the "incomplete run" junit.xml a run writes first does the same with the names it plans', () => {
  const xml = incompleteJunit({ startedAt: new Date(0), pid: 1, planned: [{ name: `a${RLO}.json`, folder: 'scenarios', scenario: { name: `Log in ${RLO}tuo`, scenario_id: 'login' } as Scenario }] });
  assert.not.match(xml, CONTROLS);
  assert.match(xml, /name="Log in \[U\+202E\]tuo"/);
});

test.run();
