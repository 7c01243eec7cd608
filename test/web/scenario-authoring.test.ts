import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { envelope, validateScenarioText } from '../../src/validate/index.js';
import { quickFixes } from '../../web/src/quick-fix.js';
import { newScenarioTemplate } from '../../web/src/scenario-template.js';
import { summarizeEnvelope, type Issue } from '../../web/src/validation-summary.js';

function issuesOf(text: string): Issue[] {
  return summarizeEnvelope(envelope(validateScenarioText(text, 'typed.json'))).issues;
}

const errorsOf = (text: string) => issuesOf(text).filter((i) => i.severity === 'error');

test('the New scenario template validates with no errors and no warnings, for both platforms', () => {
  for (const platform of ['android', 'ios'] as const) {
    const report = validateScenarioText(newScenarioTemplate(platform), 'new.json');
    assert.equal(report.errors, [], platform);
    assert.equal(report.warnings, [], platform);
    assert.is(report.schema_version, '2.2');
  }
});

// What people type from memory: the old placeholder's key, a misspelt action and key, no descriptions.
const TYPED = `{
  "schema_version": "2.2",
  "scenario_id": "Login Flow",
  "name": "Login",
  "platform": "andriod",
  "app_package": "com.example.app",
  "steps": [
    {"id": "s1", "action": "launch_app"},
    {"id": "s2", "action": "tapp", "target": "the Sign in button", "descripton": "tap it"},
    {"id": "s3", "action": "wait_for_element", "description": "wait", "target": "the Home tab"}
  ],
  "assertions": [{"id": "a1", "after_step": "s2", "type": "element_visble", "description": "home"}]
}
`;

test('each quick fix removes its error; applied one at a time they leave a valid scenario', () => {
  let text = TYPED;
  const first = errorsOf(text);
  assert.ok(first.length >= 10, `${first.length} errors to start with`);
  const fixes = quickFixes(first, text);
  const byRule = (rule: string) => [...fixes].find(([i]) => i.rule === rule)?.[1];
  assert.is(byRule('unknown-property')?.label, 'Rename "schema_version" to "$schema_version"');
  assert.is(byRule('unknown-action')?.label, 'Replace with "tap"');
  assert.is(byRule('schema-version'), byRule('unknown-property'), 'the missing $schema_version is fixed by the rename, not by adding a second one');
  const description = [...fixes].find(([i]) => i.path === '/steps/1/description')?.[1];
  assert.is(description?.label, 'Rename "descripton" to "description"');

  for (let round = 0; round < 30; round++) {
    const errors = errorsOf(text);
    if (!errors.length) break;
    const [issue, fix] = [...quickFixes(errors, text)][0] ?? [];
    assert.ok(fix, `a fix for every remaining error: ${JSON.stringify(errors)}`);
    const next = fix!.apply(text);
    assert.ok(next, `${fix!.label} applies`);
    const after = errorsOf(next!);
    assert.ok(!after.some((e) => e.rule === issue!.rule && e.path === issue!.path), `${fix!.label} fixed ${issue!.rule} at ${issue!.path}`);
    // A fixed assertion type may reveal the fields that type needs: never more errors than before.
    assert.ok(after.length <= errors.length, `${fix!.label}: ${errors.length} → ${after.length} errors`);
    text = next!;
  }
  assert.equal(errorsOf(text), [], text);
  // The author's layout is kept: the steps are still one per line.
  assert.match(text, /\n {4}\{"description": "What this step does", "id": "s1", "action": "launch_app"\},\n/);
  const doc = JSON.parse(text) as { $schema_version: string; steps: { action: string; wait_config?: { type: string } }[] };
  assert.is(doc.$schema_version, '2.2');
  assert.is(doc.steps[1].action, 'tap');
});

test('a fix refuses when the text changed under it, instead of editing the wrong place', () => {
  const errors = errorsOf(TYPED);
  const [, rename] = [...quickFixes(errors, TYPED)].find(([i]) => i.rule === 'unknown-property' && i.path === '/schema_version')!;
  assert.is(rename.apply(`\n${TYPED}`), undefined);
});

test('missing fields are inserted with placeholders that fit: wait_config of the wait action, target, value', () => {
  const text = `{"$schema_version": "2.2", "scenario_id": "x", "name": "n", "description": "d", "platform": "android", "app_package": "com.example.app",
  "metadata": {"app_version": "1.0", "environment": "development"},
  "steps": [{"id": "s1", "action": "wait_for_element_gone", "description": "d", "target": "the spinner"}, {"id": "s2", "action": "type", "description": "d"}, {"id": "s3", "action": "tap", "description": "d"}],
  "assertions": [{"id": "a1", "after_step": "s1", "type": "element_exists", "description": "d", "element_description": "the Home tab"}]}`;
  let fixed = text;
  for (const rule of ['wait-config-required', 'value-required', 'target-required']) {
    const errors = errorsOf(fixed);
    const entry = [...quickFixes(errors, fixed)].find(([i]) => i.rule === rule);
    assert.ok(entry, `a fix for ${rule}`);
    fixed = entry![1].apply(fixed)!;
  }
  assert.equal(errorsOf(fixed), []);
  const doc = JSON.parse(fixed) as { steps: { wait_config?: { type: string } }[] };
  assert.is(doc.steps[0].wait_config!.type, 'element_gone');
});

test('JSON slips: a trailing comma is removed, a missing comma between members inserted', () => {
  const template = newScenarioTemplate();
  const trailing = template.replace(/\}\n {2}\]\n\}\n$/, '},\n  ]\n}\n');
  assert.is.not(trailing, template, 'the fixture has a trailing comma');
  const missing = template.replace('"name": "Sign in",', '"name": "Sign in"');
  for (const [text, label] of [[trailing, 'Remove the trailing comma'], [missing, 'Insert the missing comma']] as const) {
    const errors = errorsOf(text);
    assert.is(errors[0].rule, 'json-syntax');
    const fix = quickFixes(errors, text).get(errors[0]);
    assert.is(fix?.label, label);
    assert.is(fix!.apply(text), template);
  }
});

test.run();
