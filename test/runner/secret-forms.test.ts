import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import { SecretMask } from '../../src/engine/runner/parameters.js';
import type { ProgressEvent } from '../../src/engine/runner/types.js';
import { loadScenario } from '../../src/validate/index.js';
import { rig, type Rig } from './harness.js';
import { runOutputs, strings } from './secret-outputs.js';

const ANDROID = 'virtual-android-1';

const t = suite<{ r: Rig }>('a secret is masked in the forms messages show it in: JSON-quoted, cut short, on one line');
t.before.each((ctx) => {
  ctx.r = rig();
});
t.after.each(async (ctx) => {
  await ctx.r.close();
});

t('a quote or a backslash in a secret: its JSON-escaped form is masked too', () => {
  const mask = new SecretMask();
  mask.add('Pa"ss\\word9');
  assert.is(mask.text('no element matches "the Pa\\"ss\\\\word9 button"'), 'no element matches "the ••• button"');
  assert.is(mask.text('typed Pa"ss\\word9'), 'typed •••');
});

t('a long secret cut short by a message is masked from where it starts, not left as its first characters', () => {
  const mask = new SecretMask();
  mask.add('correct-horse-battery-staple-and-more');
  assert.is(mask.text('on screen: "correct-horse-battery-staple-an…" (edittext)'), 'on screen: "•••" (edittext)');
  assert.is(mask.text('on screen: "user:correct-horse-battery-stap…" (edittext)'), 'on screen: "user:•••" (edittext)');
  assert.is(mask.text('on screen: "usercorrect-horse…" (edittext)'), 'on screen: "user•••" (edittext)', 'glued to a word');
  // A cut word that may be the secret's start goes; glued to a word, a start under 4 characters stays.
  assert.is(mask.text('"Sign in to see your items and c…", … (25 named elements)'), '"Sign in to see your items and •••", … (25 named elements)');
  assert.is(mask.text('"A long title that ends with c…"'), '"A long title that ends with •••"');
  assert.is(mask.text('"A long title that ends with abc…"'), '"A long title that ends with abc…"');
  assert.is(mask.text('"A long title that endsc…"'), '"A long title that endsc…"');
});

t('a secret typed into a URL is masked as the address bar shows it, percent-encoded', () => {
  const mask = new SecretMask();
  mask.add('S3cure@Pass:99', 'Tok"en<42> Xyz');
  assert.is(mask.text('the address bar shows "https://qa:S3cure%40Pass%3A99@staging.example.com/"'), 'the address bar shows "https://qa:•••@staging.example.com/"');
  assert.is(mask.text('opened https://x/?t=Tok%22en%3C42%3E%20Xyz and ?t=Tok%22en%3C42%3E+Xyz'), 'opened https://x/?t=••• and ?t=•••');
});

t('a PIN (4–7 characters) glued to other text is masked inside quotes and in values from the screen; outside them only alone', () => {
  const mask = new SecretMask();
  mask.add('482915', 'pass');
  // A message quoting the field: the PIN typed after "ref" never shows.
  assert.is(mask.text('a failed: "ref482915" reads "ref482915"'), 'a failed: "ref•••" reads "ref•••"');
  assert.equal(mask.deep({ captured_variables: { field: 'ref482915' }, actual: 'ref482915', status: 'passed', summary: '1/2 steps passed' }), { captured_variables: { field: 'ref•••' }, actual: 'ref•••', status: 'passed', summary: '1/2 steps passed' });
  // Words of ours are left whole: "pass" in "passed" outside quotes.
  assert.is(mask.text('step a passed; 482915 typed'), 'step a passed; ••• typed');
});

t('white space in a secret made one space, as a message lists a text on one line', () => {
  const mask = new SecretMask();
  mask.add('two  words\tand more');
  assert.is(mask.text('on screen: "two words and more" (text)'), 'on screen: "•••" (text)');
});

t('a run never shows a secret with a quote in it, nor the start of a long one, in its result, progress, junit.xml or report.html', async ({ r }) => {
  for (const SECRET of ['Pa<ss>&"wo\'rd\\Ze', 'correct-horse-battery-staple-and-more-words']) {
    const scenario = loadScenario(
      JSON.stringify({
        $schema_version: '2.2', scenario_id: 'secret_forms', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
        metadata: { app_version: '1', environment: 't' },
        parameters: { ACCOUNT: { secret: true } },
        steps: [
          { id: 'launch', action: 'launch_app', description: 'Launch' },
          { id: 'open', action: 'open_url', description: 'sign-in', value: 'mbdemo://screen/signin' },
          { id: 'fill', action: 'type', description: 'type it', target: 'the Email field', value: '${ACCOUNT}' },
          // Each miss lists what the screen shows, the field with the secret in it included.
          { id: 'by_name', action: 'tap', description: 'names the secret', target: 'the ${ACCOUNT} switch', optional: true },
          { id: 'missing', action: 'tap', description: 'not there', target: 'the Checkout button', optional: true },
        ],
        assertions: [{ id: 'quoted', after_step: 'fill', type: 'element_text', description: 'quotes it', element_description: 'the Email field', expected_value: 'not ${ACCOUNT}' }],
      }),
    ).scenario!;
    const events: ProgressEvent[] = [];
    const { document: d, resultFile } = await runScenario({
      engine: r.engine, device: ANDROID, scenario, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'none',
      parameters: { given: { ACCOUNT: SECRET } }, onProgress: (e) => events.push(e),
    });
    assert.is(d.steps_executed.find((s) => s.step_id === 'missing')?.status, 'skipped', d.summary);
    assert.match(d.steps_executed.find((s) => s.step_id === 'missing')!.error_message!, /on screen: "•••"/);
    // Each output as the text a reader gets: the strings of the JSON, the markup's entities decoded.
    const outputs = await runOutputs({ document: d, resultFile, events, name: 'secret_forms.json', outDir: r.out });
    const start = SECRET.slice(0, 12);
    for (const [where, texts] of Object.entries(outputs)) {
      for (const shown of [SECRET, JSON.stringify(SECRET).slice(1, -1), start]) assert.not.ok(texts.some((text) => text.includes(shown)), `${shown} leaked into ${where}`);
    }
  }
});

t('a plain parameter passed to a flow\'s secret parameter is masked from the start of the run, not only once the flow starts', async ({ r }) => {
  const EMAIL = 'qa.lead@example.com';
  mkdirSync(join(r.dir, 'flows'), { recursive: true });
  const head = { $schema_version: '2.2', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo', metadata: { app_version: '1', environment: 't' } };
  writeFileSync(
    join(r.dir, 'flows', 'secret_flow.json'),
    JSON.stringify({ ...head, scenario_id: 'secret_flow', name: 'f', parameters: { PASSWORD: { secret: true } }, steps: [{ id: 'back', action: 'press_button', description: 'back', value: 'BACK' }], assertions: [] }),
  );
  const scenario = loadScenario(
    JSON.stringify({
      ...head, scenario_id: 'plain_into_secret', name: 'n',
      parameters: { EMAIL: {} },
      steps: [
        { id: 'launch', action: 'launch_app', description: 'Launch' },
        { id: 'open', action: 'open_url', description: 'sign-in', value: 'mbdemo://screen/signin' },
        { id: 'fill', action: 'type', description: 'type it', target: 'the Email field', value: '${EMAIL}' },
        // The miss lists what the screen shows: the field with the value in it.
        { id: 'missing', action: 'tap', description: 'not there', target: 'the Checkout button', optional: true },
        { id: 'sign_in', flow: 'flows/secret_flow.json', description: 'the flow', parameters: { PASSWORD: '${EMAIL}' } },
      ],
      assertions: [],
    }),
    '<input>',
    { baseDir: r.dir },
  ).scenario!;
  const events: ProgressEvent[] = [];
  const { document: d, resultFile } = await runScenario({
    engine: r.engine, device: ANDROID, scenario, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, targetWaitMs: 0, settleMs: 0, screenshots: 'none',
    parameters: { given: { EMAIL } }, onProgress: (e) => events.push(JSON.parse(JSON.stringify(e)) as ProgressEvent),
  });
  assert.is(d.steps_executed.find((s) => s.step_id === 'missing')?.status, 'skipped', d.summary);
  assert.match(d.steps_executed.find((s) => s.step_id === 'missing')!.error_message!, /on screen: "•••"/);
  // As sent at the time (a CLI prints it, a bridge notifies it), before the flow started.
  assert.not.ok(strings(events).some((text) => text.includes(EMAIL)), 'progress before the flow');
  assert.not.ok(strings(JSON.parse(readFileSync(resultFile, 'utf8'))).some((text) => text.includes(EMAIL)), 'result');
});

t.run();
