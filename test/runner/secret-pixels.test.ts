import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import type { UiElement } from '../../src/engine/types.js';
import { loadScenario } from '../../src/validate/index.js';
import { rig, type Rig } from './harness.js';

const ANDROID = 'virtual-android-1';
const TOKEN = 'tok_SECRET_9876';

const t = suite<{ r: Rig }>('a secret typed into a field that shows its text is painted over in the run\'s screenshots');
t.before.each((ctx) => {
  ctx.r = rig();
});
t.after.each(async (ctx) => {
  await ctx.r.close();
});

/** Types `value` into the Email field (which shows its text) with a step screenshot after each step. */
function typing(value: string, secret: boolean) {
  return loadScenario(
    JSON.stringify({
      $schema_version: '2.2', scenario_id: 'typed_token', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
      metadata: { app_version: '1', environment: 't' },
      ...(secret ? { parameters: { TOKEN: { secret: true } } } : {}),
      steps: [
        { id: 'launch', action: 'launch_app', description: 'Launch' },
        { id: 'open', action: 'open_url', description: 'sign-in', value: 'mbdemo://screen/signin' },
        { id: 'type_token', action: 'type', description: 'the token into a plain field', target: 'the Email field', value: secret ? '${TOKEN}' : value },
      ],
      assertions: [],
    }),
  ).scenario!;
}

/** The mean colour of the middle of `box` in a PNG. */
async function meanAt(png: Buffer, box: { x: number; y: number; width: number; height: number }): Promise<number> {
  const region = { left: Math.round(box.x + box.width / 4), top: Math.round(box.y + box.height / 4), width: Math.round(box.width / 2), height: Math.round(box.height / 2) };
  // stats() of a pipeline reads the whole input, whatever extract() says: cut the region out first.
  const { channels } = await sharp(await sharp(png).extract(region).png().toBuffer()).stats();
  return channels.slice(0, 3).reduce((sum, c) => sum + c.mean, 0) / 3;
}

t('the Email field holding the secret is black in the step screenshot; without secrets nothing is painted', async ({ r }) => {
  const shots: Record<string, Buffer> = {};
  for (const secret of [true, false]) {
    const { document: d } = await runScenario({
      engine: r.engine, device: ANDROID, scenario: typing(TOKEN, secret), scenarioDir: r.dir, outDir: join(r.out, String(secret)), clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'steps',
      ...(secret ? { parameters: { given: { TOKEN } } } : {}),
    });
    assert.is(d.status, 'passed', JSON.stringify(d.steps_executed));
    const step = d.steps_executed.find((s) => s.step_id === 'type_token')!;
    assert.ok(step.screenshot, 'the step has its screenshot');
    shots[String(secret)] = readFileSync(join(r.out, String(secret), step.screenshot!));
  }
  const { elements } = (await r.engine.call('mobile_list_elements_on_screen', { device: ANDROID })) as { elements: UiElement[] };
  const email = elements.find((e) => e.id === 'email')!;
  assert.is(email.text, TOKEN, 'the field shows the token as typed');
  assert.ok((await meanAt(shots.true, email)) < 2, 'painted over where the secret shows');
  assert.ok((await meanAt(shots.false, email)) > 100, 'an ordinary value is left as the screen shows it');
  // Only the field: the rest of the screen is the screen.
  const title = elements.find((e) => e.id === 'toolbar_title')!;
  assert.ok(Math.abs((await meanAt(shots.true, title)) - (await meanAt(shots.false, title))) < 1);
});

t.run();
