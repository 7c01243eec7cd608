import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import type { ResultDocument } from '../../src/validate/index.js';
import { loadScenario, validateResultValue } from '../../src/validate/index.js';
import { rig, type Rig } from './harness.js';

const ANDROID = 'virtual-android-1';

const t = suite<{ r: Rig }>('the assertions after a parent step are judged on the screen its sub-steps left, and show that screen');
t.before.each((ctx) => {
  ctx.r = rig();
});
t.after.each(async (ctx) => {
  await ctx.r.close();
});

function scenario(steps: object[], assertions: object[]) {
  const loaded = loadScenario(JSON.stringify({ $schema_version: '2.2', scenario_id: 'parent_case', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo', metadata: { app_version: '1', environment: 't' }, steps, assertions }));
  if (!loaded.scenario) throw new Error(JSON.stringify(loaded.report.errors));
  return loaded.scenario;
}

const result = (d: ResultDocument, id: string) => d.assertion_results.find((a) => a.assertion_id === id)!;

t('a parent\'s assertion shows a screenshot taken after the sub-steps, the screen its verdict is about', async ({ r }) => {
  const s = scenario(
    [
      { id: 'launch', action: 'launch_app', description: 'Launch' },
      { id: 'parent', action: 'open_url', description: 'home', value: 'mbdemo://screen/home', sub_steps: [{ id: 'child', action: 'tap', description: 'open item 3', target: 'Item 3' }] },
    ],
    [
      { id: 'parent_list', after_step: 'parent', type: 'screen_title', description: 'still the list', expected_text: 'Items' },
      { id: 'parent_detail', after_step: 'parent', type: 'screen_title', description: 'the detail', expected_text: 'Item 3' },
    ],
  );
  const { document: d, resultFile } = await runScenario({ engine: r.engine, device: ANDROID, scenario: s, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'steps' });
  // Judged after the sub-steps, as documented: the detail screen, not the list the parent opened.
  assert.is(result(d, 'parent_detail').status, 'passed', result(d, 'parent_detail').message);
  assert.is(result(d, 'parent_list').status, 'failed');
  const parent = d.steps_executed.find((x) => x.step_id === 'parent')!;
  const child = parent.sub_steps_executed!.find((x) => x.step_id === 'child')!;
  // The parent's own screenshot stays the screen its action left (the list)…
  assert.match(parent.screenshot!, /parent\.png$/);
  // …and its assertions show the screen they were judged on.
  for (const id of ['parent_list', 'parent_detail']) assert.match(result(d, id).screenshot ?? '', /[\\/]parent\+sub-steps\.png$/, id);
  const shown = readFileSync(join(r.out, result(d, 'parent_list').screenshot!));
  assert.ok(shown.equals(readFileSync(join(r.out, child.screenshot!))), 'the same screen as after the last sub-step');
  assert.not.ok(shown.equals(readFileSync(join(r.out, parent.screenshot!))), 'not the list from before the sub-steps');
  assert.equal(validateResultValue(JSON.parse(readFileSync(resultFile, 'utf8'))), []);
});

t('a parent\'s toast_visible sees the toasts of all its sub-steps, not only of the last one', async ({ r }) => {
  const s = scenario(
    [
      { id: 'launch', action: 'launch_app', description: 'Launch' },
      {
        id: 'open_more', action: 'open_url', description: 'more', value: 'mbdemo://screen/more',
        sub_steps: [
          { id: 'save', action: 'tap', description: 'save', target: 'Save draft' },
          { id: 'again', action: 'open_url', description: 'more again', value: 'mbdemo://screen/more' },
        ],
      },
    ],
    [
      { id: 'saved_now', after_step: 'save', type: 'toast_visible', description: 'the toast shows', expected_text: 'Draft saved' },
      { id: 'saved_in_parent', after_step: 'open_more', type: 'toast_visible', description: 'a toast during the parent', expected_text: 'Draft saved' },
    ],
  );
  const { document: d } = await runScenario({
    engine: r.engine, device: ANDROID, scenario: s, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, targetWaitMs: 1000, settleMs: 0, screenshots: 'none',
    // The toast is gone (2.5 s) by the time the parent's assertion is judged.
    onProgress: (e) => {
      if (e.type === 'assertion' && e.assertion.assertion_id === 'saved_now') r.clock.advance(5000);
    },
  });
  assert.is(result(d, 'saved_now').status, 'passed', result(d, 'saved_now').message);
  const parent = result(d, 'saved_in_parent');
  assert.is(parent.status, 'passed', parent.message);
  assert.match(parent.message, /was shown during the step/);
});

t.run();
