/**
 * The fast accept path of the shape check. valibot's interpreter allocates a dataset and an output
 * object per value and tries variant options one after the other (27 assertion types), which made
 * it about half of the time to validate a well-formed 30-step scenario. This module compiles the
 * same valibot schema tree, once, into plain predicates that answer only "the full path would find
 * nothing here". They build no output and word no issue: a rejected document takes the full path
 * (structure.ts: unknown keys, then valibot), which stays the one place for messages, rule ids and
 * the output with defaults applied.
 *
 * Accepting must mean exactly what the full path means: walkUnknown strips `x-` keys, then valibot
 * reports no issue. Each case below mirrors the valibot 1.x `~run` of its schema type; a schema type
 * or action not listed makes the compiler give up (`undefined`), and then every document takes the
 * full path: slower, never different.
 */
import * as v from 'valibot';
import type { SchemaNode } from './schema-node.js';

export type Accept = (input: unknown) => boolean;

export class Unsupported extends Error {}

/**
 * Index of the first item a (stripping) array acceptor rejected, per array: the items before it
 * were accepted, so shape-localize.ts need not check them again. Written only on rejection.
 */
export const firstRejected = new WeakMap<unknown[], number>();

/** valibot's object test: arrays count as objects (then their index keys are unknown keys). */
const isObjectLike = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const OPTIONAL_TYPES = new Set(['optional', 'exact_optional', 'nullish']);
/** Keys valibot's record skips (see its `_isValidObjectKey`). */
const UNSAFE_RECORD_KEYS = new Set(['__proto__', 'prototype', 'constructor']);
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** A validation action of a pipe, run on a value its root schema accepted. */
function compileAction(action: SchemaNode): Accept | undefined {
  const req = action.requirement;
  switch (action.type) {
    case 'regex': {
      const re = req as RegExp;
      // A global or sticky regex carries lastIndex between calls; running it twice would differ.
      if (re.global || re.sticky) throw new Unsupported('stateful regex');
      return (s) => re.test(s as string);
    }
    case 'min_length':
      return (x) => (x as { length: number }).length >= (req as number);
    case 'max_length':
      return (x) => (x as { length: number }).length <= (req as number);
    case 'integer':
      return (n) => Number.isInteger(n);
    case 'min_value':
      return (n) => (n as number) >= (req as number);
    case 'max_value':
      return (n) => (n as number) <= (req as number);
    case 'description':
      return undefined;
    default:
      throw new Unsupported(`pipe action ${action.type}`);
  }
}

/** The validation actions of a pipe, each run on a value its root schema accepted. */
export function pipeActions(node: SchemaNode): Accept[] {
  return node
    .pipe!.slice(1)
    .map(compileAction)
    .filter((c) => c !== undefined);
}

/**
 * `strip` is true where structure.ts's walkUnknown reaches, i.e. where `x-` keys are removed before
 * valibot sees the object; inside a union it does not reach, so there an `x-` key is unknown too.
 */
function compile(node: SchemaNode, strip: boolean): Accept {
  if (node.pipe) {
    // valibot skips a pipe's actions when an optional root has no value; not mirrored here.
    if (OPTIONAL_TYPES.has(node.pipe[0].type)) throw new Unsupported('optional pipe root');
    const root = compile(node.pipe[0], strip);
    const checks = pipeActions(node);
    // Most pipes hold one or two checks (a string and its pattern or length); no loop for those.
    if (checks.length === 0) return root;
    const [first, second] = checks;
    if (checks.length === 1) return (x) => root(x) && first(x);
    if (checks.length === 2) return (x) => root(x) && first(x) && second(x);
    return (x) => {
      if (!root(x)) return false;
      for (const check of checks) if (!check(x)) return false;
      return true;
    };
  }
  switch (node.type) {
    case 'string':
      return (x) => typeof x === 'string';
    case 'number':
      return (x) => typeof x === 'number' && !Number.isNaN(x);
    case 'boolean':
      return (x) => typeof x === 'boolean';
    case 'literal':
    case 'picklist': {
      // === is SameValueZero but for NaN, which valibot's literal matches and === does not.
      const only = node.literal;
      if (node.type === 'literal' && !Number.isNaN(only)) return (x) => x === only;
      // Set membership is SameValueZero, like valibot's literal and picklist.
      const allowed = new Set(node.type === 'literal' ? [node.literal] : (node.options as readonly unknown[]));
      return (x) => allowed.has(x);
    }
    case 'union': {
      const options = (node.options as SchemaNode[]).map((o) => compile(o, false));
      return (x) => options.some((option) => option(x));
    }
    case 'optional': {
      const wrapped = compile(node.wrapped!, strip);
      const fallbackValue = node.default;
      if (typeof fallbackValue === 'function') throw new Unsupported('computed default');
      // valibot runs the wrapped schema on the default too.
      return (x) => (x === undefined ? fallbackValue === undefined || wrapped(fallbackValue) : wrapped(x));
    }
    case 'lazy': {
      const getter = node.getter!;
      // The getter picks one of a few schemas (steps: action or flow step), mostly the same one.
      let lastNode: SchemaNode | undefined;
      let lastAccept: Accept = () => false;
      return (x) => {
        const picked = getter(x);
        if (picked !== lastNode) {
          lastAccept = compileCached(picked, strip);
          lastNode = picked;
        }
        return lastAccept(x);
      };
    }
    case 'array': {
      const item = compile(node.item!, strip);
      return (x) => {
        if (!Array.isArray(x)) return false;
        for (let i = 0; i < x.length; i++) {
          if (!item(x[i])) {
            if (strip) firstRejected.set(x, i);
            return false;
          }
        }
        return true;
      };
    }
    case 'record': {
      const key = compile(node.key as SchemaNode, strip);
      const value = compile(node.value!, strip);
      return (x) => {
        if (!isObjectLike(x)) return false;
        for (const k in x) {
          if (!hasOwn(x, k) || UNSAFE_RECORD_KEYS.has(k)) continue;
          if (!key(k) || !value(x[k])) return false;
        }
        return true;
      };
    }
    case 'strict_object':
      return compileStrictObject(node, strip);
    case 'variant':
      return compileVariant(node, strip);
    default:
      throw new Unsupported(`schema type ${node.type}`);
  }
}

function compileStrictObject(node: SchemaNode, strip: boolean): Accept {
  const entries = node.entries!;
  const byName = new Map<string, { accept: Accept; required: boolean }>();
  let requiredCount = 0;
  for (const [key, schema] of Object.entries(entries)) {
    if (schema.fallback !== undefined) throw new Unsupported('fallback');
    // valibot asks `key in input`; walking the own keys gives the same answer only when no object
    // or array inherits the name.
    if (key in Object.prototype || key in Array.prototype) throw new Unsupported(`inherited name ${key}`);
    const required = !OPTIONAL_TYPES.has(schema.type);
    // valibot validates the default of an absent field; one that fails would reject every document.
    if (!required && schema.default !== undefined && !v.safeParse(schema as unknown as v.GenericSchema, undefined).success) throw new Unsupported(`invalid default of ${key}`);
    if (required) requiredCount++;
    // A key that is present has a value (parsed JSON has no undefined), so an optional field is
    // judged by what it wraps; its default was checked above.
    const judged = schema.type === 'optional' && !schema.pipe ? schema.wrapped! : schema;
    byName.set(key, { accept: compile(judged, strip), required });
  }
  return (x) => {
    if (!isObjectLike(x)) return false;
    let required = 0;
    // Parsed JSON has only own keys, so this visits exactly what the document holds.
    for (const k in x) {
      const field = byName.get(k);
      if (field === undefined) {
        if (strip && !Array.isArray(x) && k.startsWith('x-')) continue;
        return false;
      }
      if (!field.accept(x[k])) return false;
      if (field.required) required++;
    }
    return required === requiredCount;
  };
}

/** A lookup by discriminator instead of valibot's scan over the options. */
function compileVariant(node: SchemaNode, strip: boolean): Accept {
  const key = node.key as string;
  const byTag = new Map<unknown, Accept>();
  for (const option of node.options as SchemaNode[]) {
    const tag = option.entries?.[key];
    if (option.type !== 'strict_object' || tag?.type !== 'literal' || byTag.has(tag.literal)) throw new Unsupported('variant shape');
    byTag.set(tag.literal, compile(option, strip));
  }
  return (x) => {
    if (!isObjectLike(x) || !(key in x)) return false;
    const option = byTag.get(x[key]);
    return option !== undefined && option(x);
  };
}

const compiled = [new WeakMap<SchemaNode, Accept>(), new WeakMap<SchemaNode, Accept>()];

export function compileCached(node: SchemaNode, strip: boolean): Accept {
  const cache = compiled[strip ? 1 : 0];
  let accept = cache.get(node);
  if (!accept) {
    accept = compile(node, strip);
    cache.set(node, accept);
  }
  return accept;
}

/**
 * A predicate for `schema`: true when the full path (walkUnknown, then valibot) would report no
 * issue for a parsed JSON document. Undefined when the schema uses something not mirrored here.
 */
export function compileAcceptor(schema: SchemaNode): ((doc: unknown) => boolean) | undefined {
  let accept: Accept;
  try {
    accept = compileCached(schema, true);
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
  return (doc) => {
    try {
      return accept(doc);
    } catch (err) {
      // A lazy schema resolved at run time to something not mirrored: let the full path decide.
      if (err instanceof Unsupported) return false;
      throw err;
    }
  };
}
