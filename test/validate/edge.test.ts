import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { envelope, loadScenario, validateScenarioText, validateScenarioValue, type Step } from '../../src/validate/index.js';
import { parseJson } from '../../src/validate/json.js';
import { editDistance, didYouMean } from '../../src/validate/suggest.js';
import { readFixture } from './helpers.js';

const login = (): Record<string, unknown> => JSON.parse(readFixture('valid', 'login.json')) as Record<string, unknown>;

test('empty file: clean envelope with the empty-file rule', () => {
  const env = envelope(validateScenarioText('', 'empty.json'));
  assert.is(env.ok, false);
  if (env.ok) return;
  assert.is(env.error.kind, 'invalid_input');
  const data = env.data as { errors: { rule: string; line: number; column: number }[] };
  assert.equal(data.errors.map((e) => [e.rule, e.line, e.column]), [['empty-file', 1, 1]]);
});

test('a JSON array is root-not-object', () => {
  const r = validateScenarioText('[1, 2]');
  assert.equal(r.errors.map((e) => e.rule), ['root-not-object']);
});

test('a BOM is accepted and columns ignore it', () => {
  const text = '\uFEFF' + JSON.stringify(login(), null, 2);
  assert.ok(validateScenarioText(text).valid);
  const bad = validateScenarioText('\uFEFF{"$schema_version": 7}');
  const e = bad.errors.find((x) => x.path === '/$schema_version');
  assert.equal([e?.line, e?.column], [1, 21]);
});

test('syntax error position: line and column of the offending character', () => {
  const r = validateScenarioText('{\n  "a": 1,\n  "b": tru\n}');
  assert.equal(r.errors.map((e) => [e.rule, e.line, e.column]), [['json-syntax', 3, 8]]);
  assert.match(r.errors[0].message, /expected a value/);
  const unterminated = validateScenarioText('{"a": "abc');
  assert.equal([unterminated.errors[0].line, unterminated.errors[0].column], [1, 7]);
});

test('duplicate keys are reported at the second key, at every level', () => {
  const r = validateScenarioText('{"a": 1, "b": {"c": 1, "c": 2}, "a": 3}');
  const dups = r.errors.filter((e) => e.rule === 'duplicate-key');
  assert.equal(dups.map((e) => [e.path, e.column]), [['/b/c', 24], ['/a', 33]]);
});

test('10 MB scenario validates without trouble', () => {
  const doc = login();
  const steps = doc.steps as Record<string, unknown>[];
  const many: Record<string, unknown>[] = [];
  for (let i = 0; many.length * 170 < 10_000_000; i++) {
    many.push({ id: `tap_${i}`, action: 'tap', description: `Tap item ${i} in the long list of the catalog screen`, target: `the catalog item number ${i}` });
  }
  doc.steps = [...steps, ...many];
  const text = JSON.stringify(doc, null, 2);
  assert.ok(text.length >= 10_000_000, `${text.length} chars`);
  const started = performance.now();
  const r = validateScenarioText(text);
  assert.ok(r.valid, JSON.stringify(r.errors.slice(0, 3)));
  assert.ok(performance.now() - started < 10_000, 'under 10 s');
});

test('sub_steps nested 50 deep: valid, and a deep error keeps its pointer', () => {
  const doc = login();
  let parent: Record<string, unknown> = { id: 'level_0', action: 'tap', description: 'level 0', target: 'the menu' };
  const top = parent;
  let pointer = `/steps/${(doc.steps as unknown[]).length}`;
  for (let depth = 1; depth <= 50; depth++) {
    const child = { id: `level_${depth}`, action: 'tap', description: `level ${depth}`, target: 'the submenu' };
    parent.sub_steps = [child];
    parent = child;
    pointer += '/sub_steps/0';
  }
  (doc.steps as unknown[]).push(top);
  assert.ok(validateScenarioText(JSON.stringify(doc)).valid);
  parent.action = 'tpa';
  const r = validateScenarioText(JSON.stringify(doc, null, 1));
  assert.equal(r.errors.map((e) => [e.rule, e.path]), [['unknown-action', `${pointer}/action`]]);
  assert.equal(r.errors[0].suggestion, 'did you mean "tap"?');
});

test('hostile nesting never overflows the stack', () => {
  const r = validateScenarioText('['.repeat(100_000));
  assert.equal(r.errors.map((e) => e.rule), ['json-too-deep']);
});

test('__proto__ keys are data, not prototypes', () => {
  const parsed = parseJson('{"__proto__": {"polluted": true}}');
  assert.ok(parsed.ok);
  assert.is(({} as Record<string, unknown>).polluted, undefined);
  const r = validateScenarioText('{"__proto__": 1}');
  assert.ok(r.errors.some((e) => e.rule === 'unknown-property' && e.path === '/__proto__'));
});

test('all problems are reported together, sorted by position', () => {
  const doc = login();
  doc.scenario_id = 'Login';
  (doc.steps as Record<string, unknown>[])[2].action = 'tpa';
  (doc.assertions as Record<string, unknown>[])[0].after_step = 'nowhere';
  const r = validateScenarioText(JSON.stringify(doc, null, 2));
  assert.equal(r.errors.map((e) => e.rule), ['id-format', 'unknown-action', 'after-step-unknown']);
  const lines = r.errors.map((e) => e.line);
  assert.equal(lines, [...lines].sort((a, b) => a - b));
});

test('validateScenarioValue: positions refer to the pretty-printed value', () => {
  const doc = login();
  doc.platform = 'windows';
  const r = validateScenarioValue(doc, 'body');
  assert.equal(r.errors.map((e) => [e.rule, e.line]), [['platform-invalid', 6]]);
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  assert.not.ok(validateScenarioValue(cyclic).valid);
});

test('validateScenarioValue: a value too deep to write back as text is json-too-deep, not a stack overflow message', () => {
  // A WebSocket message parses at any depth; writing it back for positions is what overflows.
  const deep = JSON.parse('['.repeat(20000) + ']'.repeat(20000)) as unknown;
  const r = validateScenarioValue({ ...login(), steps: deep });
  assert.equal(r.errors.map((e) => e.rule), ['json-too-deep']);
  assert.match(r.errors[0].message, /deeper than 512 levels/);
  assert.not.match(r.errors[0].message, /call stack/);
});

test('loadScenario gives the scenario with defaults applied', () => {
  const { report, scenario } = loadScenario(readFixture('valid', 'login.json'), 'login.json');
  assert.ok(report.valid);
  const steps = scenario?.steps as Step[] | undefined;
  assert.is(steps?.[0].on_failure, 'fail');
  assert.is(steps?.[0].optional, false);
  assert.is(steps?.[1].wait_config?.timeout_ms, 10000);
  assert.equal(steps?.[6].retry_policy, { max_attempts: 3, backoff_ms: 1000 });
  assert.is(loadScenario('{}').scenario, undefined);
});

test('envelope: SPEC §4 shapes for one and several files', () => {
  const good = validateScenarioText(readFixture('valid', 'login.json'), 'a.json');
  const bad = validateScenarioText('[]', 'b.json');
  assert.equal(envelope(good), { ok: true, data: good, schema_version: '2.1' });
  const one = envelope(bad);
  assert.equal(one.ok ? undefined : [one.error.message, one.hint], ['scenario failed validation (1 error)', 'see data.errors']);
  const many = envelope([good, bad]);
  assert.is(many.ok, false);
  assert.equal(many.data, { valid: false, results: [good, bad] });
  assert.equal(many.ok ? '' : many.error.message, '1 scenario of 2 failed validation (1 error)');
  assert.is(many.schema_version, '2.2', 'files of different versions (or none): the newest schema');
  const internal = envelope([bad], 'cannot read b.json');
  assert.equal(internal.ok ? '' : internal.error.kind, 'internal');
});

test('envelope: the outer schema_version is the version of the scenarios it reports on (SPEC §4)', () => {
  const of = (version: string) => validateScenarioText(readFixture('valid', 'login.json').replace('"$schema_version": "2.1"', `"$schema_version": "${version}"`), 'v.json');
  assert.is(envelope(of('2.0')).schema_version, '2.0');
  assert.is(envelope([of('2.2'), of('2.2')]).schema_version, '2.2');
  const broken = envelope(validateScenarioText(readFixture('valid', 'login.json').replace('"$schema_version": "2.1"', '"$schema_version": "9"'), 'v.json'));
  assert.equal([broken.ok, broken.data.valid, broken.schema_version], [false, false, '2.2']);
});

test('an array item is named after its list in messages, not by its bare index', () => {
  const doc = { ...login(), tags: ['smoke', 'Smoke'], preconditions: { notes: ['fine', 7] } };
  const messages = validateScenarioValue(doc).errors.map((e) => [e.path, e.message.split(' ').slice(0, 2).join(' ')]);
  assert.equal(messages, [['/tags/1', 'tags[1] "Smoke"'], ['/preconditions/notes/1', 'notes[1] must']]);
});

test('typo suggestions', () => {
  assert.is(editDistance('tpa', 'tap'), 1);
  assert.is(didYouMean('tpa', ['tap', 'type', 'swipe']), 'did you mean "tap"?');
  assert.is(didYouMean('element_txt', ['element_text', 'element_exists']), 'did you mean "element_text"?');
  assert.is(didYouMean('Swipe', ['swipe']), 'did you mean "swipe"?');
  assert.is(didYouMean('zzzzzz', ['tap', 'swipe']), undefined);
});

test.run();
