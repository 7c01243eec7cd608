/**
 * Where a document the fast acceptor rejected goes wrong. Running valibot over a whole 30-step
 * document to word one misspelt action cost about four times the rest of the validation; this
 * module narrows the document down to the smallest subtrees whose valibot issues are exactly the
 * issues valibot reports there when it runs over the whole document, so only those are re-run.
 *
 * Descending from a container into its failing children is exact only when the container adds
 * nothing of its own. valibot 1.x (the `~run` of each schema type) gives:
 * - strict_object: its own issues are a non-object input, missing required keys and unknown keys;
 *   each present entry is run alone on its value and its issues are prefixed with the key.
 * - array / record: a non-array (non-object) input, and for records a key that fails its schema;
 *   each item or value is run alone.
 * - pipe: the root schema, then actions that report only when the root's output is typed and the
 *   action fails. When every action passes on the value, the pipe reports what its root reports.
 * - optional: the wrapped schema on the value, or on the default when the value is absent.
 * - lazy: the schema its getter picks for the value.
 * - variant: the option whose discriminator literal the value carries (the options' tags are
 *   unique literals, checked when the acceptor is compiled), run on the value; with no such option
 *   the variant reports on its own and is kept whole.
 * Anything else (unions, leaves) and any container with a problem of its own is kept whole. An object's unknown and missing keys are the exception: walkUnknown reports and removes
 * unknown keys before valibot runs, and a missing key is an issue valibot words from the key and
 * the object alone, so both are reported on their own (a shallow suspect) and the children checked. walkUnknown (structure.ts) reaches through the same types, so running it on each kept
 * subtree also finds every unknown key the full walk would: an unknown key makes its object fail.
 */
import type { SchemaNode } from './schema-node.js';
import { type Accept, compileCached, firstRejected, OPTIONAL_TYPES, pipeActions, UNSAFE_RECORD_KEYS, Unsupported } from './shape-accept.js';
import { type VariantContext, variantOption } from './variant-index.js';

/** One step of valibot's issue path (the fields structure.ts reads: key, origin, input). */
export interface PathStep {
  type: 'object' | 'array';
  origin: 'value';
  input: unknown;
  key: string | number;
  value: unknown;
}

/**
 * A subtree to re-check with the full path: its schema, its value, and valibot's path to it.
 * `shallow`: only the object's own unknown and missing keys; its failing children are suspects of their own.
 */
export interface Suspect {
  node: SchemaNode;
  value: unknown;
  path: PathStep[];
  shallow?: boolean;
  /** For a shallow suspect reached through a variant: keys of the other options are "not for this type". */
  variant?: VariantContext;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const CONTAINERS = new Set(['array', 'record', 'strict_object']);

/** Scenario parts accept `x-` keys wherever walkUnknown reaches, which is everywhere this module goes. */
const accepts = (node: SchemaNode): Accept => compileCached(node, true);

const actionCache = new WeakMap<SchemaNode, Accept[]>();
function actionsPass(node: SchemaNode, value: unknown): boolean {
  let actions = actionCache.get(node);
  if (!actions) {
    actions = pipeActions(node);
    actionCache.set(node, actions);
  }
  return actions.every((action) => action(value));
}

const requiredKeys = new WeakMap<SchemaNode, string[]>();

/** The required keys an object lacks, in schema order (the order valibot reports them in). */
export function missingKeys(node: SchemaNode, obj: Record<string, unknown>): string[] {
  let required = requiredKeys.get(node);
  if (!required) {
    required = Object.entries(node.entries!)
      .filter(([, schema]) => !OPTIONAL_TYPES.has(schema.type))
      .map(([k]) => k);
    requiredKeys.set(node, required);
  }
  return required.filter((k) => !(k in obj));
}

/** True when the container itself is fine, so that only its children can be at fault. */
function ownPartIsFine(node: SchemaNode, value: unknown): boolean {
  switch (node.type) {
    case 'array':
      return Array.isArray(value);
    case 'record': {
      if (!isRecord(value)) return false;
      const key = accepts(node.key as SchemaNode);
      for (const k in value) if (!UNSAFE_RECORD_KEYS.has(k) && !key(k)) return false;
      return true;
    }
    case 'strict_object':
      // Its unknown and missing keys are reported by a shallow suspect (see `find`).
      return isRecord(value);
    default:
      return false;
  }
}

const entryLists = new WeakMap<SchemaNode, [string, SchemaNode][]>();
const entriesOf = (node: SchemaNode): [string, SchemaNode][] => {
  let list = entryLists.get(node);
  if (!list) entryLists.set(node, (list = Object.entries(node.entries!)));
  return list;
};

function hasUnknownKey(entries: Record<string, SchemaNode>, obj: Record<string, unknown>): boolean {
  for (const k in obj) if (!Object.prototype.hasOwnProperty.call(entries, k) && !k.startsWith('x-')) return true;
  return false;
}

function visitChild(node: SchemaNode, parent: unknown, key: string | number, value: unknown, path: PathStep[], out: Suspect[]): void {
  if (accepts(node)(value)) return;
  const step: PathStep = { type: Array.isArray(parent) ? 'array' : 'object', origin: 'value', input: parent, key, value };
  find(node, value, [...path, step], out);
}

/** `node` rejects `value`: adds the smallest subtrees that hold all its issues. */
function find(node: SchemaNode, value: unknown, path: PathStep[], out: Suspect[], variant?: VariantContext): void {
  let plain = node;
  if (node.pipe) {
    const root = node.pipe[0];
    if (!CONTAINERS.has(root.type) || !ownPartIsFine(root, value) || !actionsPass(node, value)) return void out.push({ node, value, path });
    plain = root;
  }
  switch (plain.type) {
    case 'optional':
      if (value === undefined) return void out.push({ node, value, path });
      return find(plain.wrapped!, value, path, out);
    case 'lazy':
      return find(plain.getter!(value), value, path, out);
    case 'variant': {
      const picked = typeof value === 'object' && value !== null && (plain.key as string) in value ? variantOption(plain, value as Record<string, unknown>) : undefined;
      if (!picked) return void out.push({ node, value, path });
      return find(picked.option, value, path, out, picked.context);
    }
  }
  if (!CONTAINERS.has(plain.type) || !ownPartIsFine(plain, value)) return void out.push({ node, value, path });
  if (plain.type === 'array') {
    const list = value as unknown[];
    for (let i = firstRejected.get(list) ?? 0; i < list.length; i++) visitChild(plain.item!, list, i, list[i], path, out);
  } else if (plain.type === 'record') {
    const obj = value as Record<string, unknown>;
    for (const k in obj) if (!UNSAFE_RECORD_KEYS.has(k)) visitChild(plain.value!, obj, k, obj[k], path, out);
  } else {
    const obj = value as Record<string, unknown>;
    if (missingKeys(plain, obj).length || hasUnknownKey(plain.entries!, obj)) out.push({ node: plain, value, path, shallow: true, variant });
    // Schema order, as valibot runs the entries.
    for (const [k, schema] of entriesOf(plain)) visitChild(schema, obj, k, obj[k], path, out);
  }
}

/**
 * The subtrees of `doc` to re-check, for a document `schema`'s acceptor rejected; undefined when
 * the schema uses something the acceptor does not mirror (then re-check everything).
 */
export function suspects(schema: SchemaNode, doc: unknown): Suspect[] | undefined {
  const out: Suspect[] = [];
  try {
    find(schema, doc, [], out);
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
  return out;
}
