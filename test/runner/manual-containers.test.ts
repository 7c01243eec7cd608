import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { junitXml, runScenario } from '../../src/engine/runner/index.js';
import { loadScenario, validateResultValue } from '../../src/validate/index.js';
import { rig } from './harness.js';

// On the virtual iPhone, clearing app data needs manual action: a flow or a parent holding that step
// did not do its work, so the list the wipe should have removed is still there.
const doc = (id: string, extra: Record<string, unknown>) => ({
  $schema_version: '2.2', scenario_id: id, name: id, description: id, platform: 'ios', app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1', environment: 't' }, assertions: [], ...extra,
});
const exists = (id: string, after: string) => ({ id, after_step: after, type: 'element_exists', description: 'the list', element_description: 'Item 1' });

test('a flow or parent holding a step that needs manual action needs manual action too, and its assertions are skipped, not judged on the untouched screen', async () => {
  const r = rig();
  try {
    const folder = join(r.dir, 'manual');
    mkdirSync(join(folder, 'flows'), { recursive: true });
    writeFileSync(join(folder, 'flows', 'wipe.json'), JSON.stringify(doc('wipe', {
      steps: [{ id: 'clear', action: 'clear_app_data', description: 'wipe' }, { id: 'relaunch', action: 'launch_app', description: 'relaunch' }],
    })));
    const file = join(folder, 'top.json');
    writeFileSync(file, JSON.stringify(doc('top', {
      steps: [
        { id: 'launch', action: 'launch_app', description: 'l' },
        { id: 'home', action: 'open_url', description: 'h', value: 'mbdemo://screen/home' },
        { id: 'outer', flow: 'flows/nest.json' },
        { id: 'parent', action: 'open_url', description: 'p', value: 'mbdemo://screen/home', sub_steps: [{ id: 'clear2', action: 'clear_app_data', description: 'wipe' }] },
      ],
      assertions: [exists('after_outer', 'outer'), exists('after_parent', 'parent')],
    })));
    // A flow using the wiping flow: the verdict goes up every level.
    writeFileSync(join(folder, 'flows', 'nest.json'), JSON.stringify(doc('nest', {
      steps: [{ id: 'wipe', flow: 'wipe.json' }],
      assertions: [exists('after_wipe', 'wipe')],
    })));
    const loaded = loadScenario(readFileSync(file, 'utf8'), file, { baseDir: folder });
    if (!loaded.scenario) throw new Error(JSON.stringify(loaded.report.errors));
    const { document: d } = await runScenario({ engine: r.engine, device: 'virtual-ios-1', scenario: loaded.scenario, scenarioDir: folder, outDir: r.out, clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'none' });
    const step = (id: string) => {
      const find = (list: typeof d.steps_executed): (typeof d.steps_executed)[number] | undefined => list.map((s) => (s.step_id === id ? s : find(s.sub_steps_executed ?? []))).find(Boolean);
      return find(d.steps_executed)!;
    };
    assert.is(step('outer.wipe.clear').status, 'needs_manual');
    assert.is(step('outer.wipe.relaunch').status, 'passed');
    assert.is(step('outer.wipe').status, 'needs_manual');
    assert.is(step('outer.wipe').error_message, 'a step of the flow needs manual action: step outer.wipe.clear was not done on the device');
    assert.is(step('outer').status, 'needs_manual');
    assert.is(step('parent').status, 'needs_manual');
    assert.is(step('parent').error_message, 'a sub-step needs manual action: step clear2 was not done on the device');
    const byId = Object.fromEntries(d.assertion_results.map((a) => [a.assertion_id, a]));
    for (const id of ['after_outer', 'outer.after_wipe', 'after_parent']) assert.is(byId[id].status, 'skipped', `${id}: ${byId[id].message}`);
    assert.is(byId.after_outer.message, 'skipped: step outer needs manual action (step outer.wipe.clear inside it was not done on the device), so what it should have done was not checked');
    assert.is(byId.after_parent.message, 'skipped: step parent needs manual action (step clear2 inside it was not done on the device), so what it should have done was not checked');
    assert.is(d.status, 'failed', d.summary);
    assert.match(d.summary, /^failed: 3\/8 steps passed; 0\/3 assertions passed \(3 skipped\); needs manual action: step outer\.wipe\.clear: .*; step clear2: /);
    assert.equal(validateResultValue(d), []);
    // JUnit names the step that needs the hand, not the flow around it.
    assert.match(junitXml([{ document: d, name: 'top.json', folder: '' }]), /<failure message="step outer\.wipe\.clear: /);
  } finally {
    await r.close();
  }
});

test.run();
