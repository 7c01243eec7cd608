import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import type { Assertion, Step } from '../../src/validate/index.js';
import { rig, scenario } from './harness.js';

const open = (id: string, url: string) => ({ id, action: 'open_url', description: id, value: url, optional: false, on_failure: 'fail', checkpoint: false }) as Step;
const exists = (id: string, after: string, what: string) => ({ id, after_step: after, type: 'element_exists', description: id, element_description: what }) as Assertion;

test('settling: a failure on a still screen is decided after one poll; a loading screen is waited out', async () => {
  const r = rig();
  try {
    const base = scenario(r, 'clear_data_cross');
    const s = {
      ...base,
      steps: [base.steps[0], open('signin', 'mbdemo://screen/signin'), open('load', 'mbdemo://screen/loading')],
      assertions: [exists('ghost', 'signin', 'the Purple Unicorn banner'), exists('loaded', 'load', 'Item 1')],
    };
    const at: Record<string, number> = {};
    const { document: d } = await runScenario({
      engine: r.engine, device: 'virtual-android-1', scenario: s, scenarioDir: join(r.dir, 'scenarios'), outDir: r.out,
      clock: r.verbClock, pollMs: 250, settleMs: 5000, screenshots: 'none', targetWaitMs: 1000,
      onProgress: (e) => {
        if (e.type === 'step') at[`step:${e.step.step_id}`] = r.clock.now();
        if (e.type === 'assertion') at[`assertion:${e.assertion.assertion_id}`] = r.clock.now();
      },
    });
    const byId = Object.fromEntries(d.assertion_results.map((a) => [a.assertion_id, a]));
    assert.is(byId.ghost.status, 'failed');
    assert.is(at['assertion:ghost'] - at['step:signin'], 250, 'one poll, not the 5 s settle');
    assert.is(byId.loaded.status, 'passed', byId.loaded.message);
    assert.ok(at['assertion:loaded'] - at['step:load'] > 250, 'the loading screen was waited out');
  } finally {
    await r.close();
  }
});

test.run();
