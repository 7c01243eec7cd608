import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseQuery } from '../../src/engine/resolve/query.js';
import { runScenario } from '../../src/engine/runner/index.js';
import type { ProgressEvent } from '../../src/engine/runner/types.js';
import { loadScenario } from '../../src/validate/index.js';
import { rig, type Rig } from './harness.js';
import { runOutputs } from './secret-outputs.js';

/**
 * A relational target ("the field below ${SECRET}") whose reference is not on screen: the message
 * quotes the reference as the scenario wrote it, so the secret in it is masked. It quoted the
 * lower-cased reference the parser matches with, which no masked form of the secret is.
 */

const ANDROID = 'virtual-android-1';
const SECRET = 'Quartz-Vortex_88!';

const t = suite<{ r: Rig }>('a secret in the reference of a relational target is masked in messages');
t.before.each((ctx) => {
  ctx.r = rig();
});
t.after.each(async (ctx) => {
  await ctx.r.close();
});

t('the parser keeps the reference as written (case, accents, curly quotes) next to the normalised one it matches with', () => {
  assert.equal(parseQuery(`the field below ${SECRET}`).relation, { direction: 'below', anchor: 'quartz-vortex_88!', written: SECRET });
  assert.equal(parseQuery('the Save button next to the Ümlaut Name').relation, { direction: 'next_to', anchor: 'umlaut name', written: 'Ümlaut Name' });
  assert.equal(parseQuery('the field “Email” left of Don’t-Tell-42').relation, { direction: 'left_of', anchor: "don't-tell-42", written: 'Don’t-Tell-42' });
});

t('a run never shows the lower-cased secret of a missing reference in its result, progress, junit.xml or report.html', async ({ r }) => {
  const scenario = loadScenario(
    JSON.stringify({
      $schema_version: '2.2', scenario_id: 'secret_relation', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '1', environment: 't' },
      parameters: { SECRET: { secret: true } },
      steps: [
        { id: 'launch', action: 'launch_app', description: 'Launch' },
        { id: 'open', action: 'open_url', description: 'sign-in', value: 'mbdemo://screen/signin' },
        { id: 'below', action: 'tap', description: 'by a reference not on screen', target: 'the field below ${SECRET}', optional: true },
        { id: 'next_to', action: 'tap', description: 'by a reference not on screen', target: 'the button next to the ${SECRET} label', optional: true },
      ],
      assertions: [],
    }),
  ).scenario!;
  const events: ProgressEvent[] = [];
  const { document: d, resultFile } = await runScenario({
    engine: r.engine, device: ANDROID, scenario, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'none',
    parameters: { given: { SECRET } }, onProgress: (e) => events.push(JSON.parse(JSON.stringify(e)) as ProgressEvent),
  });
  const below = d.steps_executed.find((s) => s.step_id === 'below');
  assert.is(below?.status, 'skipped', d.summary);
  assert.match(below!.error_message!, 'the reference "•••" was not found', String(below!.error_message));
  const outputs = await runOutputs({ document: d, resultFile, events, name: 'secret_relation.json', outDir: r.out });
  for (const [where, texts] of Object.entries(outputs)) {
    for (const shown of [SECRET, SECRET.toLowerCase(), 'vortex']) {
      assert.not.ok(texts.some((text) => text.toLowerCase().includes(shown.toLowerCase())), `${shown} leaked into ${where}: ${texts.filter((x) => x.toLowerCase().includes(shown.toLowerCase())).join(' | ')}`);
    }
  }
});

t.run();
