import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ACTIONS, ASSERTION_TYPES, CONDITION_TYPES, RULES, validateScenarioText, type RuleId } from '../../src/validate/index.js';
import { FIXTURES, expectationOf, fixtureNames, readFixture } from './helpers.js';

interface WarningExpectation {
  warnings?: { rule: string; path: string }[];
}

const validNames = fixtureNames('valid');
const invalidNames = fixtureNames('invalid');

test('corpus size', () => {
  assert.ok(validNames.length >= 25, `${validNames.length} valid fixtures`);
  assert.ok(invalidNames.length >= 60, `${invalidNames.length} invalid fixtures`);
});

test('every valid fixture is valid, with exactly the warnings it declares', () => {
  for (const name of validNames) {
    const text = readFixture('valid', name);
    const report = validateScenarioText(text, `${FIXTURES}/valid/${name}`, { baseDir: `${FIXTURES}/valid` });
    assert.equal(report.errors, [], `${name} has errors`);
    assert.ok(report.valid, name);
    const declared = ((JSON.parse(text) as { 'x-expect'?: WarningExpectation })['x-expect']?.warnings ?? []).map((w) => `${w.rule} ${w.path}`).sort();
    assert.equal(report.warnings.map((w) => `${w.rule} ${w.path}`).sort(), declared, `${name} warnings`);
  }
});

test('every invalid fixture reports its rule at its pointer, and nothing else', () => {
  for (const name of invalidNames) {
    const text = readFixture('invalid', name);
    const expected = expectationOf(name, text);
    const report = validateScenarioText(text, `${FIXTURES}/invalid/${name}`, { baseDir: `${FIXTURES}/invalid` });
    assert.not.ok(report.valid, `${name} should be invalid`);
    const hit = report.errors.find((e) => e.rule === expected.rule && e.path === expected.path);
    assert.ok(hit, `${name}: expected ${expected.rule} at "${expected.path}", got ${JSON.stringify(report.errors.map((e) => [e.rule, e.path]))}`);
    assert.ok(hit!.line >= 1 && hit!.column >= 1, `${name}: position`);
    const allowed = new Set([expected.rule, ...(expected.also ?? [])]);
    const extra = report.errors.filter((e) => !allowed.has(e.rule));
    assert.equal(extra, [], `${name}: unexpected errors`);
  }
});

test('every issue carries a known rule, a message, a suggestion and a position', () => {
  const reports = [
    ...invalidNames.map((name) => ({ name, report: validateScenarioText(readFixture('invalid', name), name, { baseDir: `${FIXTURES}/invalid` }) })),
    ...validNames.map((name) => ({ name, report: validateScenarioText(readFixture('valid', name), name, { baseDir: `${FIXTURES}/valid` }) })),
  ];
  for (const { name, report } of reports) {
    for (const issue of [...report.errors, ...report.warnings]) {
      assert.ok(issue.rule in RULES, `${name}: unknown rule ${issue.rule}`);
      assert.ok(issue.message.length > 20, `${name}: message too short: ${issue.message}`);
      // SPEC §4: each problem says how to fix it, in words that stand alone (not "add it").
      assert.ok(issue.suggestion && !/^(add|remove|rename) (it|one)$/.test(issue.suggestion), `${name}: ${issue.rule} suggestion ${JSON.stringify(issue.suggestion)}`);
      assert.type(issue.line, 'number');
      assert.type(issue.column, 'number');
      assert.ok(issue.path === '' || issue.path.startsWith('/'), `${name}: pointer ${issue.path}`);
    }
  }
});

test('the corpus covers every action, assertion type, condition type, platform and version', () => {
  const docs = validNames.map((n) => JSON.parse(readFixture('valid', n)) as Record<string, unknown>);
  const actions = new Set<string>();
  const conditions = new Set<string>();
  let nested = false;
  let retry = false;
  const visit = (steps: unknown): void => {
    for (const s of (steps as Record<string, unknown>[] | undefined) ?? []) {
      actions.add(s.action as string);
      if (s.condition) conditions.add((s.condition as { type: string }).type);
      if (s.sub_steps) nested = true;
      if (s.on_failure === 'retry') retry = true;
      visit(s.sub_steps);
    }
  };
  docs.forEach((d) => visit(d.steps));
  const assertions = new Set(docs.flatMap((d) => (d.assertions as { type: string }[]).map((a) => a.type)));
  assert.equal([...ACTIONS].filter((a) => !actions.has(a)), [], 'actions without a valid fixture');
  assert.equal([...ASSERTION_TYPES].filter((a) => !assertions.has(a)), [], 'assertion types without a valid fixture');
  assert.equal([...CONDITION_TYPES].filter((c) => !conditions.has(c)), [], 'condition types without a valid fixture');
  assert.ok(nested && retry, 'sub_steps and retries');
  assert.ok(docs.some((d) => d.variables), 'variables');
  for (const p of ['android', 'ios', 'cross-platform']) assert.ok(docs.some((d) => d.platform === p), p);
  for (const v of ['2.0', '2.1', '2.2']) assert.ok(docs.some((d) => d.$schema_version === v), v);
});

test('every rule has a fixture (errors: invalid corpus, warnings: valid corpus)', () => {
  const covered = new Set<string>();
  for (const name of invalidNames) covered.add(expectationOf(name, readFixture('invalid', name)).rule);
  for (const name of validNames) {
    const x = (JSON.parse(readFixture('valid', name)) as { 'x-expect'?: WarningExpectation })['x-expect'];
    for (const w of x?.warnings ?? []) covered.add(w.rule);
  }
  // Both need more than one file; they have their own tests (files.test.ts). The fixtures are
  // validated with their folder, so flow-not-checked has its own test (spec-audit.test.ts).
  const elsewhere: RuleId[] = ['file-unreadable', 'scenario-id-duplicate', 'flow-not-checked'];
  const missing = (Object.keys(RULES) as RuleId[]).filter((r) => !covered.has(r) && !elsewhere.includes(r));
  assert.equal(missing, [], 'rules without a fixture');
});

test.run();
