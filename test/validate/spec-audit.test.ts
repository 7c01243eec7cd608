import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createEngine } from '../../src/engine/create.js';
import { DeterministicResolver } from '../../src/engine/resolve/index.js';
import { interpolate, interpolateFields } from '../../src/engine/runner/variables.js';
import { realClock, runVerb, type VerbContext } from '../../src/engine/verbs/index.js';
import { validateScenarioText, type ValidationIssue } from '../../src/validate/index.js';

/** Where the validator and SPEC §3/§4/§8 (and the runner) disagreed: each case is a verdict a user would act on. */
const test = suite('validator against the SPEC and the runner');

/** A valid 2.2 android scenario with `over` merged in (steps and assertions replace the defaults). */
function doc(over: Record<string, unknown> = {}): string {
  return JSON.stringify({
    $schema_version: '2.2',
    scenario_id: 'audit',
    name: 'Audit',
    description: 'Cases from the audit.',
    platform: 'android',
    app_package: 'com.example.shop',
    metadata: { app_version: '1.0.0', environment: 'staging' },
    steps: [{ id: 'open', action: 'launch_app', description: 'Open the app' }],
    assertions: [{ id: 'home', after_step: 'open', type: 'element_visible', description: 'Home shows', element_description: 'the Home tab' }],
    ...over,
  });
}
const issues = (text: string): ValidationIssue[] => {
  const r = validateScenarioText(text);
  return [...r.errors, ...r.warnings];
};
const rules = (text: string) => issues(text).map((i) => `${i.rule} ${i.path}`);

test('an undeclared ${name} is an error in every text the runner fills in, not only value/target/expected_*; a description is prose', () => {
  const text = doc({
    steps: [
      { id: 'open', action: 'launch_app', description: 'Open for ${shopper}' },
      { id: 'pay', action: 'tap', target_pattern: '^Pay ${amount}$', description: 'Pay', condition: { type: 'device_property', property: 'model', value: '${phone_model}' } },
    ],
    assertions: [{ id: 'row', after_step: 'pay', type: 'content_description', description: 'Row of ${item}', element_description: 'the ${item} row', label_value: '${label}' }],
  });
  // Descriptions are not where SPEC §3 places references: the runner fills in what it knows there and
  // leaves any other ${…} as written, so "Open for ${shopper}" is text, not an error.
  assert.equal(rules(text).filter((r) => r.startsWith('variable-undeclared')).sort(), [
    'variable-undeclared /assertions/0/element_description',
    'variable-undeclared /assertions/0/label_value',
    'variable-undeclared /steps/1/condition/value',
    'variable-undeclared /steps/1/target_pattern',
  ]);
  // Declared once, used only in a description: used, so no variable-unused warning; x- keys are never filled in.
  const used = doc({
    variables: { shopper: { type: 'string', description: 'Who shops' } },
    steps: [{ id: 'open', action: 'launch_app', description: 'Open for ${shopper}', 'x-note': 'left as ${written}' }],
  });
  assert.equal(rules(used), []);
  // Outside value/target/expected_* a malformed ${…} is left as written by the runner: not an error there.
  assert.equal(rules(doc({ steps: [{ id: 'open', action: 'launch_app', description: 'Costs ${price-tag}' }] })), []);
  assert.equal(rules(doc({ steps: [{ id: 'open', action: 'launch_app', description: 'Open', value: 'com.example.${bad-name}' }] })).filter((r) => r.startsWith('variable-syntax')), ['variable-syntax /steps/0/value']);
});

test('the runner fills in what the validator checks: x- keys are left as written, and only declared names count', () => {
  const filled = interpolateFields({ id: 'a', action: 'tap', description: 'for ${who}', 'x-note': '${not_a_variable}' }, { who: 'Ann' });
  assert.equal(filled, { id: 'a', action: 'tap', description: 'for Ann', 'x-note': '${not_a_variable}' });
  // "toString" is on every object, but it is no declared variable.
  assert.throws(() => interpolate('${toString}', {}), /toString\} is not a declared variable/);
});

test('type with an empty value types nothing: an error, unless clear_first makes it empty the field', () => {
  const typeStep = (extra: Record<string, unknown>) => doc({ steps: [{ id: 'open', action: 'launch_app', description: 'Open' }, { id: 'blank', action: 'type', description: 'Type', value: '', ...extra }], assertions: [] });
  const [blank] = issues(typeStep({})).filter((i) => i.rule === 'value-required');
  assert.ok(blank, JSON.stringify(issues(typeStep({}))));
  assert.is(blank.path, '/steps/1/value');
  assert.match(blank.message, /empty "value", so there is nothing to type.*"clear_first": true/);
  assert.equal(rules(typeStep({ clear_first: true })).filter((r) => !r.startsWith('no-assertions')), []);
});

test('a type step with "" and clear_first empties the field on the device and says so', async () => {
  const engine = createEngine({ android: false, ios: false });
  try {
    const device = (await engine.listDevices()).find((d) => d.os === 'Android')!.id;
    const ctx: VerbContext = { engine, device, os: 'Android', origin: 'test', resolver: new DeterministicResolver(), clock: realClock, targetWaitMs: 2000, pollMs: 50 };
    await runVerb(ctx, { action: 'launch_app', value: 'com.mobilebridge.demo' });
    assert.is((await runVerb(ctx, { action: 'type', target: 'Email', value: 'junk@example.com' })).status, 'passed');
    const emptied = await runVerb(ctx, { action: 'type', target: 'Email', value: '', clear_first: true });
    assert.is(emptied.status, 'passed', JSON.stringify(emptied));
    assert.match(emptied.message ?? '', /^emptied the field/);
    const field = ((await engine.call('mobile_list_elements_on_screen', { device })) as { elements: { id: string; text: string }[] }).elements.find((e) => e.id === 'email');
    assert.is(field?.text ?? '', '');
    const refused = await runVerb(ctx, { action: 'type', target: 'Email', value: '' });
    assert.is(refused.status, 'failed');
    assert.match(refused.message ?? '', /type needs "value"/);
  } finally {
    await engine.close();
  }
});

test('variable and parameter names that are built-in object properties, and lists instead of objects, are errors', () => {
  const ctor = doc({ variables: { constructor: { type: 'bogus', nope: 1 } } });
  assert.ok(rules(ctor).includes('variable-name-format /variables/constructor'), rules(ctor).join('\n'));
  assert.is(validateScenarioText(ctor).valid, false);
  assert.ok(rules(doc({ variables: { prototype: 42 } })).includes('variable-name-format /variables/prototype'));
  assert.ok(rules(doc({ parameters: { constructor: 5 } })).includes('parameter-name-format /parameters/constructor'));
  assert.ok(rules(doc({ variables: [] })).includes('type-mismatch /variables'));
  assert.ok(rules(doc({ parameters: [] })).includes('type-mismatch /parameters'));
});

test('clear_app_data uses value as the package to clear: never "unused", and checked as a package name', () => {
  const step = (value: string) => doc({ steps: [{ id: 'open', action: 'launch_app', description: 'Open' }, { id: 'wipe', action: 'clear_app_data', description: 'Wipe', value }] });
  assert.equal(rules(step('com.example.other')), []);
  assert.equal(rules(step('not a package')), ['app-package-invalid /steps/1/value']);
});

test('without its folder a flow step says it was not checked, instead of passing silently', () => {
  const text = doc({ steps: [{ id: 'open', action: 'launch_app', description: 'Open' }, { id: 'login', flow: 'flows/login.json', description: 'Sign in', parameters: { EXTRA: 'x' } }] });
  const r = validateScenarioText(text);
  assert.is(r.valid, true);
  assert.equal(r.warnings.map((w) => `${w.rule} ${w.path}`), ['flow-not-checked /steps/1/flow']);
  assert.match(r.warnings[0].message, /validated without its folder.*validate the file with mobilebridge validate/);
});

test('an empty target_pattern is an empty string, not a target; suggestions keep the meaning; too deep is not called invalid JSON', () => {
  assert.ok(rules(doc({ steps: [{ id: 'tap_any', action: 'tap', description: 'Tap', target_pattern: '' }] })).includes('empty-string /steps/0/target_pattern'));
  const op = issues(doc({ steps: [{ id: 'open', action: 'launch_app', description: 'Open', condition: { type: 'device_property', property: 'api_level', operator: '=>', value: 30 } }] }));
  assert.is(op.find((i) => i.rule === 'enum-value')?.suggestion, 'did you mean ">="?');
  const version = issues(doc({ $schema_version: '2.3' })).find((i) => i.rule === 'schema-version');
  assert.is(version?.suggestion, 'use "2.2"');
  assert.is(issues(doc({ $schema_version: '2.O' })).find((i) => i.rule === 'schema-version')?.suggestion, 'did you mean "2.0"?', 'a typo is still a typo');
  let steps: unknown = [{ id: 'leaf', action: 'launch_app', description: 'Leaf' }];
  for (let i = 0; i < 300; i++) steps = [{ id: `s${i}`, action: 'launch_app', description: 'Nest', sub_steps: steps }];
  const deep = issues(doc({ steps })).find((i) => i.rule === 'json-too-deep')!;
  assert.match(deep.message, /^the document nests deeper than 512 levels from here; a scenario needs only a few: flatten nested sub_steps/);
  assert.not.match(deep.message, /not valid JSON|close the brackets/);
});

test.run();
