import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resultJsonSchema, scenarioJsonSchema, validateResultValue, validateScenarioText } from '../../src/validate/index.js';
import { expectationOf, fixtureNames, readFixture } from './helpers.js';

type Schema = Record<string, unknown>;

/**
 * A checker for the JSON Schema subset the generator emits ($ref, type, const, enum, properties,
 * required, additionalProperties, patternProperties, items, min/max Items/Length, pattern,
 * minimum/maximum, anyOf/oneOf). Enough to show that editors get a schema consistent with the validator.
 */
function check(schema: Schema, value: unknown, root: Schema, at = ''): string[] {
  if (typeof schema.$ref === 'string') return check((root.$defs as Record<string, Schema>)[schema.$ref.replace('#/$defs/', '')], value, root, at);
  const errs: string[] = [];
  const type = schema.type as string | undefined;
  const kind = Array.isArray(value) ? 'array' : value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value;
  if (type && !(type === kind || (type === 'number' && kind === 'integer') || (type === 'object' && kind === 'object'))) return [`${at}: expected ${type}, got ${kind}`];
  if ('const' in schema && schema.const !== value) errs.push(`${at}: expected const ${String(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) errs.push(`${at}: not in enum`);
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) errs.push(`${at}: too short`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) errs.push(`${at}: too long`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) errs.push(`${at}: pattern`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errs.push(`${at}: below minimum`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errs.push(`${at}: above maximum`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) errs.push(`${at}: minItems`);
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) errs.push(`${at}: maxItems`);
    if (schema.items) value.forEach((v, i) => errs.push(...check(schema.items as Schema, v, root, `${at}/${i}`)));
  }
  if (kind === 'object' && (schema.properties || schema.additionalProperties !== undefined)) {
    const obj = value as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    for (const r of (schema.required as string[] | undefined) ?? []) if (!(r in obj)) errs.push(`${at}: missing ${r}`);
    for (const [k, v] of Object.entries(obj)) {
      if (props[k]) errs.push(...check(props[k], v, root, `${at}/${k}`));
      else if (Object.keys((schema.patternProperties as Schema | undefined) ?? {}).some((p) => new RegExp(p).test(k))) continue;
      else if (schema.additionalProperties === false) errs.push(`${at}: unexpected ${k}`);
      else if (typeof schema.additionalProperties === 'object') errs.push(...check(schema.additionalProperties as Schema, v, root, `${at}/${k}`));
    }
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as Schema[] | undefined;
    if (!options) continue;
    const passing = options.filter((o) => check(o, value, root, at).length === 0).length;
    if (key === 'anyOf' ? passing === 0 : passing !== 1) errs.push(`${at}: ${key} matched ${passing}`);
  }
  return errs;
}

const scenarioSchema = scenarioJsonSchema();

test('scenario JSON Schema: draft 2020-12, recursive steps, extensions allowed', () => {
  assert.is(scenarioSchema.$schema, 'https://json-schema.org/draft/2020-12/schema');
  assert.ok((scenarioSchema.$defs as Record<string, unknown>).Step, 'Step definition for sub_steps');
  const props = scenarioSchema.properties as Record<string, Schema>;
  assert.equal((props.platform.enum as string[]).sort(), ['android', 'cross-platform', 'ios']);
  assert.equal(scenarioSchema.patternProperties, { '^x-': {} });
  assert.is(scenarioSchema.additionalProperties, false);
});

test('the JSON Schema accepts every valid fixture', () => {
  for (const name of fixtureNames('valid')) {
    assert.equal(check(scenarioSchema, JSON.parse(readFixture('valid', name)), scenarioSchema), [], name);
  }
});

test('the JSON Schema rejects what the schema layer rejects', () => {
  const structural = new Set(['unknown-property', 'unknown-action', 'unknown-assertion-type', 'platform-invalid', 'out-of-range', 'tags-too-many', 'id-format', 'required-field']);
  let checked = 0;
  for (const name of fixtureNames('invalid')) {
    const text = readFixture('invalid', name);
    const expected = expectationOf(name, text);
    if (!structural.has(expected.rule) || name.startsWith('required-field.assertion-type')) continue;
    assert.ok(check(scenarioSchema, JSON.parse(text), scenarioSchema).length > 0, `${name} should fail the JSON Schema`);
    assert.not.ok(validateScenarioText(text).valid);
    checked++;
  }
  assert.ok(checked >= 10, `${checked} fixtures checked`);
});

const RESULT = {
  run_id: 'run_20250101_120000',
  schema_version: '2.1',
  scenario_id: 'login_success',
  status: 'passed',
  metadata: { app_version: '1.0.0', environment: 'development', platform: 'android', device_id: 'virtual-1', device_model: 'Virtual', os_version: '14', api_level: 34, timestamp: '2025-01-01T12:00:00Z', tool_version: '0.1.0' },
  started_at: '2025-01-01T12:00:00Z',
  ended_at: '2025-01-01T12:00:09Z',
  duration_seconds: 9.2,
  total_assertions: 1,
  passed_assertions: 1,
  failed_assertions: 0,
  captured_variables: { order_number: 'ORD-123456' },
  steps_executed: [
    { step_id: 'launch', action: 'launch_app', status: 'passed', step_duration_ms: 800, sub_steps_executed: [{ step_id: 'inner', action: 'tap', status: 'skipped', condition_evaluated: false }] },
    { step_id: 'tap_sign_in', action: 'tap', status: 'passed', resolved_target: { id: 'el_3', text: 'Sign in', center: { x: 540, y: 1200 } }, retried: true, retry_count: 1, screenshot: 'screenshots/login_success/run_20250101_120000/tap_sign_in.png' },
  ],
  assertion_results: [{ assertion_id: 'home_shown', type: 'text_contains', status: 'passed', expected: 'Home', actual: 'Home', message: 'found "Home"' }],
  observations: [{ type: 'flakiness', step_id: 'tap_sign_in', message: 'passed on attempt 2' }],
  summary: 'passed: 2 steps, 1/1 assertions',
};

test('result schema: a well-formed result validates, a broken one reports pointers', () => {
  assert.equal(validateResultValue(RESULT), []);
  const broken = { ...RESULT, status: 'done', steps_executed: [{ step_id: 'x', action: 'tap', status: 'ok' }] };
  const paths = validateResultValue(broken).map((e) => e.path);
  assert.ok(paths.includes('/status') && paths.includes('/steps_executed/0/status'), JSON.stringify(paths));
  const schema = resultJsonSchema();
  assert.equal(check(schema, RESULT, schema), []);
  assert.ok(check(schema, broken, schema).length > 0);
});

test.run();
