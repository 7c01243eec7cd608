import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LocalBackend } from '../../src/mcp/backend.js';
import { ANDROID, connectPair, DEMO, jsonOf, textOf, virtualEngine, type Pair } from './helpers.js';

/** Arguments of type_text and assert that SPEC §8 (2.2) gives a scenario step, taken by the MCP tools too. */
const args = suite<{ pair: Pair; backend: LocalBackend }>('MCP verb and assert arguments from schema 2.2');

args.before.each(async (ctx) => {
  const v = virtualEngine();
  ctx.backend = new LocalBackend(v.engine, { clock: v.verbClock, targetWaitMs: 1000, settleMs: 0 });
  ctx.pair = await connectPair(ctx.backend);
});
args.after.each(async (ctx) => {
  await ctx.pair.close();
  await ctx.backend.close();
});

function ok(r: Awaited<ReturnType<Pair['call']>>): any {
  assert.not.ok(r.isError, textOf(r));
  return jsonOf(r);
}

args('type_text clear_first empties a pre-filled field, and the recording keeps clear_first', async ({ pair }) => {
  ok(await pair.call('recording_start', { device: ANDROID, name: 'Retype the email', app_package: DEMO }));
  ok(await pair.call('launch_app', { device: ANDROID, package: DEMO }));
  ok(await pair.call('type_text', { device: ANDROID, target: 'the Email field', text: 'old@example.com' }));
  const typed = ok(await pair.call('type_text', { device: ANDROID, target: 'the Email field', text: 'new@example.com', clear_first: true }));
  assert.match(typed.message, /emptied the field/);
  assert.is(ok(await pair.call('read_text', { device: ANDROID, target: 'the Email field' })).value, 'new@example.com');
  // Only emptying: "" is taken with clear_first.
  ok(await pair.call('type_text', { device: ANDROID, target: 'the Email field', text: '', clear_first: true }));
  assert.is(ok(await pair.call('read_text', { device: ANDROID, target: 'the Email field' })).value, '');
  const stopped = ok(await pair.call('recording_stop', { device: ANDROID }));
  assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
  const types = stopped.scenario.steps.filter((s: { action: string }) => s.action === 'type');
  assert.equal(
    types.map((s: { value: string; clear_first?: boolean }) => [s.value, s.clear_first]),
    [
      ['old@example.com', undefined],
      ['new@example.com', true],
      ['', true],
    ],
  );
});

args('type_text refuses an empty text without clear_first, naming both', async ({ pair }) => {
  const r = await pair.call('type_text', { device: ANDROID, target: 'the Email field', text: '' });
  assert.ok(r.isError);
  assert.match(textOf(r), /"text" must not be empty: .*clear_first: true/);
});

args('assert takes timeout_ms and condition, evaluates them live and records them', async ({ pair }) => {
  ok(await pair.call('recording_start', { device: ANDROID, name: 'Conditional check', app_package: DEMO }));
  ok(await pair.call('launch_app', { device: ANDROID, package: DEMO }));
  const skipped = ok(await pair.call('assert', { device: ANDROID, type: 'element_exists', element_description: 'the Email field', condition: { type: 'device_property', property: 'platform', value: 'ios' } }));
  assert.is(skipped.status, 'skipped', 'a false condition skips the check');
  const waited = ok(await pair.call('assert', { device: ANDROID, type: 'element_exists', element_description: 'the Purple Unicorn banner', timeout_ms: 3000 }));
  assert.is(waited.status, 'failed');
  assert.match(waited.message, /3000|3 s/, 'the check waited the given time');
  const kept = ok(await pair.call('assert', { device: ANDROID, type: 'element_exists', element_description: 'the Email field', timeout_ms: 2000, condition: { type: 'device_property', property: 'platform', value: 'android' } }));
  assert.is(kept.status, 'passed', kept.message);
  const stopped = ok(await pair.call('recording_stop', { device: ANDROID }));
  assert.is(stopped.validation.valid, true, JSON.stringify(stopped.validation.errors));
  const a = stopped.scenario.assertions.find((x: { id: string }) => x.id === kept.recorded.id);
  assert.is(a.timeout_ms, 2000);
  assert.equal(a.condition, { type: 'device_property', property: 'platform', value: 'android' });
});

args('assert refuses a timeout_ms out of 0–60000', async ({ pair }) => {
  const r = await pair.call('assert', { device: ANDROID, type: 'element_exists', element_description: 'x', timeout_ms: 60001 });
  assert.ok(r.isError);
  assert.match(textOf(r), /"timeout_ms" must be a whole number from 0 to 60000/);
});

args('wait_for refuses a target with until loading_complete, and an indicator with the other modes', async ({ pair }) => {
  ok(await pair.call('launch_app', { device: ANDROID, package: DEMO }));
  const aimed = await pair.call('wait_for', { device: ANDROID, until: 'loading_complete', target: 'Settings', timeout_ms: 1000 });
  assert.ok(aimed.isError, textOf(aimed));
  assert.match(textOf(aimed), /INVALID_PARAMETER: wait_for on virtual-android-1: "target" is not used with until: "loading_complete".*until: "visible"/);
  const pattern = await pair.call('wait_for', { device: ANDROID, until: 'loading_complete', target_pattern: '^Set' });
  assert.match(textOf(pattern), /"target_pattern" is not used with until: "loading_complete"/);
  for (const until of [undefined, 'visible', 'gone']) {
    const r = await pair.call('wait_for', { device: ANDROID, ...(until ? { until } : {}), target: 'the Email field', indicator: 'spinner', timeout_ms: 1000 });
    assert.ok(r.isError, textOf(r));
    assert.match(textOf(r), /"indicator" is for until: "loading_complete" only/);
  }
  ok(await pair.call('wait_for', { device: ANDROID, until: 'loading_complete', indicator: 'spinner', timeout_ms: 1000 }));
});

args('a text or target past its cap is refused before the device is touched, without echoing it', async ({ pair }) => {
  ok(await pair.call('launch_app', { device: ANDROID, package: DEMO }));
  const before = ok(await pair.call('read_text', { device: ANDROID, target: 'the Email field' })).value;
  const long = await pair.call('type_text', { device: ANDROID, target: 'the Email field', text: 'x'.repeat(200_000) });
  assert.ok(long.isError);
  assert.match(textOf(long), /^INVALID_PARAMETER: type_text on virtual-android-1: "text" must be at most 10000 characters \(got 200000\): The text to type, at most 10000 characters \(type a longer one in several calls/);
  assert.ok(textOf(long).length < 1000, 'the text is not echoed back');
  assert.is(ok(await pair.call('read_text', { device: ANDROID, target: 'the Email field' })).value, before, 'nothing was typed');
  const target = await pair.call('tap', { device: ANDROID, target: 'the ' + 'very '.repeat(500) + 'long button' });
  assert.match(textOf(target), /"target" must be at most 2000 characters \(got 2515\)/);
  const pattern = await pair.call('read_text', { device: ANDROID, target_pattern: 'a'.repeat(2001) });
  assert.match(textOf(pattern), /"target_pattern" must be at most 2000 characters \(got 2001\)/);
});

args.run();
