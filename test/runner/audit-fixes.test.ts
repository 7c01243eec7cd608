import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ResultDocument, Scenario } from '../../src/validate/index.js';
import { rig, run, scenario } from './harness.js';

const ANDROID = 'virtual-android-1';

/** retry_flaky's scenario with other steps and assertions (its header, app and variables kept). */
function withSteps(base: Scenario, steps: unknown[], assertions: unknown[] = [], variables: Scenario['variables'] = base.variables): Scenario {
  return { ...base, steps: steps as Scenario['steps'], assertions: assertions as Scenario['assertions'], variables };
}

test('a parent is on disk with each inner step as it finishes: a crash loses at most the step in flight', async () => {
  const r = rig();
  try {
    const s = withSteps(scenario(r, 'retry_flaky'), [
      { id: 'home', action: 'open_url', description: 'Home', value: 'mbdemo://screen/home' },
      {
        id: 'parent', action: 'open_url', description: 'Settings', value: 'mbdemo://screen/settings',
        sub_steps: [
          { id: 'child_ok', action: 'open_url', description: 'More', value: 'mbdemo://screen/more' },
          { id: 'child_next', action: 'open_url', description: 'Inbox', value: 'mbdemo://screen/inbox' },
        ],
      },
    ]);
    const onDisk: Record<string, ResultDocument> = {};
    const resultsDir = join(r.out, 'results');
    const read = () => JSON.parse(readFileSync(join(resultsDir, readdirSync(resultsDir).find((f) => f.endsWith('.json'))!), 'utf8')) as ResultDocument;
    const { document } = await run(r, 'retry_flaky', ANDROID, {
      scenario: s,
      // The document is written before each step's progress event: what is on disk then is what a crash would leave.
      onProgress: (e) => {
        if (e.type === 'step') onDisk[e.step.step_id] = read();
      },
    });
    assert.is(document.status, 'passed', document.summary);
    const atChild = onDisk.child_ok;
    assert.equal(atChild.steps_executed.map((x) => x.step_id), ['home', 'parent']);
    const parent = atChild.steps_executed[1];
    assert.equal(parent.sub_steps_executed!.map((x) => [x.step_id, x.status]), [['child_ok', 'passed']]);
    // Until its inner steps are done it says so, so an interrupted run never shows it passed.
    assert.is(parent.status, 'error');
    assert.match(parent.error_message!, /^unfinished: its inner steps were still running/);
    const done = document.steps_executed[1];
    assert.equal([done.status, done.error_message, done.sub_steps_executed!.length], ['passed', null, 2]);
  } finally {
    await r.close();
  }
});

test('optional and on_failure skip also cover a step that fails before its action: a ${name} without a value yet', async () => {
  const r = rig();
  try {
    const s = withSteps(
      scenario(r, 'retry_flaky'),
      [
        { id: 'home', action: 'open_url', description: 'Home', value: 'mbdemo://screen/home' },
        { id: 'promo', action: 'capture_value', description: 'Promo', target: 'the promo banner', capture_to: 'promo', optional: true },
        { id: 'search_promo', action: 'open_url', description: 'Search it', value: 'mbdemo://screen/search?q=${promo}', on_failure: 'skip' },
        { id: 'maybe', action: 'open_url', description: 'Maybe', value: 'mbdemo://screen/inbox?q=${promo}', optional: true },
        { id: 'last', action: 'open_url', description: 'More', value: 'mbdemo://screen/more' },
      ],
      [],
      { promo: { type: 'string', description: 'Promo text' } },
    );
    const { document: d } = await run(r, 'retry_flaky', ANDROID, { scenario: s, targetWaitMs: 0 });
    assert.equal(d.steps_executed.map((x) => [x.step_id, x.status]), [['home', 'passed'], ['promo', 'skipped'], ['search_promo', 'skipped'], ['maybe', 'skipped'], ['last', 'passed']]);
    assert.match(d.steps_executed[2].error_message!, /^on_failure skip: \$\{promo\} has no value yet/);
    assert.match(d.steps_executed[3].error_message!, /^optional step: \$\{promo\} has no value yet/);
    assert.is(d.status, 'passed', d.summary);
  } finally {
    await r.close();
  }
});

test('a failed step\'s assertions are not checked on the screen the failure left ("Sign in button gone: passed")', async () => {
  const r = rig();
  try {
    const s = withSteps(
      scenario(r, 'retry_flaky'),
      [
        { id: 'home', action: 'open_url', description: 'Home', value: 'mbdemo://screen/home' },
        { id: 'submit', action: 'tap', description: 'Sign in', target: 'the Sign in button' },
      ],
      [{ id: 'form_gone', after_step: 'submit', type: 'element_not_exists', description: 'Form gone', element_description: 'the Sign in button' }],
    );
    const { document: d } = await run(r, 'retry_flaky', ANDROID, { scenario: s, targetWaitMs: 0 });
    assert.is(d.status, 'failed');
    assert.equal(d.assertion_results.map((a) => [a.assertion_id, a.status]), [['form_gone', 'skipped']]);
    assert.is(d.passed_assertions, 0);
  } finally {
    await r.close();
  }
});

test.run();
