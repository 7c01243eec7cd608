import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import { loadScenario } from '../../src/validate/index.js';
import { rig } from './harness.js';

const TOKEN = 'Sup3rS3cretT0ken';

const doc = (id: string, extra: Record<string, unknown>) => ({
  $schema_version: '2.2', scenario_id: id, name: id, description: id, platform: 'android', app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1', environment: 't' }, assertions: [], ...extra,
});

test('a secret that reaches a reference_screenshot path (passed into a flow) is refused: no baseline file is named after it', async () => {
  const r = rig();
  try {
    const folder = join(r.dir, 'secret-baseline');
    mkdirSync(join(folder, 'flows'), { recursive: true });
    // The flow's parameter is not secret: only the top scenario knows what it passes is.
    writeFileSync(join(folder, 'flows', 'shot.json'), JSON.stringify(doc('shot', {
      parameters: { LABEL: { description: 'names the baseline' } },
      steps: [{ id: 'launch', action: 'launch_app', description: 'l' }],
      assertions: [{ id: 'same', after_step: 'launch', type: 'screenshot_match', description: 's', reference_screenshot: 'base/home-${LABEL}.png' }],
    })));
    const file = join(folder, 'top.json');
    writeFileSync(file, JSON.stringify(doc('top', {
      parameters: { TOKEN: { secret: true } },
      steps: [{ id: 'shot', flow: 'flows/shot.json', parameters: { LABEL: '${TOKEN}' } }],
    })));
    const loaded = loadScenario(readFileSync(file, 'utf8'), file, { baseDir: folder });
    if (!loaded.scenario) throw new Error(JSON.stringify(loaded.report.errors));
    const { document: d } = await runScenario({ engine: r.engine, device: 'virtual-android-1', scenario: loaded.scenario, scenarioDir: folder, outDir: r.out, clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'none', parameters: { given: { TOKEN } } });
    const same = d.assertion_results.find((a) => a.assertion_id === 'shot.same')!;
    assert.is(same.status, 'error', same.message);
    assert.match(same.message, /reference_screenshot "flows[\\/]base[\\/]home-\$\{LABEL\}\.png" would name the baseline file after a secret parameter's value/);
    assert.is(d.status, 'failed', d.summary);
    const base = join(folder, 'flows', 'base');
    assert.equal(existsSync(base) ? readdirSync(base) : [], [], 'no baseline written');
  } finally {
    await r.close();
  }
});

test.run();
