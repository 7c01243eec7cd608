import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { htmlReport, junitXml, type ReportedRun } from '../../src/engine/runner/index.js';
import { rig, run, scenario } from './harness.js';

test('JUnit and HTML reports: named after the scenario, failures first, passing runs folded, unreached steps, small JPEG thumbnails', async () => {
  const r = rig();
  try {
    const reported: ReportedRun[] = [];
    for (const [file, device] of [['semantic_cross', 'virtual-android-1'], ['assertions_fail', 'virtual-android-1'], ['actions_android', 'virtual-android-1']] as const) {
      const s = scenario(r, file);
      const extra = file === 'actions_android' ? { scenario: { ...s, steps: s.steps.map((x, i) => (i === 3 ? { ...x, target: 'the Purple Unicorn button' } : x)) } } : {};
      const { document } = await run(r, file, device, { screenshots: 'steps', ...extra });
      reported.push({ document, name: `scenarios/smoke/${file}.json`, folder: 'scenarios.smoke', scenario: extra.scenario ?? s });
    }
    const [passing, failing, stopped] = reported;
    assert.is(passing.document.status, 'passed', passing.document.summary);
    assert.is(failing.document.status, 'failed');
    assert.is(stopped.document.status, 'failed');

    const junit = junitXml(reported);
    assert.match(junit, /<testcase classname="scenarios\.smoke" name="Back, keyboard and permissions on both platforms" file="scenarios\/smoke\/semantic_cross\.json"/);
    assert.match(junit, /<testcase classname="scenarios\.smoke" name="All 27 assertion types fail"|<testcase classname="scenarios\.smoke" name="[^"]+" file="scenarios\/smoke\/assertions_fail\.json"/);
    assert.not.match(junit, /mobilebridge\.virtual-android-1/, 'the classname does not depend on the device');

    const html = await htmlReport(r.out, reported);
    const first = (needle: string) => html.indexOf(needle);
    assert.ok(first(failing.scenario!.name) < first(passing.scenario!.name), 'failures come first');
    assert.ok(first(stopped.scenario!.name) < first(passing.scenario!.name));
    assert.match(html, /<details class="run"><summary><span class="badge passed">passed<\/span> <h2>Back, keyboard and permissions on both platforms<\/h2>/);
    assert.not.match(html, /<details class="run"><summary><span class="badge failed">/);
    // actions_android stops at its 4th step: the steps after it are listed as not run.
    const unreached = stopped.scenario!.steps.slice(4).map((x) => x.id);
    assert.ok(unreached.length > 2);
    for (const id of unreached) assert.match(html, new RegExp(`<code>${id}</code></td><td>[a-z_]+</td><td><span class="badge unreached">not run`));
    assert.match(html, /<a href="screenshots\/[^"]+\.png"><img [^>]*src="data:image\/jpeg;base64,/);
    assert.not.match(html, /data:image\/png/);
    assert.not.match(html, /<script|https?:\/\//i);

    // 24 runs (the three above, eight times) stay well under 2 MB.
    const many = await htmlReport(r.out, Array.from({ length: 8 }, () => reported).flat());
    const bytes = Buffer.byteLength(many);
    assert.ok(bytes < 2_000_000, `${bytes} bytes for 24 runs`);
  } finally {
    await r.close();
  }
});



test('JUnit text drops what XML 1.0 does not allow at all (controls, U+FFFE, U+FFFF, lone surrogates), keeps the rest', async () => {
  const { xml } = await import('../../src/engine/runner/reports/junit.js');
  assert.is(xml('Checkout \ufffe flow\uffff \u0007x \ud800y 😀 \t\n\r é &<>'), 'Checkout  flow x y 😀 \t\n\r é &amp;&lt;&gt;');
});

test.run();
