/**
 * The fast paths (shape-accept.ts, locate.ts, fastParse, the locator prefilter) must give exactly
 * what the full path gives. Each test compares both over the fixture corpus and deterministic
 * variations of it, so a schema change the fast paths do not mirror fails here.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadScenario, ScenarioSchema, validateScenarioText } from '../../src/validate/index.js';
import { namesByColons } from '../../src/validate/fast-parse.js';
import { locate, parseJson, escapePointer, type PosNode } from '../../src/validate/json.js';
import { locateAll } from '../../src/validate/locate.js';
import type { SchemaNode } from '../../src/validate/schema-node.js';
import { compileCounter } from '../../src/validate/shape-accept.js';
import { locatorKind } from '../../src/validate/targets.js';
import { fixtureNames, readFixture } from './helpers.js';

const fixtures = [
  ...fixtureNames('valid').map((n) => ({ name: `valid/${n}`, text: readFixture('valid', n) })),
  ...fixtureNames('invalid').map((n) => ({ name: `invalid/${n}`, text: readFixture('invalid', n) })),
];

/** Small deterministic generator so that a failure names a reproducible variant. */
function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s % n;
  };
}

const ODD_VALUES: unknown[] = ['', 'x', 'tpa', 'tap', 7, 1.5, -1, true, null, [], {}, ['a'], { type: 'x' }, '${nope}', '(', 'retry', '2.0', 'step_1', 0, 100000];
const ODD_KEYS = ['id', 'action', 'target', 'value', 'tagret', 'x-ext', 'type', 'wait_config', 'condition', 'sub_steps', 'capture_to', 'mode', 'retry_policy', 'a/b~c'];

type Json = unknown;

function containers(doc: Json, into: Json[] = []): Json[] {
  if (typeof doc !== 'object' || doc === null) return into;
  into.push(doc);
  for (const v of Object.values(doc)) containers(v, into);
  return into;
}

/** One to three random edits: remove, replace or add a property or item. */
function mutate(doc: Json, rnd: (n: number) => number): Json {
  const copy = structuredClone(doc);
  const all = containers(copy);
  if (all.length === 0) return copy;
  for (let k = 1 + rnd(3); k > 0; k--) {
    const target = all[rnd(all.length)] as Record<string, unknown> | unknown[];
    const keys = Object.keys(target);
    const value = structuredClone(ODD_VALUES[rnd(ODD_VALUES.length)]);
    const op = rnd(3);
    if (op === 0 && keys.length) {
      if (Array.isArray(target)) target.splice(rnd(target.length), 1);
      else delete target[keys[rnd(keys.length)]];
    } else if (op === 1 && keys.length) {
      (target as Record<string, unknown>)[keys[rnd(keys.length)]] = value;
    } else if (!Array.isArray(target)) {
      target[ODD_KEYS[rnd(ODD_KEYS.length)]] = value;
    }
  }
  return copy;
}

function variants(): { name: string; text: string }[] {
  const out = [...fixtures];
  const rnd = random(7);
  for (const f of fixtures) {
    let doc: Json;
    try {
      doc = JSON.parse(f.text);
    } catch {
      continue;
    }
    for (let m = 0; m < 6; m++) {
      const changed = mutate(doc, rnd);
      out.push({ name: `${f.name} variant ${m}`, text: JSON.stringify(changed, null, m % 2 ? 2 : undefined) });
    }
  }
  return out;
}

test('the fast acceptor is built and accepts every valid fixture', () => {
  const count = compileCounter(ScenarioSchema as unknown as SchemaNode);
  assert.ok(count, 'the scenario schema uses something shape-accept.ts does not mirror; extend it');
  for (const name of fixtureNames('valid')) assert.ok(count!(JSON.parse(readFixture('valid', name))) >= 0, name);
});

test('validation with the fast paths equals the full path (valibot, position parser) on fixtures and variants', () => {
  for (const { name, text } of variants()) {
    // loadScenario builds the scenario, so it always runs valibot; validateScenarioText does not.
    assert.equal(validateScenarioText(text, name), loadScenario(text, name).report, name);
  }
});

/** Every pointer in the document, a missing child of each, and out-of-range or odd array indexes. */
function pointersOf(value: Json, pointer: string, into: string[]): string[] {
  into.push(pointer, `${pointer}/missing`);
  if (Array.isArray(value)) {
    into.push(`${pointer}/${value.length}`, `${pointer}/00`, `${pointer}/x`);
    value.forEach((item, i) => pointersOf(item, `${pointer}/${i}`, into));
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) pointersOf(v, `${pointer}/${escapePointer(k)}`, into);
  }
  return into;
}

function checkLocate(text: string, oneByOne: boolean): void {
  const parsed = parseJson(text);
  if (!parsed.ok || parsed.duplicates.length) return;
  const pos: PosNode = parsed.pos;
  const targets = pointersOf(parsed.value, '', []).flatMap((path) => [{ path }, { path, atKey: true }]);
  const expected = targets.map((t) => locate(pos, t.path, t.atKey));
  assert.equal(locateAll(text, targets), expected, text.slice(0, 80));
  // Alone, a pointer lets the walk stop early, right after what it wants.
  if (oneByOne) targets.forEach((t, n) => assert.equal(locateAll(text, [t])[0], expected[n], `${t.path} in ${text.slice(0, 60)}`));
}

test('locateAll places every pointer where the position parser does', () => {
  for (const { text } of variants()) checkLocate(text, false);
  for (const { text } of fixtures) checkLocate(text, true);
  checkLocate('  {"a\\"b": {"c": [1, {"d~/e": "x:y"}]}, "s": "q\\\\", "n": -1.5e3, "t": true}  ', true);
  checkLocate('[[], {}, [[0]], "}"]', true);
});

test('duplicate names are found even when strings hold colons', () => {
  const report = validateScenarioText('{"url": "https://example.com/a:b", "steps": [], "steps": []}');
  assert.equal(
    report.errors.filter((e) => e.rule === 'duplicate-key').map((e) => [e.path, e.line, e.column]),
    [['/steps', 1, 49]],
  );
});

/** Every property name in a parsed value. */
function namesIn(value: Json): number {
  if (typeof value !== 'object' || value === null) return 0;
  const own = Array.isArray(value) ? 0 : Object.keys(value).length;
  return own + Object.values(value).reduce((n: number, v) => n + namesIn(v), 0);
}

test('the counting acceptor never counts more names than a document holds (else a dropped duplicate could hide)', () => {
  const count = compileCounter(ScenarioSchema as unknown as SchemaNode)!;
  let accepted = 0;
  for (const { name, text } of variants()) {
    let doc: Json;
    try {
      doc = JSON.parse(text);
    } catch {
      continue;
    }
    const n = count(doc);
    if (n < 0) continue;
    accepted++;
    // Exactly, for these documents: names it skips would only cost speed, never a verdict.
    assert.is(n, namesIn(doc), name);
  }
  assert.ok(accepted > 30, `only ${accepted} documents accepted: the comparison proves little`);
});

test('duplicate names are found in documents the fast lane accepts: in steps, records and x- extensions', () => {
  const base = JSON.parse(readFixture('valid', fixtureNames('valid')[0])) as Record<string, unknown>;
  base.variables = { ...(base.variables as object), dup_var: { type: 'string', description: 'twice' } };
  const text = JSON.stringify(base, null, 2);
  const cases: [string, string][] = [
    [text.replace('{', '{\n  "x-note": {"a": 1, "a": 2},'), '/x-note/a'],
    [text.replace('"steps": [\n    {', '"steps": [\n    {\n      "id": "dup_id",'), '/steps/0/id'],
    [text.replace('"dup_var": {', '"dup_var": {"type": "string", "description": "first"},\n    "dup_var": {'), '/variables/dup_var'],
  ];
  for (const [doc, path] of cases) {
    const report = validateScenarioText(doc);
    assert.ok(report.errors.some((e) => e.rule === 'duplicate-key' && e.path === path) || report.warnings.some((e) => e.rule === 'duplicate-key' && e.path === path), `${path}: ${JSON.stringify(report.errors.concat(report.warnings).map((e) => [e.rule, e.path]))}`);
    assert.equal(report, loadScenario(doc).report, path);
  }
});

test('names counted from colons equal the names in the text, or the count declines', () => {
  const tricky = [
    '{"url": "https://a.b/c:d", "t": "10:30", "k:e:y": 1}',
    '{"a": ":starts with a colon", "b": [":x", " :y"]}',
    '{"q": "say \\":hi", "e": "", "": 2, "s\\\\": 3}',
    '{"a,": 1, "b{": {"c": "d : e"}}',
    '  {  "a"  :  "b:c"  ,  "d"  :  [ "e" , { "f" : ":" } ] }  ',
  ];
  let declined = 0;
  for (const text of [...tricky, ...variants().map((v) => v.text)]) {
    try {
      JSON.parse(text);
    } catch {
      continue;
    }
    const parsed = parseJson(text);
    if (!parsed.ok) continue;
    const n = namesByColons(text);
    if (n < 0) declined++;
    else assert.is(n, namesIn(parsed.value) + parsed.duplicates.length, text.slice(0, 80));
  }
  assert.ok(declined >= 2 && declined < 50, `declined ${declined} times`);
});

test('locator detection: plain descriptions pass, every kind of locator is named', () => {
  // A colon and a space read as a label on screen, not a selector.
  for (const text of ['the Sign in button', 'the Email field', 'Cart tab', 'the product image', 'Name: field', 'Text: Welcome label', 'the Help text (bottom)', 'Step 2 of 3']) assert.is(locatorKind(text), undefined, text);
  const kinds: [string, string][] = [
    ['com.shop:id/cart_tab', 'an Android resource-id'],
    ['//android.widget.Button[@text="OK"]', 'an XPath expression'],
    ['XCUIElementTypeButton', 'an iOS element class (XCUIElementType…)'],
    ['android.widget.EditText', 'an Android class name'],
    ['id=login', 'a selector ("id=…", "name=…")'],
    ['~login', 'an accessibility-id selector ("~…")'],
    ['#login', 'a CSS id selector ("#…")'],
    ['.primary-button', 'a CSS class selector (".…")'],
    ['new UiSelector().text("OK")', 'a UiSelector / driver locator'],
    ["label == 'OK'", 'an NSPredicate'],
    ['**/Cell[1]', 'an iOS class chain'],
    ['540, 1200', 'bare screen coordinates'],
    ['x=540 y=1200', 'bare screen coordinates'],
    ['100 200', 'bare screen coordinates'],
    ['android.widget.Button[1]', 'an Android class name'],
    ['label BEGINSWITH[c] "Sign in"', 'an NSPredicate'],
    ['resourceId("com.x:id/login")', 'a UiSelector / driver locator'],
    ['text:Sign in', 'a selector ("id=…", "name=…")'],
  ];
  for (const [text, kind] of kinds) assert.is(locatorKind(text), kind, text);
});

test.run();
