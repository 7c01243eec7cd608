/**
 * The fast path (native parse, compiled acceptor, only the rejected subtrees re-checked, positions
 * found along the reported pointers) against the full path (`loadScenario`, which always runs
 * valibot over the whole document): identical envelopes for every fixture broken in each way the
 * shape rules describe, and the too-deep shortcut against the position parser.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { envelope, loadScenario, ScenarioSchema, validateScenarioText } from '../../src/validate/index.js';
import { fastParse } from '../../src/validate/fast-parse.js';
import { MAX_DEPTH, parseJson } from '../../src/validate/json.js';
import type { SchemaNode } from '../../src/validate/schema-node.js';
import { suspects } from '../../src/validate/shape-localize.js';
import { fixtureNames, readFixture } from './helpers.js';

type Doc = Record<string, any>;

const steps = (d: Doc): Doc[] => (Array.isArray(d.steps) ? d.steps.filter((s: Doc) => typeof s === 'object' && s !== null && 'action' in s) : []);
const lastStep = (d: Doc): Doc | undefined => steps(d).at(-1);
const firstAssertion = (d: Doc): Doc | undefined => (Array.isArray(d.assertions) ? d.assertions[0] : undefined);

/** Each edit breaks one shape rule (some several at once); undefined when the document has no place for it. */
const BREAKS: Record<string, (d: Doc) => unknown> = {
  'misspelt action': (d) => lastStep(d) && (lastStep(d)!.action = 'tpa'),
  'unknown step key': (d) => lastStep(d) && (lastStep(d)!.tagret = 'the Sign in button'),
  'unknown root key, x- keys kept': (d) => Object.assign(d, { nmae: 'x', 'x-note': { anything: [1] } }),
  'missing root field': (d) => delete d.name,
  'missing step field': (d) => lastStep(d) && delete lastStep(d)!.description,
  'missing schema version': (d) => delete d.$schema_version,
  'wrong schema version': (d) => (d.$schema_version = 2.1),
  'type mismatch': (d) => lastStep(d) && (lastStep(d)!.optional = 'yes'),
  'empty text': (d) => (d.description = ''),
  'bad id': (d) => lastStep(d) && (lastStep(d)!.id = 'Bad-Id'),
  'bad platform': (d) => (d.platform = 'windows'),
  'bad enum': (d) => lastStep(d) && (lastStep(d)!.on_failure = 'explode'),
  'not an integer': (d) => lastStep(d) && (lastStep(d)!.retry_policy = { max_attempts: 2.5 }),
  'out of range': (d) => lastStep(d) && Object.assign(lastStep(d)!, { on_failure: 'retry', retry_policy: { max_attempts: 9, backoff_ms: -1 } }),
  'bad wait config': (d) => lastStep(d) && (lastStep(d)!.wait_config = { type: 'element_gone', timeout_ms: 10, indicator: 'wheel', extra: 1 }),
  'empty steps': (d) => (d.steps = []),
  'empty sub_steps': (d) => lastStep(d) && (lastStep(d)!.sub_steps = []),
  'nested error': (d) => lastStep(d) && (lastStep(d)!.sub_steps = [{ id: 'deep_one', action: 'tpa', description: 'deep', bogus: true }]),
  'bad tag': (d) => (d.tags = ['Bad Tag', 'x'.repeat(21)]),
  'too many tags': (d) => (d.tags = Array.from({ length: 11 }, (_, i) => `t${i}`)),
  'too many tags, one bad': (d) => (d.tags = [...Array.from({ length: 11 }, (_, i) => `t${i}`), 'Bad']),
  'bad variable name': (d) => (d.variables = { ...d.variables, '1bad': { type: 'string', description: 'x' }, ok_name: { type: 'text' } }),
  'bad parameter name': (d) => Object.assign(d, { $schema_version: '2.2', parameters: { lower: { secret: 'yes' } } }),
  'unknown assertion type': (d) => firstAssertion(d) && (firstAssertion(d)!.type = 'element_exist'),
  'assertion misses its field': (d) => firstAssertion(d) && Object.assign(firstAssertion(d)!, { type: 'element_text', expected_value: undefined }),
  'field not for the assertion type': (d) => firstAssertion(d) && Object.assign(firstAssertion(d)!, { type: 'alert_present', expected_count: 1, element_description: 'x' }),
  'unknown condition type': (d) => lastStep(d) && (lastStep(d)!.condition = { type: 'nope' }),
  'field not for the condition type': (d) => lastStep(d) && (lastStep(d)!.condition = { type: 'element_visible', element_description: 'the OK button', property: 'platform' }),
  'array for an object': (d) => Object.assign(d, { metadata: [], preconditions: ['x'] }),
  'object for an array': (d) => Object.assign(d, { steps: {}, assertions: { a: 1 } }),
  'null values': (d) => Object.assign(d, { metadata: null, variables: null }),
  'flow step with an action': (d) => Array.isArray(d.steps) && d.steps.push({ id: 'flow_x', flow: 'f.json', action: 'tap', parameters: { lower: 1 } }),
  'not an object step': (d) => Array.isArray(d.steps) && d.steps.push('tap the button', null, []),
  'bad device properties': (d) => (d.preconditions = { device_properties: { network: 'wifi' }, device_actions: [{ action: 'reboot' }] }),
  'missing fields next to broken ones': (d) => {
    delete d.name;
    d.platform = 'windows';
    d.metadata = { environment: '' };
    const step = lastStep(d);
    if (step) Object.assign(step, { description: undefined, action: 'tpa', bogus: 1, wait_config: { timeout_ms: 5 } });
    return true;
  },
  'several at once': (d) => {
    BREAKS['misspelt action'](d);
    BREAKS['bad tag'](d);
    BREAKS['unknown assertion type'](d);
    BREAKS['unknown root key, x- keys kept'](d);
  },
};

/** Rules of the shape pass that the edits above must all produce, so that none goes unchecked. */
const SHAPE_RULES = [
  'unknown-action', 'unknown-property', 'required-field', 'schema-version', 'type-mismatch', 'empty-string', 'id-format',
  'platform-invalid', 'enum-value', 'not-integer', 'out-of-range', 'steps-empty', 'tag-format', 'tags-too-many',
  'variable-name-format', 'parameter-name-format', 'unknown-assertion-type', 'assertion-field-required', 'field-not-for-type',
  'unknown-condition-type',
];

function broken(): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  for (const fixture of fixtureNames('valid')) {
    Object.entries(BREAKS).forEach(([edit, apply], n) => {
      const doc = JSON.parse(readFixture('valid', fixture)) as Doc;
      if (apply(doc) === undefined && edit !== 'several at once') return;
      out.push({ name: `${fixture} / ${edit}`, text: JSON.stringify(doc, null, n % 2 ? 2 : undefined) });
    });
  }
  return out;
}

test('fast and full path give the same envelope for every fixture broken every way', () => {
  const seen = new Set<string>();
  const cases = broken();
  assert.ok(cases.length > 500, `${cases.length} broken documents`);
  for (const { name, text } of cases) {
    const fast = validateScenarioText(text, name);
    const full = loadScenario(text, name).report;
    assert.equal(envelope(fast), envelope(full), name);
    for (const issue of full.errors) seen.add(issue.rule);
  }
  assert.equal(SHAPE_RULES.filter((rule) => !seen.has(rule)), [], 'shape rules no edit produced');
});

test('invalid fixtures: same envelope on both paths', () => {
  for (const name of fixtureNames('invalid')) {
    const text = readFixture('invalid', name);
    assert.equal(envelope(validateScenarioText(text, name)), envelope(loadScenario(text, name).report), name);
  }
});

test('one bad step among many: only that step is re-checked, not the document', () => {
  const doc = JSON.parse(readFixture('valid', 'login.json')) as Doc;
  const many = Array.from({ length: 40 }, (_, i) => ({ id: `s_${i}`, action: 'tap', description: 'Tap', target: 'the OK button' }));
  doc.steps = [...doc.steps, ...many];
  doc.steps[20].action = 'tpa';
  doc.steps[30].tagret = 'x';
  const parts = suspects(ScenarioSchema as unknown as SchemaNode, doc)!;
  assert.equal(
    parts.map((p) => [p.path.map((s) => s.key).join('/'), p.shallow ?? false]),
    [['steps/20/action', false], ['steps/30', true]],
  );
});

test('too deep: the shortcut stops where the position parser stops', () => {
  const deep = (open: string, close: string, n: number, filler = ''): string => `${open.repeat(n)}${filler}${close.repeat(n)}`;
  const texts = [
    deep('[', ']', MAX_DEPTH + 1),
    deep('[', ']', MAX_DEPTH + 40, '1'),
    `{"a": "[[[{{\\"", "b": ${deep('[', ']', MAX_DEPTH)}, "c": ${deep('[', ']', MAX_DEPTH + 3)}}`,
    `\ufeff${deep('{"k":', '}', MAX_DEPTH + 2, '{}')}`,
    `[${deep('{"x\\\\":', '}', MAX_DEPTH, '[]')}]`,
  ];
  for (const text of texts) {
    const fast = fastParse(text);
    const full = parseJson(text);
    assert.ok(fast && !fast.ok && !full.ok, text.slice(0, 40));
    assert.equal(fast, full, text.slice(0, 40));
  }
  // Exactly MAX_DEPTH levels is allowed.
  assert.ok(fastParse(deep('[', ']', MAX_DEPTH))?.ok);
  assert.ok(parseJson(deep('[', ']', MAX_DEPTH)).ok);
});

test.run();
