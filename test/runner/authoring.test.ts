import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CallEvent } from '../../src/engine/engine.js';
import { htmlReport, junitXml, runScenario } from '../../src/engine/runner/index.js';
import { resolveParameters, SecretMask } from '../../src/engine/runner/parameters.js';
import type { ProgressEvent } from '../../src/engine/runner/types.js';
import type { ResultDocument, StepResult } from '../../src/validate/index.js';
import { loadScenario, validateResultValue, validateScenarioText } from '../../src/validate/index.js';
import { rig, run, type Rig } from './harness.js';

const PASSWORD = 'secret123';
const ANDROID = 'virtual-android-1';
const IOS = 'virtual-ios-1';

const t = suite<{ r: Rig }>('schema 2.2 in the runner: parameters, secrets, clear_first, waiting and conditional assertions, flows');
t.before.each((ctx) => {
  ctx.r = rig();
});
t.after.each(async (ctx) => {
  await ctx.r.close();
});

const flat = (steps: StepResult[]): StepResult[] => steps.flatMap((s) => [s, ...flat(s.sub_steps_executed ?? [])]);
const assertion = (d: ResultDocument, id: string) => d.assertion_results.find((a) => a.assertion_id === id);

t('a flow runs in place with its parameters: ids prefixed, clear_first replaced the junk, the waiting assertion passed', async ({ r }) => {
  const { document: d, resultFile } = await run(r, 'params_login', ANDROID, { parameters: { given: { PASSWORD } }, screenshots: 'steps' });
  assert.is(d.status, 'passed', d.summary);
  const login = d.steps_executed.find((s) => s.step_id === 'login')!;
  assert.is(login.action, 'flow');
  assert.equal(login.sub_steps_executed!.map((s) => [s.step_id, s.status]), [['login.type_email', 'passed'], ['login.type_password', 'passed'], ['login.submit', 'passed']]);
  assert.is(assertion(d, 'junk_typed')?.status, 'passed');
  // Signed in: only the right email (not junk + email) gets past the form.
  assert.is(assertion(d, 'login.home_list')?.status, 'passed');
  // It waited out the loading screen: its screenshot is the screen it passed on, not its step's from before the wait.
  const waited = assertion(d, 'login.home_list')!.screenshot!;
  const step = flat(d.steps_executed).find((s) => s.step_id === 'login.submit')!.screenshot!;
  assert.match(waited, /login\.submit\+login\.home_list\.png$/, `${waited} / step ${step}`);
  assert.ok(existsSync(join(r.out, waited)), waited);
  assert.is.not(waited, step);
  assert.is(assertion(d, 'signed_in')?.status, 'passed');
  const skipped = assertion(d, 'ios_title')!;
  assert.is(skipped.status, 'skipped');
  assert.match(skipped.message, /condition false: platform is "android"/);
  assert.equal([d.total_assertions, d.passed_assertions, d.failed_assertions], [4, 3, 0]);
  assert.equal(validateResultValue(JSON.parse(readFileSync(resultFile, 'utf8'))), []);
});

t('without timeout_ms the same assertion fails while the loading screen shows (settle 0): the wait is what passes it', async ({ r }) => {
  const flowFile = join(r.dir, 'scenarios', 'flows', 'sign_in_flow.json');
  const flow = JSON.parse(readFileSync(flowFile, 'utf8')) as { assertions: { timeout_ms?: number }[] };
  delete flow.assertions[0].timeout_ms;
  writeFileSync(flowFile, JSON.stringify(flow));
  const d = (await run(r, 'params_login', ANDROID, { parameters: { given: { PASSWORD } } })).document;
  assert.is(assertion(d, 'login.home_list')?.status, 'failed');
  assert.is(d.status, 'failed');
});

t('a waiting assertion that never passes says it waited its timeout_ms', async ({ r }) => {
  const flowFile = join(r.dir, 'scenarios', 'flows', 'sign_in_flow.json');
  const flow = JSON.parse(readFileSync(flowFile, 'utf8')) as { assertions: Record<string, unknown>[] };
  Object.assign(flow.assertions[0], { type: 'element_visible', element_description: 'the Frobnicate banner', timeout_ms: 1000 });
  writeFileSync(flowFile, JSON.stringify(flow));
  const d = (await run(r, 'params_login', ANDROID, { parameters: { given: { PASSWORD } } })).document;
  const failed = assertion(d, 'login.home_list')!;
  assert.is(failed.status, 'failed');
  assert.match(failed.message, /; still so after waiting \d+ ms \(timeout_ms 1000\)$/);
});

t('on the virtual iPhone the condition holds, so the assertion is evaluated (and fails on its made-up title)', async ({ r }) => {
  const d = (await run(r, 'params_login', IOS, { parameters: { env: { MB_PARAM_PASSWORD: PASSWORD } } })).document;
  assert.is(assertion(d, 'login.home_list')?.status, 'passed', d.summary);
  assert.is(assertion(d, 'ios_title')?.status, 'failed');
});

t('a parameter without a value stops the run before the first step, naming it', async ({ r }) => {
  const d = (await run(r, 'params_login', ANDROID)).document;
  assert.is(d.status, 'error');
  assert.equal(d.steps_executed, []);
  assert.match(d.summary, /INVALID_PARAMETER: no value for parameter PASSWORD;/);
  assert.match(d.summary, /--param PASSWORD=/);
});

t('secrets are ••• in the result document, progress, activity feed, junit.xml and report.html', async ({ r }) => {
  // An assertion that fails and quotes the secret in expected/message: the worst case for a leak.
  const file = join(r.dir, 'scenarios', 'params_login.json');
  const s = JSON.parse(readFileSync(file, 'utf8')) as { assertions: Record<string, unknown>[] };
  s.assertions.push({ id: 'leaky', after_step: 'login', type: 'text_contains', description: 'quotes the secret', expected_substring: '${PASSWORD}' });
  writeFileSync(file, JSON.stringify(s));
  const events: ProgressEvent[] = [];
  const activity: CallEvent[] = [];
  const off = r.engine.onCall((e) => activity.push(e));
  const { document: d, resultFile } = await run(r, 'params_login', ANDROID, { parameters: { file: { PASSWORD } }, onProgress: (e) => events.push(e), screenshots: 'steps' });
  off();
  const leaky = assertion(d, 'leaky')!;
  assert.is(leaky.status, 'failed');
  assert.match(JSON.stringify(leaky), /•••/);
  const outputs = {
    result: readFileSync(resultFile, 'utf8'),
    memory: JSON.stringify(d),
    progress: JSON.stringify(events),
    activity: JSON.stringify(activity.map((e) => ({ tool: e.tool, parameters: e.parameters }))),
    junit: junitXml([{ document: d, name: 'params_login.json' }]),
    html: await htmlReport(r.out, [{ document: d, name: 'params_login.json' }]),
  };
  for (const [where, text] of Object.entries(outputs)) assert.not.ok(text.includes(PASSWORD), `the secret leaked into ${where}`);
  const typed = activity.filter((e) => e.tool === 'mobile_type_keys').map((e) => e.parameters.text);
  assert.equal(typed, ['junk@example.org', 'demo@example.com', '•••']);
  // The device still got the real value: the sign-in worked.
  assert.is(assertion(d, 'login.home_list')?.status, 'passed');
});

t('a short secret garbles nothing: names, statuses and messages of the result stay whole, the secret itself is masked', async ({ r }) => {
  // "x" is in "steps_executed", in "text" and is a coordinate's name; "pass" is in "passed".
  for (const PASSWORD of ['x', 'pass']) {
    const activity: CallEvent[] = [];
    const off = r.engine.onCall((e) => activity.push(e));
    const { document: d, resultFile } = await run(r, 'params_login', ANDROID, { parameters: { given: { PASSWORD } } });
    off();
    const text = readFileSync(resultFile, 'utf8');
    const written = JSON.parse(text) as typeof d;
    assert.ok(Array.isArray(written.steps_executed), `names are never masked (${PASSWORD})`);
    assert.not.match(text, /"[^"]*•••[^"]*":/, 'no masked name');
    assert.ok(written.steps_executed.every((s) => ['passed', 'failed', 'skipped', 'error', 'needs_manual'].includes(s.status)), text);
    assert.not.match(text, /te•••t|•••ed/);
    assert.equal(activity.filter((e) => e.tool === 'mobile_type_keys').map((e) => e.parameters.text), ['junk@example.org', 'demo@example.com', '•••'], 'the typed secret is masked');
  }
});

t('item 7: launch_app with value launches that package, type with target taps it first; the validator does not call either unused', async ({ r }) => {
  const text = JSON.stringify({
    $schema_version: '2.1', scenario_id: 'other_app', name: 'n', description: 'd', platform: 'android', app_package: 'com.android.settings',
    metadata: { app_version: '1', environment: 't' },
    steps: [
      { id: 'launch_demo', action: 'launch_app', description: 'the demo, not app_package', value: 'com.mobilebridge.demo' },
      { id: 'open', action: 'open_url', description: 'sign-in', value: 'mbdemo://screen/signin' },
      { id: 'email', action: 'type', description: 'focus and type', target: 'Email', value: 'a@b.c' },
    ],
    assertions: [{ id: 'typed', after_step: 'email', type: 'element_text', description: 'typed', element_description: 'Email', expected_value: 'a@b.c' }],
  });
  const report = validateScenarioText(text);
  assert.equal(report.warnings.map((w) => w.rule), []);
  const scenario = loadScenario(text).scenario!;
  const calls: CallEvent[] = [];
  const off = r.engine.onCall((e) => calls.push(e));
  const d = (await runScenario({ engine: r.engine, device: ANDROID, scenario, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, settleMs: 0, screenshots: 'none' })).document;
  off();
  assert.is(d.status, 'passed', d.summary);
  assert.equal(calls.find((e) => e.tool === 'mobile_launch_app')?.parameters.packageName, 'com.mobilebridge.demo');
  const tools = calls.map((e) => e.tool);
  assert.ok(tools.lastIndexOf('mobile_click_on_screen_at_coordinates') < tools.indexOf('mobile_type_keys'), 'tapped before typing');
});

t('a flow step skipped by its condition skips the flow\'s assertions too', async ({ r }) => {
  const file = join(r.dir, 'scenarios', 'params_login.json');
  const s = JSON.parse(readFileSync(file, 'utf8')) as { steps: Record<string, unknown>[] };
  s.steps[3].condition = { type: 'device_property', property: 'platform', value: 'ios' };
  writeFileSync(file, JSON.stringify(s));
  const d = (await run(r, 'params_login', ANDROID, { parameters: { given: { PASSWORD } } })).document;
  assert.is(d.steps_executed.find((x) => x.step_id === 'login')?.status, 'skipped');
  assert.equal(['login.home_list', 'ios_title', 'signed_in'].map((id) => assertion(d, id)?.status), ['skipped', 'skipped', 'skipped']);
  assert.is(d.status, 'passed', d.summary);
});

t('a secret never reaches the resolution cache: entries whose description or element text hold it are left out, the others kept', async ({ r }) => {
  const ACCOUNT = 'acct-7741-zulu';
  const scenario = loadScenario(JSON.stringify({
    $schema_version: '2.2', scenario_id: 'secret_cache', name: 'n', description: 'd', platform: 'android', app_package: 'com.mobilebridge.demo',
    metadata: { app_version: '1', environment: 't' },
    parameters: { ACCOUNT: { secret: true } },
    variables: { GOT: { type: 'string', description: 'what the field shows' } },
    steps: [
      { id: 'launch', action: 'launch_app', description: 'Launch' },
      { id: 'open', action: 'open_url', description: 'sign-in', value: 'mbdemo://screen/signin' },
      { id: 'fill', action: 'type', description: 'type it', target: 'the Email field', value: '${ACCOUNT}' },
      { id: 'by_value', action: 'tap', description: 'the field by what it shows', target: '${ACCOUNT}' },
      { id: 'read', action: 'capture_value', description: 'read it back', target: 'the Email field', capture_to: 'GOT' },
    ],
    assertions: [{ id: 'typed', after_step: 'read', type: 'value_matches_variable', description: 'd', element_description: 'the Email field', variable_name: 'GOT' }],
  })).scenario!;
  const d = (await runScenario({ engine: r.engine, device: ANDROID, scenario, scenarioDir: r.dir, outDir: r.out, clock: r.verbClock, settleMs: 0, screenshots: 'none', parameters: { given: { ACCOUNT } } })).document;
  assert.is(d.status, 'passed', d.summary);
  const cache = readFileSync(join(r.out, 'cache', 'secret_cache.resolutions.json'), 'utf8');
  assert.not.ok(cache.includes(ACCOUNT), cache);
  // The entry resolved before anything was typed names no secret and is kept for the next run.
  assert.equal(Object.keys(JSON.parse(cache) as object), ['secret_cache/fill\u0000the Email field\u0000']);
});

t('precedence: --param, then --params-file, then MB_PARAM_*, then default', () => {
  const declared = { A: { default: 'd' }, B: { default: 'd' }, C: { default: 'd' }, D: { default: 'd' }, E: {} };
  const r = resolveParameters(declared, { given: { A: 'given' }, file: { A: 'file', B: 'file' }, env: { MB_PARAM_A: 'env', MB_PARAM_B: 'env', MB_PARAM_C: 'env' } });
  assert.equal(r.values, { A: 'given', B: 'file', C: 'env', D: 'd' });
  assert.equal(r.missing, ['E']);
  // CI gives an unset secret as an empty variable: that is no value (the default, or missing), not an empty password.
  const empty = resolveParameters({ P: { secret: true }, Q: { default: 'd' } }, { env: { MB_PARAM_P: '', MB_PARAM_Q: '' } });
  assert.equal([empty.values, empty.missing, empty.secrets], [{ Q: 'd' }, ['P'], []]);
  assert.equal(resolveParameters({ P: {} }, { given: { P: '' } }).values, { P: '' }, 'an empty --param is given on purpose');
  const mask = new SecretMask();
  mask.add('ab', 'abcdefgh12');
  assert.is(mask.text('xabcdefgh12x ab'), 'x•••x •••', 'a secret of 8 characters or more is masked wherever it is');
  assert.is(mask.text('tab ab, (ab) ab1 "ab"'), 'tab •••, (•••) ab1 "•••"', 'a shorter one where it stands alone');
  assert.is(mask.text('ab'), '•••');
  const big = 'ab'.repeat(SecretMask.MAX_SCANNED);
  assert.is(mask.text(big), big, 'images as base64 are left alone');
});

t.run();
