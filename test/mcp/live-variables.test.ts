/**
 * A live `assert` sees the variables read_text save_as captured, as the replay of the recording
 * will: value_matches_variable was judged against no variables at all ("variable … is not
 * declared"), so it failed right after the capture and the recording dropped it.
 */
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runScenario } from '../../src/engine/runner/index.js';
import { loadScenario } from '../../src/validate/index.js';
import { ANDROID, DEMO, IOS, jsonOf, liveSessionEach, ok, type LiveSession } from './helpers.js';

const test = suite<LiveSession>('live checks see captured variables');

liveSessionEach(test, 'mb-livevars-', { engineTools: true });

for (const device of [ANDROID, IOS]) {
  test(`${device}: value_matches_variable after read_text save_as passes, is recorded, validates and replays`, async ({ pair, backend, dir, verbClock }) => {
    ok(await pair.call('recording_start', { device, name: 'Greeting stays', app_package: DEMO }));
    ok(await pair.call('open_url', { device, url: 'mbdemo://screen/signin' }));
    const read = ok(await pair.call('read_text', { device, target: 'Welcome back', save_as: 'greeting' }));
    assert.is(read.value, 'Welcome back');
    const same = ok(await pair.call('assert', { device, type: 'value_matches_variable', element_description: 'Welcome back', variable_name: 'greeting' }));
    assert.is(same.status, 'passed', same.message);
    assert.ok(same.recorded.id, JSON.stringify(same.recorded));
    // `${name}` is filled in as the replay fills it, and a condition reads the variable too.
    const filled = ok(await pair.call('assert', { device, type: 'element_text', element_description: 'Welcome back', expected_value: '${greeting}', condition: { type: 'variable_value', variable_name: 'greeting', value: 'Welcome back' } }));
    assert.is(filled.status, 'passed', filled.message);
    assert.ok(filled.recorded.id, JSON.stringify(filled.recorded));
    // Another element's text does not match: the check compares, it does not just pass.
    const other = ok(await pair.call('assert', { device, type: 'value_matches_variable', element_description: 'the Sign in button', variable_name: 'greeting' }));
    assert.is(other.status, 'failed', other.message);
    assert.match(other.message, 'does not match ${greeting}');
    // A variable nothing captured is still an error, as in a replay.
    const unknown = jsonOf(await pair.call('assert', { device, type: 'value_matches_variable', element_description: 'Welcome back', variable_name: 'nobody' }));
    assert.is(unknown.status, 'error', unknown.message);
    assert.match(unknown.message, 'variable nobody is not declared');

    const stopped = ok(await pair.call('recording_stop', { device }));
    assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
    const doc = stopped.scenario;
    assert.equal(
      doc.assertions.map((a: { type: string }) => a.type),
      ['value_matches_variable', 'element_text'],
    );
    assert.is(doc.assertions[1].expected_value, '${greeting}', 'recorded as written: the replay fills it in');
    const loaded = loadScenario(JSON.stringify(doc), join(dir, 'greeting.json'));
    assert.ok(loaded.scenario, JSON.stringify(loaded.report.errors));
    const { document } = await runScenario({ engine: backend.engine, device, scenario: loaded.scenario!, scenarioDir: dir, outDir: join(dir, 'out'), clock: verbClock, settleMs: 0, screenshots: 'none' });
    assert.is(document.status, 'passed', JSON.stringify(document));
    assert.is(document.passed_assertions, 2);
  });
}

test('a value read before the recording started is not the replay\'s: the check fails while recording', async ({ pair }) => {
  ok(await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' }));
  ok(await pair.call('read_text', { device: ANDROID, target: 'Welcome back', save_as: 'greeting' }));
  const before = ok(await pair.call('assert', { device: ANDROID, type: 'value_matches_variable', element_description: 'Welcome back', variable_name: 'greeting' }));
  assert.is(before.status, 'passed', 'outside a recording the session\'s values count');
  ok(await pair.call('recording_start', { device: ANDROID, name: 'Greeting', app_package: DEMO }));
  ok(await pair.call('open_url', { device: ANDROID, url: 'mbdemo://screen/signin' }));
  const during = jsonOf(await pair.call('assert', { device: ANDROID, type: 'value_matches_variable', element_description: 'Welcome back', variable_name: 'greeting' }));
  assert.is(during.status, 'error', during.message);
  assert.ok(during.recorded.reason, 'not recorded');
  ok(await pair.call('recording_stop', { device: ANDROID }));
});

test.run();
