import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import type { ResultDocument } from '../../src/validate/index.js';
import { loadScenario } from '../../src/validate/index.js';
import { rig, type Rig } from './harness.js';

const ANDROID = 'virtual-android-1';

const t = suite<{ r: Rig; folder: string }>('flows in the runner: files relative to the flow, failures named where they happened');
t.before.each((ctx) => {
  ctx.r = rig();
  ctx.folder = join(ctx.r.dir, 'flowcase');
  mkdirSync(join(ctx.folder, 'flows'), { recursive: true });
});
t.after.each(async (ctx) => {
  await ctx.r.close();
});

const doc = (id: string, extra: Record<string, unknown>) => ({
  $schema_version: '2.2', scenario_id: id, name: id, description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1', environment: 't' }, assertions: [], ...extra,
});

function write(folder: string, name: string, value: object): string {
  const file = join(folder, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

async function runTop(ctx: { r: Rig; folder: string }, top: object, parameters?: Record<string, string>): Promise<ResultDocument> {
  const file = write(ctx.folder, 'top.json', top);
  const loaded = loadScenario(readFileSync(file, 'utf8'), file, { baseDir: ctx.folder });
  if (!loaded.scenario) throw new Error(JSON.stringify(loaded.report.errors));
  const r = ctx.r;
  return (await runScenario({ engine: r.engine, device: ANDROID, scenario: loaded.scenario, scenarioDir: ctx.folder, outDir: r.out, clock: r.verbClock, targetWaitMs: 300, settleMs: 0, screenshots: 'none', parameters: parameters && { given: parameters } })).document;
}

t('a reference_screenshot in a flow is relative to the flow file, and may climb to the top scenario\'s folder', async (ctx) => {
  write(join(ctx.folder, 'flows'), 'f.json', doc('f', {
    steps: [{ id: 'launch', action: 'launch_app', description: 'Launch' }],
    assertions: [
      { id: 'beside', after_step: 'launch', type: 'screenshot_match', description: 'next to the flow', reference_screenshot: 'ref.png' },
      { id: 'above', after_step: 'launch', type: 'screenshot_match', description: 'in the top folder', reference_screenshot: '../ref_up.png' },
    ],
  }));
  const d = await runTop(ctx, doc('top', { steps: [{ id: 'f', flow: 'flows/f.json' }] }));
  assert.is(d.status, 'passed', d.summary);
  assert.ok(existsSync(join(ctx.folder, 'flows', 'ref.png')), 'baseline recorded beside the flow, where validate looks for it');
  assert.not.ok(existsSync(join(ctx.folder, 'ref.png')), 'not in the top scenario\'s folder');
  assert.ok(existsSync(join(ctx.folder, 'ref_up.png')));
  // The second run compares with the baselines the first recorded.
  const again = await runTop(ctx, doc('top', { steps: [{ id: 'f', flow: 'flows/f.json' }] }));
  assert.equal(again.assertion_results.map((a) => [a.assertion_id, a.status]), [['f.beside', 'passed'], ['f.above', 'passed']]);
  assert.match(again.assertion_results[0].message, /match flows[\\/]ref\.png/);
});

t.run();
