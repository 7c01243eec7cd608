import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { htmlReport, junitXml, type ReportedRun } from '../../src/engine/runner/index.js';
import { loadScenario, type Scenario } from '../../src/validate/index.js';
import { rig, run, type Rig } from './harness.js';

function parse(value: object): Scenario {
  const { report, scenario } = loadScenario(JSON.stringify(value), 'inline.json');
  if (!scenario) throw new Error(JSON.stringify(report.errors));
  return scenario;
}

/** The demo app's item 3, with checks that it is item 4. */
const ITEM_CHECKS = {
  $schema_version: '2.2',
  scenario_id: 'home_checks',
  name: 'Home checks',
  description: 'd',
  platform: 'android',
  app_package: 'com.mobilebridge.demo',
  metadata: { app_version: '1.4.2', environment: 'development' },
  steps: [
    { id: 'launch', action: 'launch_app', description: 'Launch' },
    { id: 'home', action: 'open_url', description: 'h', value: 'mbdemo://item/3' },
  ],
  assertions: [
    { id: 'title_ok', after_step: 'home', type: 'screen_title', description: 'x', expected_text: 'Item 4' },
    { id: 'detail_title', after_step: 'home', type: 'element_text', description: 'x', element_description: 'the detail title', expected_value: 'Item 4' },
  ],
};

async function runInline(r: Rig, value: object, extra: Parameters<typeof run>[3] = {}): Promise<ReportedRun> {
  const s = parse(value);
  const { document } = await run(r, 'actions_android', 'virtual-android-1', { scenario: s, scenarioDir: join(r.dir, 'scenarios'), ...extra });
  return { document, name: `suite/${s.scenario_id}.json`, folder: 'suite', scenario: s };
}

test('a failed assertion says what was expected and what was seen, in the summary and in the JUnit failure', async () => {
  const r = rig();
  try {
    const reported = await runInline(r, ITEM_CHECKS);
    const d = reported.document;
    assert.is(d.status, 'failed', d.summary);
    assert.match(d.summary, 'title_ok failed: the title is "Item 3" (expected "Item 4", got "Item 3")');
    assert.match(d.summary, 'detail_title failed: "Item 3" reads "Item 3" (expected "Item 4", got "Item 3")');
    const junit = junitXml([reported]);
    assert.match(junit, '<failure message="assertion title_ok: the title is &quot;Item 3&quot; (expected &quot;Item 4&quot;, got &quot;Item 3&quot;)" type="screen_title">');
    assert.match(junit, 'failed       assertion detail_title (element_text): &quot;Item 3&quot; reads &quot;Item 3&quot; (expected &quot;Item 4&quot;, got &quot;Item 3&quot;)');
  } finally {
    await r.close();
  }
});

test('expected and seen values are cut in the one-line texts, and a passed or skipped assertion keeps its message alone', async () => {
  const { verdictText } = await import('../../src/engine/runner/reports/verdict-text.js');
  const long = 'x'.repeat(5000);
  const text = verdictText({ status: 'failed', message: 'no match', expected: long, actual: null });
  assert.ok(text.length < 300, `${text.length} characters`);
  assert.match(text, /^no match \(expected "x{199}…, got nothing\)$/);
  assert.is(verdictText({ status: 'passed', message: 'reads as expected', expected: 'a', actual: 'a' }), 'reads as expected');
  assert.is(verdictText({ status: 'skipped', message: 'skipped: …', expected: null, actual: null }), 'skipped: …');
  assert.is(verdictText({ status: 'error', message: 'could not evaluate: x', expected: null, actual: null }), 'could not evaluate: x');
});

test('two scenarios of one folder with one name are two JUnit testcases: the scenario_id follows the name; a name unique in its folder stays as it is', async () => {
  const r = rig();
  try {
    const login = (id: string) => ({ ...ITEM_CHECKS, scenario_id: id, name: 'Login' });
    const android = await runInline(r, login('login_android'));
    const ios = await runInline(r, login('login_ios'));
    const elsewhere = { ...(await runInline(r, login('login_web'))), folder: 'other' };
    const never = { name: 'suite/login_tablet.json', folder: 'suite', scenario: { name: 'Login', scenario_id: 'login_tablet' }, reason: 'not started: the run was cancelled (Ctrl-C)' };
    const junit = junitXml([android, ios, elsewhere], [never]);
    assert.match(junit, '<testcase classname="suite" name="Login (login_android)" file="suite/login_android.json"');
    assert.match(junit, '<testcase classname="suite" name="Login (login_ios)" file="suite/login_ios.json"');
    assert.match(junit, '<testcase classname="suite" name="Login (login_tablet)" file="suite/login_tablet.json"');
    assert.match(junit, '<testcase classname="other" name="Login" file="suite/login_web.json"');
    const { incompleteJunit } = await import('../../src/engine/runner/reports/incomplete.js');
    const planned = [android, ios].map((x) => ({ name: x.name, folder: x.folder, scenario: { name: 'Login', scenario_id: x.document.scenario_id } }));
    assert.match(incompleteJunit({ startedAt: new Date(), pid: 1, planned }), 'name="Login (login_ios)"');
  } finally {
    await r.close();
  }
});

test('report.html shows the screen a waiting assertion was judged on, beside the assertion; one a step row shows already is not inlined twice', async () => {
  const r = rig();
  try {
    const waiting = { ...ITEM_CHECKS, assertions: [{ ...ITEM_CHECKS.assertions[0], timeout_ms: 600 }, ITEM_CHECKS.assertions[1]] };
    const reported = await runInline(r, waiting, { screenshots: 'steps' });
    const [waited, once] = reported.document.assertion_results;
    assert.match(waited.screenshot ?? '', /home\+title_ok\.png$/);
    const stepShot = reported.document.steps_executed.find((s) => s.step_id === 'home')!.screenshot!;
    assert.is(once.screenshot, stepShot);
    const html = await htmlReport(r.out, [reported]);
    assert.match(html, '<th>judged on</th>');
    const row = (id: string) => html.split('\n').find((line) => line.includes(`<code>${id}</code>`)) ?? '';
    assert.match(row('title_ok'), new RegExp(`<td><a href="${waited.screenshot!.replace(/[.+]/g, '\\$&')}"><img [^>]*src="data:image/jpeg;base64,`));
    assert.match(row('detail_title'), /<td class="msg">[^<]*<\/td><td><\/td><\/tr>/);
  } finally {
    await r.close();
  }
});

test('report.html isolates scenario text: a right-to-left override in a name cannot reorder the file, device and run id after it', async () => {
  const r = rig();
  try {
    const reported = await runInline(r, { ...ITEM_CHECKS, name: 'Checkout \u202e wolf' });
    reported.name = 'suite/\u202echeckout.json';
    reported.document.observations.push({ type: 'state_context', step_id: 'home', message: 'x' });
    const html = await htmlReport(r.out, [reported]);
    assert.match(html, 'h2,code{unicode-bidi:isolate}');
    assert.match(html, `<h2>Checkout \u202e wolf</h2> <span class="msg"><bdi>suite/\u202echeckout.json</bdi> on <bdi>virtual-android-1</bdi> (<bdi>`);
    assert.match(html, `s · <bdi>${reported.document.run_id}</bdi></span>`);
    assert.match(html, /<li class="msg">state_context \(<bdi>home<\/bdi>\): x<\/li>/);
  } finally {
    await r.close();
  }
});

test('a cancel while a waiting assertion waits leaves it undecided with its last look, and the summary names it', async () => {
  const r = rig();
  const controller = new AbortController();
  let armed = false;
  try {
    const waiting = { ...ITEM_CHECKS, assertions: [{ ...ITEM_CHECKS.assertions[0], timeout_ms: 20_000 }] };
    // The cancel comes in the wait between two looks, as a Ctrl-C does: the clock's sleep ends aborted.
    const clock = {
      now: () => r.clock.now(),
      sleep: async (ms: number, signal?: AbortSignal) => {
        if (armed && signal === controller.signal) {
          controller.abort();
          throw new Error('cancelled');
        }
        r.clock.advance(ms);
      },
    };
    const { document } = await runInline(r, waiting, {
      clock,
      signal: controller.signal,
      onProgress: (e) => void (e.type === 'step' && e.step.step_id === 'home' && (armed = true)),
    });
    assert.is(document.status, 'cancelled');
    const [a] = document.assertion_results;
    assert.is(a.status, 'skipped');
    assert.is(a.message, 'not decided: the run was cancelled while this check was made (last look: the title is "Item 3")');
    assert.is(document.summary, 'cancelled after 2 steps (during assertion title_ok after step home, which was not decided)');
  } finally {
    await r.close();
  }
});

test.run();
