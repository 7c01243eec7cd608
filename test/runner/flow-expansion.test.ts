import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { planRun } from '../../src/engine/runner/flows.js';
import { loadScenario, validateScenarioText } from '../../src/validate/index.js';

const doc = (id: string, steps: object[]) => ({
  $schema_version: '2.2', scenario_id: id, name: id, description: id, platform: 'android', app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1', environment: 't' }, steps, assertions: [],
});

/** f0 … f{depth-1}: each flow uses the next twice, the last is one step. f1 is 3,070 steps, f0 6,142. */
function chain(dir: string, depth: number): void {
  for (let i = 0; i < depth; i++) {
    const steps = i === depth - 1 ? [{ id: 'home', action: 'press_button', description: 'h', value: 'HOME' }] : ['a', 'b'].map((id) => ({ id, flow: `f${i + 1}.json` }));
    writeFileSync(join(dir, `f${i}.json`), JSON.stringify(doc(`f${i}`, steps)));
  }
}

test('flows that multiply past 10,000 steps are refused by the validator and by the runner, naming the chain, and quickly', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mb-expansion-'));
  try {
    chain(dir, 12);
    // Each use of f0 is 6,142 steps: one is fine, two are 12,286.
    const once = join(dir, 'once.json');
    writeFileSync(once, JSON.stringify(doc('once', [{ id: 'only', flow: 'f0.json' }])));
    assert.ok(validateScenarioText(readFileSync(once, 'utf8'), once, { baseDir: dir }).valid);
    const twice = join(dir, 'twice.json');
    writeFileSync(twice, JSON.stringify(doc('twice', [{ id: 'a', flow: 'f0.json' }, { id: 'b', flow: 'f0.json' }])));
    const report = validateScenarioText(readFileSync(twice, 'utf8'), twice, { baseDir: dir });
    assert.equal(report.errors.map((e) => [e.rule, e.path]), [['flow-too-large', '/steps/0/flow']]);
    assert.is(report.errors[0].message, 'with its flows expanded this scenario is 12,286 steps, more than the 10,000 a run takes; flow "f0.json" alone is 6,142 (f0.json → f1.json → f2.json → f3.json → f4.json → … → f11.json): every use of a flow copies its steps, so flows used several times inside flows used several times multiply');
    // The runner does not rely on validation: a scenario handed to it as it is stops before the copies are made.
    const { scenario } = loadScenario(readFileSync(twice, 'utf8'), twice);
    if (!scenario) throw new Error('the scenario itself is valid without its folder');
    let message = "";
    try {
      planRun(scenario, dir);
    } catch (err) {
      message = (err as Error).message;
    }
    assert.match(message, /^with its flows expanded the scenario is more than 10,000 steps \(past it at flow step b\.b\.a\.b\.a\.a\.a\.a\.a\.a\.a: f0\.json → f1\.json → f2\.json → f3\.json → f4\.json → … → f10\.json\); every use of a flow copies its steps/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
