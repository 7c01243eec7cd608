/**
 * Shape checks: unknown properties (all of them, with typo suggestions) and the valibot schema
 * issues, each turned into a RawIssue with a stable rule id.
 */
import * as v from 'valibot';
import { escapePointer } from './json.js';
import type { RawIssue, RuleId } from './rules.js';
import { type Scenario, ScenarioSchema } from './schema.js';
import type { SchemaNode } from './schema-node.js';
import { compileCounter } from './shape-accept.js';
import { missingKeys, type PathStep, suspects } from './shape-localize.js';
import { didYouMean, enumSuggestion, suggestedValue } from './suggest.js';
import { type VariantContext, variantIndex, variantOption } from './variant-index.js';
import { ConditionSchema } from './condition-schema.js';
import { ASSERTION_SCHEMA } from './assertion-schema.js';


const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

const pointerOf = (path: string[]): string => path.map((seg) => `/${escapePointer(seg)}`).join('');

/** What the walk below reports into, and whether the document is 2.0 / 2.1 (for the fields it offers). */
interface Walk {
  out: RawIssue[];
  before22: boolean;
}

/**
 * Fields from schema 2.2, each set under a field only its owner has (an assertion's after_step, a
 * step's action, the root's $schema_version). A 2.0 / 2.1 document that took one would get
 * requires-2.2, so the lists of fields its messages offer leave them out.
 */
const NEWER_FIELDS: readonly [string, ReadonlySet<string>][] = [
  ['after_step', new Set(['timeout_ms', 'condition'])],
  ['action', new Set(['clear_first'])],
  ['$schema_version', new Set(['parameters'])],
];

function offered(allowed: string[], before22: boolean): string[] {
  if (!before22) return allowed;
  const newer = NEWER_FIELDS.find(([owner]) => allowed.includes(owner))?.[1];
  return newer ? allowed.filter((k) => !newer.has(k)) : allowed;
}

/**
 * Reports every property the schema does not define and removes it, together with `x-`
 * extension keys, so that the valibot pass (strict objects) does not report them a second time.
 * `path` is a stack of segments, joined only when something is reported.
 */
function walkUnknown(node: SchemaNode, value: unknown, path: string[], w: Walk, variant?: VariantContext): void {
  switch (node.type) {
    case 'optional':
    case 'nullable':
    case 'nullish':
    case 'exact_optional':
      return walkUnknown(node.wrapped!, value, path, w, variant);
    case 'lazy':
      return walkUnknown(node.getter!(value), value, path, w);
    case 'array':
      if (!Array.isArray(value)) return;
      for (let i = 0; i < value.length; i++) {
        path.push(String(i));
        walkUnknown(node.item!, value[i], path, w);
        path.pop();
      }
      return;
    case 'record':
      if (listInstead(node, value, path, w.out) || !isRecord(value)) return;
      for (const key of Object.keys(value)) {
        path.push(key);
        walkUnknown(node.value!, value[key], path, w);
        path.pop();
      }
      return;
    case 'variant': {
      if (!isRecord(value)) return;
      const picked = variantOption(node, value);
      if (picked) walkUnknown(picked.option, value, path, w, picked.context);
      return;
    }
    case 'strict_object':
    case 'object':
    case 'loose_object':
      if (listInstead(node, value, path, w.out)) return;
      return walkKeys(node, value, path, w, variant, true);
  }
}

/** What the root's keyed declarations look like, for the message about a list given instead. */
const DECLARATION_EXAMPLES: Record<string, string> = {
  '/variables': '{"order_id": {"type": "string", "description": "..."}}',
  '/parameters': '{"EMAIL": {"description": "..."}}',
};

/**
 * valibot's object and record take an array (its indexes as keys): `[]` passed where an object is
 * required, and `["a"]` got issues about a property "0". A list there is one type-mismatch on the
 * list, and nothing below it is checked (checkStructure drops valibot's issues under it).
 */
function listInstead(node: SchemaNode, value: unknown, path: string[], out: RawIssue[]): boolean {
  if (!Array.isArray(value)) return false;
  const pointer = pointerOf(path);
  const name = path.length ? `"${path[path.length - 1]}"` : 'the document';
  const example = DECLARATION_EXAMPLES[pointer];
  const shape = example
    ? `declarations are an object keyed by name, e.g. ${example}`
    : node.type === 'record'
      ? 'it must be an object of names and values, e.g. {"NAME": "value"}'
      : `it must be an object {...} with the properties ${Object.keys(node.entries!).join(', ')}`;
  out.push({ path: pointer, rule: 'type-mismatch', message: `${name} is a list [...], but ${shape}; write it with { } instead of [ ]`, suggestion: 'write it as an object { }' });
  return true;
}

/** The object's unknown keys, and with `deep` what lies below its known ones. */
function walkKeys(node: SchemaNode, value: unknown, path: string[], w: Walk, variant: VariantContext | undefined, deep: boolean): void {
  if (!isRecord(value)) return;
  const entries = node.entries!;
  for (const key of Object.keys(value)) {
    path.push(key);
    if (Object.prototype.hasOwnProperty.call(entries, key)) {
      if (deep) walkUnknown(entries[key], value[key], path, w);
    } else reportUnknown(value, key, offered(Object.keys(entries), w.before22), pointerOf(path), w.out, variant);
    path.pop();
  }
}

function reportUnknown(owner: Record<string, unknown>, key: string, allowed: string[], path: string, out: RawIssue[], variant?: VariantContext): void {
  delete owner[key];
  if (key.startsWith('x-')) return;
  if (variant?.fields.has(key)) {
    out.push({
      path,
      rule: 'field-not-for-type',
      atKey: true,
      message: `property "${key}" is not used by ${variant.kind}; remove it or change the type. This type takes: ${allowed.join(', ')}`,
      suggestion: `remove "${key}", or change the type to one that takes it`,
    });
    return;
  }
  out.push({
    path,
    rule: 'unknown-property',
    atKey: true,
    message: `unknown property "${key}"; remove it, or prefix it with "x-" to keep it as an extension. Allowed here: ${allowed.join(', ')}`,
    suggestion: didYouMean(key, allowed) ?? `remove "${key}", or rename it "x-${key}" to keep it as an extension`,
  });
}

const RANGES: Record<string, string> = {
  max_attempts: 'an integer from 2 to 5 (all attempts, the first included)',
  backoff_ms: 'a whole number of milliseconds, 0 or more',
  timeout_ms: 'an integer from 1000 to 60000 (milliseconds)',
  tolerance: 'a number from 0 to 1 (similarity, e.g. 0.9)',
  expected_count: 'a whole number, 0 or more',
};

const ASSERTION_TIMEOUT_RANGE = 'an integer from 0 to 60000 (milliseconds to keep re-checking)';

function typeName(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'object') return 'an object';
  return `${typeof x} ${JSON.stringify(x)}`;
}

const EXPECTED_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  array: 'an array',
  strict_object: 'an object',
  object: 'an object',
  record: 'an object',
  union: 'a string, number or boolean',
};

/** The quoted names in valibot's `expected` text; the texts come from the schema, so they are few. */
const optionLists = new Map<string, string[]>();
function options(expected: string | null): string[] {
  const text = expected ?? '';
  let list = optionLists.get(text);
  if (!list) {
    list = [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
    if (optionLists.size < 1000) optionLists.set(text, list);
  }
  return list;
}

/**
 * The tags of the variant whose own message is `message`. valibot lists them in `expected` only
 * when the value is an object; a condition or assertion given as a string, number or null comes
 * with `expected` "Object", and the choices must be read from the schema instead.
 */
function variantTags(message: string): { key: string; tags: string[] } | undefined {
  const node = ([ConditionSchema, ASSERTION_SCHEMA] as unknown as (SchemaNode & { message?: unknown })[]).find((n) => n.message === message);
  return node && { key: String(node.key), tags: [...variantIndex(node).byTag.keys()].map(String) };
}

function toSnake(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '');
}

/** The input rewritten to the form a naming rule wants, when that form is obvious. */
function renamed(rule: RuleId, input: string): string | undefined {
  const fixed = rule === 'id-format' ? toSnake(input) : rule === 'parameter-name-format' ? toSnake(input).toUpperCase() : rule === 'tag-format' ? toTag(input) : '';
  return fixed && fixed !== input ? `use "${fixed}"` : undefined;
}

function toTag(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 20)
    .replace(/-+$/, '');
}

/**
 * A number where the list holds strings: `"$schema_version": 2.1` is the commonest. JSON keeps no
 * trailing zero (2.0 parses as 2), so "2.0" is what 2 stands for. The fix is the quotes.
 */
function numberForWord(path: string, rule: RuleId, what: string, input: number, allowed: string[]): RawIssue {
  const meant = [String(input), `${input}.0`].find((s) => allowed.includes(s));
  const suggestion = meant === undefined ? enumSuggestion(String(input), allowed) : `use "${meant}"`;
  return { path, rule, message: `${what}; write it in quotes, as a string: one of ${allowed.map((a) => `"${a}"`).join(', ')}`, suggestion };
}

function mapIssue(issue: v.BaseIssue<unknown>, root = 'the document root'): RawIssue {
  const keys = (issue.path ?? []).map((p) => String(p.key));
  const path = keys.map((k) => `/${escapePointer(k)}`).join('');
  const last = issue.path?.[issue.path.length - 1];
  // An array item is named after its list ("tags[0]"), not by its bare index.
  const field = !keys.length ? 'document' : last?.type === 'array' && keys.length > 1 ? `${keys[keys.length - 2]}[${keys[keys.length - 1]}]` : keys[keys.length - 1];
  const sep = issue.message.indexOf('\u0001');
  const tag = sep > 0 ? (issue.message.slice(0, sep) as RuleId) : undefined;
  const text = sep > 0 ? issue.message.slice(sep + 1) : issue.message;

  // A required key that is absent: valibot reports expected `"key"` with no input.
  if (issue.kind === 'schema' && last?.origin === 'key' && issue.input === undefined && (issue.type === 'strict_object' || issue.type === 'object')) {
    const inAssertion = /^\/assertions\/\d+\/[^/]+$/.test(path) && !['id', 'after_step', 'type', 'description'].includes(field);
    const rule: RuleId = path === '/$schema_version' ? 'schema-version' : inAssertion ? 'assertion-field-required' : 'required-field';
    const parent = path.slice(0, path.lastIndexOf('/')) || root;
    const owner = last.input as Record<string, unknown>;
    const message = inAssertion
      ? `assertion type ${String(owner.type)} needs "${field}"; add it to ${parent}`
      : `missing required property "${field}" in ${parent}; add it`;
    return { path, rule, message, suggestion: `add "${field}" to ${parent}` };
  }
  if (issue.kind === 'schema' && (issue.type === 'picklist' || issue.type === 'literal' || issue.type === 'variant')) {
    const allowed = options(issue.expected);
    if (issue.input === undefined) {
      return {
        path,
        rule: path === '/$schema_version' ? 'schema-version' : 'required-field',
        message: `missing required property "${field}"; add it with one of: ${allowed.join(', ')}`,
        suggestion: `add "${field}" with one of: ${allowed.join(', ')}`,
      };
    }
    const rule = tag ?? 'enum-value';
    const got = typeof issue.input === 'string' ? `"${issue.input}"` : typeName(issue.input);
    // `expected` is "Object" only when the value itself is not an object; a misspelt "type" of an object lists the tags.
    const variant = issue.type === 'variant' && issue.expected === 'Object' && !isRecord(issue.input) ? variantTags(issue.message) : undefined;
    if (variant) {
      const want = `an object whose "${variant.key}" is one of: ${variant.tags.join(', ')}`;
      return { path, rule, message: `${field} ${got} is not an object; give ${want}`, suggestion: `give ${want}` };
    }
    if (typeof issue.input === 'number' && allowed.length) return numberForWord(path, rule, `${field} ${got} ${tag ? text : 'is not allowed'}`, issue.input, allowed);
    return {
      path,
      rule,
      message: `${field} ${got} ${tag ? text : 'is not allowed'}; use one of: ${allowed.join(', ')}`,
      suggestion: typeof issue.input === 'string' ? enumSuggestion(issue.input, allowed) : undefined,
    };
  }
  if (tag) {
    const suggestion = typeof issue.input === 'string' ? renamed(tag, issue.input) : undefined;
    const subject = last?.origin === 'key' ? `name "${field}"` : typeof issue.input === 'string' ? `${field} "${issue.input}"` : field;
    return { path, rule: tag, message: `${subject} ${text}`, suggestion, atKey: last?.origin === 'key' };
  }
  if (issue.kind === 'schema') {
    const want = EXPECTED_WORDS[issue.type] ?? issue.expected ?? issue.type;
    return { path, rule: 'type-mismatch', message: `${field} must be ${want}, got ${typeName(issue.input)}; change the value's type`, suggestion: `give ${want}` };
  }
  if (issue.type === 'integer') {
    return { path, rule: 'not-integer', message: `${field} must be a whole number, got ${String(issue.input)}`, suggestion: `use ${Math.round(Number(issue.input))}` };
  }
  if (issue.type === 'min_value' || issue.type === 'max_value') {
    const range = field === 'timeout_ms' && /^\/assertions\/\d+\/timeout_ms$/.test(path) ? ASSERTION_TIMEOUT_RANGE : RANGES[field];
    return { path, rule: 'out-of-range', message: `${field} ${String(issue.input)} is out of range; it must be ${range ?? issue.expected}`, suggestion: `use ${range ?? `a value ${issue.expected}`}` };
  }
  return { path, rule: 'type-mismatch', message: `${field}: ${text}` };
}

/**
 * Issues of one value checked on its own (a step sent to verbs.run), worded as the validator
 * words them in a document; `root` names the value ("the step").
 */
export function wordIssues(issues: readonly v.BaseIssue<unknown>[], root: string): string[] {
  return issues.map((issue) => {
    // A document's unknown keys are found before valibot runs (walkUnknown); here strict_object reports them.
    if (issue.expected === 'never') return `unknown property "${issue.path?.map((p) => String(p.key)).join('.')}" in ${root}; remove it`;
    const { path, message, suggestion } = mapIssue(issue, root);
    const owner = path.slice(1, path.lastIndexOf('/')).replaceAll('/', '.');
    // A replacement adds to the message; the other suggestions restate its own last clause.
    const replacement = suggestedValue(suggestion) !== undefined ? ` (${suggestion})` : '';
    return `${owner ? `${owner}: ` : ''}${message}${replacement}`;
  });
}

/** Built once: most documents are well-formed, and for them this replaces both passes below. */
const countScenario = compileCounter(ScenarioSchema as unknown as SchemaNode);
const acceptScenario = countScenario && ((doc: unknown) => countScenario(doc) >= 0);

/** The names a well-formed scenario holds (see shape-accept.ts), or -1 when its shape needs the full path. */
export const scenarioShapeNames = (doc: unknown): number => (countScenario ? countScenario(doc) : -1);

/** What valibot's strict_object reports for each required key `obj` lacks (its `~run`, valibot 1.x). */
function missingKeyIssues(node: SchemaNode, obj: Record<string, unknown>): v.BaseIssue<unknown>[] {
  return missingKeys(node, obj).map((key) => ({
    kind: 'schema',
    type: 'strict_object',
    input: undefined,
    expected: `"${key}"`,
    received: 'undefined',
    message: `Invalid key: Expected "${key}" but received undefined`,
    path: [{ type: 'object', origin: 'key', input: obj, key, value: obj[key] }],
  }));
}

/** Adds valibot's issues, re-rooted under `prefix`, keeping the first issue of each path and none that `skip` names. */
function addValibotIssues(issues: readonly v.BaseIssue<unknown>[], prefix: readonly PathStep[], seen: Set<string>, out: RawIssue[], skip?: (path: string) => boolean): void {
  for (const issue of issues) {
    // The path valibot gives when it runs over the whole document.
    const rooted = prefix.length ? { ...issue, path: [...prefix, ...(issue.path ?? [])] as unknown as v.BaseIssue<unknown>['path'] } : issue;
    const mapped = mapIssue(rooted);
    if (seen.has(mapped.path) || skip?.(mapped.path)) continue;
    seen.add(mapped.path);
    out.push(mapped);
  }
}

/**
 * Unknown properties first (they are stripped so that valibot does not report them again), then
 * everything valibot finds, one issue per path. `output` is the scenario with defaults applied
 * when the shape is right and `wantOutput` is set. Without it a well-formed document only needs
 * the fast acceptor, and in a malformed one only the subtrees the acceptor rejects are re-checked
 * (shape-localize.ts), which gives the same issues as checking all of it. `knownRejected`: the
 * caller already asked the acceptor (while parsing) and it said no.
 */
export function checkStructure(doc: Record<string, unknown>, wantOutput: boolean, knownRejected = false): { issues: RawIssue[]; output?: Scenario } {
  const root = ScenarioSchema as unknown as SchemaNode;
  if (!wantOutput && !knownRejected && acceptScenario?.(doc)) return { issues: [] };
  const parts = (!wantOutput && acceptScenario && suspects(root, doc)) || [{ node: root, value: doc, path: [] }];
  const out: RawIssue[] = [];
  const w: Walk = { out, before22: doc.$schema_version === '2.0' || doc.$schema_version === '2.1' };
  for (const part of parts) {
    const path = part.path.map((step) => String(step.key));
    if (part.shallow) walkKeys(part.node, part.value, path, w, part.variant, false);
    else walkUnknown(part.node, part.value, path, w);
  }
  const seen = new Set<string>();
  // Lists given where an object belongs (listInstead): valibot's issues at and under them are about their indexes.
  const lists = out.filter((issue) => issue.rule === 'type-mismatch').map((issue) => issue.path);
  const underList = lists.length ? (path: string) => lists.some((l) => path === l || path.startsWith(`${l}/`)) : undefined;
  for (const part of parts) {
    if (part.shallow) {
      addValibotIssues(missingKeyIssues(part.node, part.value as Record<string, unknown>), part.path, seen, out);
      continue;
    }
    const result = v.safeParse(part.node as unknown as v.GenericSchema, part.value, { abortEarly: false });
    if (!result.success) addValibotIssues(result.issues, part.path, seen, out, underList);
    else if (part.node === root) return { issues: out, output: result.output as Scenario };
  }
  return { issues: out };
}
