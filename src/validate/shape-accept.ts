/**
 * The fast accept path of the shape check. valibot's interpreter allocates a dataset and an output
 * object per value and tries variant options one after the other (27 assertion types), which made
 * it about half of the time to validate a well-formed 30-step scenario. This module compiles the
 * same valibot schema tree, once, into JavaScript source (as Ajv does with a JSON Schema): one
 * function per container, scalars checked inline, object keys dispatched by a `switch`. The code
 * answers only "the full path would find nothing here". It builds no output and words no issue: a
 * rejected document takes the full path (structure.ts: unknown keys, then valibot), which stays
 * the one place for messages, rule ids and the output with defaults applied.
 *
 * While it walks, the code counts the property names it visits, so that the caller can tell from
 * one colon count of the text that `JSON.parse` dropped no duplicate name (fast-parse.ts) without a
 * second walk. The count never exceeds the names in the text; it may fall short (names it skips),
 * which only sends the document down the slower, exact path.
 *
 * Accepting must mean exactly what the full path means: walkUnknown strips `x-` keys, then valibot
 * reports no issue. Each case below mirrors the valibot 1.x `~run` of its schema type; a schema type
 * or action not listed makes the compiler give up (`Unsupported`), and then every document takes
 * the full path: slower, never different.
 */
import * as v from 'valibot';
import { namesInValue } from './fast-parse.js';
import type { SchemaNode } from './schema-node.js';

export type Accept = (input: unknown) => boolean;
/** Property names visited in an accepted value, or -1 when rejected. */
export type Counter = (input: unknown) => number;

export class Unsupported extends Error {}

/**
 * Index of the first item a (stripping) array acceptor rejected, per array: the items before it
 * were accepted, so shape-localize.ts need not check them again. Written only on rejection.
 */
export const firstRejected = new WeakMap<unknown[], number>();

/** valibot schema types whose key may be absent from an object. */
export const OPTIONAL_TYPES: ReadonlySet<string> = new Set(['optional', 'exact_optional', 'nullish']);
/** Keys valibot's record skips (see its `_isValidObjectKey`). */
export const UNSAFE_RECORD_KEYS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);
const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
/**
 * Bounds that keep an accepted document well inside json.ts's MAX_DEPTH (512), so that the count
 * is only trusted for documents the too-deep rule cannot concern: nested steps (each adds two
 * levels) and values under `x-` keys. Deeper documents are rejected here and judged exactly.
 */
const MAX_LAZY_DEPTH = 150;
const MAX_EXTENSION_DEPTH = 64;

/** Shared by every generated unit: how many lazy schemas are open. Reset by each entry point. */
const state = { depth: 0 };

/** A JavaScript literal for a JSON scalar, or undefined for anything else. */
function literalSource(x: unknown): string | undefined {
  if (typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x) && !Object.is(x, -0))) return JSON.stringify(x);
  if (x === null) return 'null';
  return undefined;
}

/** One unit of generated source: its functions and the values they reference. */
class Unit {
  readonly consts: unknown[] = [];
  readonly functions: string[] = [];
  private readonly names = new Map<SchemaNode, string>();
  constructor(private readonly strip: boolean) {}

  konst(value: unknown): string {
    this.consts.push(value);
    return `K[${this.consts.length - 1}]`;
  }

  /** A boolean expression over the variable `x` for a pipe action, or '' for annotations. */
  action(node: SchemaNode, x: string): string {
    const req = node.requirement;
    switch (node.type) {
      case 'regex': {
        const re = req as RegExp;
        // A global or sticky regex carries lastIndex between calls; running it twice would differ.
        if (re.global || re.sticky) throw new Unsupported('stateful regex');
        return `${this.konst(re)}.test(${x})`;
      }
      case 'min_length':
        return `${x}.length >= ${Number(req)}`;
      case 'max_length':
        return `${x}.length <= ${Number(req)}`;
      case 'integer':
        return `Number.isInteger(${x})`;
      case 'min_value':
        return `${x} >= ${this.konst(req)}`;
      case 'max_value':
        return `${x} <= ${this.konst(req)}`;
      case 'description':
        return '';
      default:
        throw new Unsupported(`pipe action ${node.type}`);
    }
  }

  /** The expressions of a pipe's validation actions over `x` (annotations give none). */
  private pipeChecks(node: SchemaNode, x: string): string[] {
    // valibot skips a pipe's actions when an optional root has no value; not mirrored here.
    if (OPTIONAL_TYPES.has(node.pipe![0].type)) throw new Unsupported('optional pipe root');
    return node.pipe!.slice(1).map((a) => this.action(a, x)).filter((c) => c !== '');
  }

  /** A boolean expression over the variable `x` for a value that holds no names, or undefined for containers. */
  scalar(node: SchemaNode, x: string): string | undefined {
    if (node.pipe) {
      const root = this.scalar(node.pipe[0], x);
      return root === undefined ? undefined : `(${[root, ...this.pipeChecks(node, x)].join(' && ')})`;
    }
    switch (node.type) {
      case 'string':
        return `typeof ${x} === "string"`;
      case 'number':
        return `(typeof ${x} === "number" && ${x} === ${x})`;
      case 'boolean':
        return `typeof ${x} === "boolean"`;
      case 'literal':
      case 'picklist': {
        const options = node.type === 'literal' ? [node.literal] : (node.options as readonly unknown[]);
        const sources = options.map(literalSource);
        // Set membership is SameValueZero, like valibot's literal and picklist (=== differs on NaN).
        if (options.length > 4 || sources.some((s) => s === undefined)) return `${this.konst(new Set(options))}.has(${x})`;
        return `(${sources.map((s) => `${x} === ${s}`).join(' || ') || 'false'})`;
      }
      case 'union': {
        // Scalars do not depend on stripping (walkUnknown does not reach into unions anyway).
        const options = (node.options as SchemaNode[]).map((o) => this.scalar(o, x));
        if (options.some((o) => o === undefined)) return undefined;
        return `(${options.join(' || ')})`;
      }
      case 'optional': {
        const wrapped = this.scalar(node.wrapped!, x);
        if (wrapped === undefined) return undefined;
        return `(${x} === undefined ? ${this.defaultAccepted(node)} : ${wrapped})`;
      }
      default:
        return undefined;
    }
  }

  /** valibot runs the wrapped schema on an optional's default too. */
  defaultAccepted(node: SchemaNode): string {
    const fallbackValue = node.default;
    if (typeof fallbackValue === 'function') throw new Unsupported('computed default');
    if (fallbackValue === undefined) return 'true';
    return String(v.safeParse(node.wrapped as unknown as v.GenericSchema, fallbackValue).success);
  }

  /**
   * Statements that check the value in variable `x` against `node`, add its names to `n`, and run
   * `fail` when it is rejected.
   */
  check(node: SchemaNode, x: string, fail: string): string {
    const scalar = this.scalar(node, x);
    if (scalar !== undefined) return `if (!(${scalar})) ${fail}`;
    return `r = ${this.fn(node)}(${x}); if (r < 0) ${fail} n += r;`;
  }

  /** The name of a generated function `(x) => names | -1` for a container node. */
  fn(node: SchemaNode): string {
    let name = this.names.get(node);
    if (name) return name;
    name = `f${this.names.size}`;
    this.names.set(node, name);
    this.functions.push(`function ${name}(x) {\n${this.body(node)}\n}`);
    return name;
  }

  private body(node: SchemaNode): string {
    const strip = this.strip;
    if (node.pipe) {
      const checks = this.pipeChecks(node, 'x');
      const root = this.fn(node.pipe[0]);
      return `const r = ${root}(x); if (r < 0) return -1;${checks.length ? ` if (!(${checks.join(' && ')})) return -1;` : ''} return r;`;
    }
    switch (node.type) {
      case 'optional':
        return `if (x === undefined) return ${this.defaultAccepted(node)} ? 0 : -1; return ${this.fn(node.wrapped!)}(x);`;
      case 'union': {
        // Options never strip: walkUnknown does not reach into unions.
        const tries = (node.options as SchemaNode[]).map((o) => {
          const scalar = this.scalar(o, 'x');
          if (scalar !== undefined) return `if (${scalar}) return 0;`;
          return `r = ${this.konst(counterCached(o, false))}(x); if (r >= 0) return r;`;
        });
        return `let r; ${tries.join(' ')} return -1;`;
      }
      case 'lazy':
        return `return ${this.konst(lazyCounter(node.getter!, strip))}(x);`;
      case 'array':
        return [
          'if (!Array.isArray(x)) return -1;',
          'let n = 0, r;',
          'for (let i = 0; i < x.length; i++) {',
          `  const v = x[i]; ${this.check(node.item!, 'v', strip ? '{ FR.set(x, i); return -1; }' : 'return -1;')}`,
          '}',
          'return n;',
        ].join('\n');
      case 'record':
        // Arrays pass valibot's object test, but the full path reports a list where an object belongs.
        return [
          'if (typeof x !== "object" || x === null || Array.isArray(x)) return -1;',
          'let n = 0, r;',
          'for (const k in x) {',
          '  if (!hasOwn(x, k)) continue;',
          '  n++;',
          '  if (UNSAFE.has(k)) continue;',
          `  ${this.check(node.key as SchemaNode, 'k', 'return -1;')}`,
          `  const v = x[k]; ${this.check(node.value!, 'v', 'return -1;')}`,
          '}',
          'return n;',
        ].join('\n');
      case 'strict_object':
        return this.strictObject(node);
      case 'variant':
        return this.variant(node);
      default:
        throw new Unsupported(`schema type ${node.type}`);
    }
  }

  private strictObject(node: SchemaNode): string {
    const cases: string[] = [];
    let requiredCount = 0;
    for (const [key, schema] of Object.entries(node.entries!)) {
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
      cases.push(`case ${JSON.stringify(key)}: { const v = x[k]; ${this.check(judged, 'v', 'return -1;')}${required ? ' req++;' : ''} break; }`);
    }
    const unknownKey = this.strip
      ? 'if (!k.startsWith("x-")) return -1; r = namesIn(x[k], MAX_EXT); if (r < 0) return -1; n += r; break;'
      : 'return -1;';
    return [
      // As for records: an array is reported as a list where an object belongs (structure.ts).
      'if (typeof x !== "object" || x === null || Array.isArray(x)) return -1;',
      'let n = 0, req = 0, r;',
      // Parsed JSON has only own keys, so this visits exactly what the document holds.
      'for (const k in x) {',
      '  n++;',
      '  switch (k) {',
      ...cases.map((c) => `    ${c}`),
      `    default: ${unknownKey}`,
      '  }',
      '}',
      `return req === ${requiredCount} ? n : -1;`,
    ].join('\n');
  }

  /** A switch on the discriminator instead of valibot's scan over the options. */
  private variant(node: SchemaNode): string {
    const key = node.key as string;
    const seen = new Set<unknown>();
    const cases = (node.options as SchemaNode[]).map((option) => {
      const tag = option.entries?.[key];
      if (option.type !== 'strict_object' || tag?.type !== 'literal' || seen.has(tag.literal)) throw new Unsupported('variant shape');
      seen.add(tag.literal);
      const label = literalSource(tag.literal);
      if (label === undefined) throw new Unsupported('variant tag');
      return `case ${label}: return ${this.fn(option)}(x);`;
    });
    return `if (typeof x !== "object" || x === null || !(${JSON.stringify(key)} in x)) return -1;\nswitch (x[${JSON.stringify(key)}]) {\n${cases.join('\n')}\ndefault: return -1;\n}`;
  }
}

/**
 * A function from generated source. A process started with code generation from strings
 * disallowed (`--disallow-code-generation-from-strings`) cannot have one: then nothing is mirrored
 * and every document takes the full path.
 */
function generated(params: string[], source: string): (...args: unknown[]) => unknown {
  try {
    return new Function(...params, source) as (...args: unknown[]) => unknown;
  } catch (err) {
    if (err instanceof EvalError) throw new Unsupported('code generation from strings is disallowed');
    throw err;
  }
}

/** Compiles `node` into a counter: a generated unit of functions, or one expression for a scalar. */
function build(node: SchemaNode, strip: boolean): Counter {
  const unit = new Unit(strip);
  const scalar = unit.scalar(node, 'x');
  const root = scalar === undefined ? unit.fn(node) : `((x) => (${scalar} ? 0 : -1))`;
  const source = `"use strict";\n${unit.functions.join('\n')}\nreturn ${root};`;
  const factory = generated(['K', 'FR', 'UNSAFE', 'hasOwn', 'namesIn', 'MAX_EXT'], source) as (...args: unknown[]) => Counter;
  return factory(unit.consts, firstRejected, UNSAFE_RECORD_KEYS, hasOwn, namesInValue, MAX_EXTENSION_DEPTH);
}

/** The schema the getter picks for a value (steps: an action step or a flow step), compiled on first use. */
function lazyCounter(getter: (input: unknown) => SchemaNode, strip: boolean): Counter {
  let lastNode: SchemaNode | undefined;
  let lastCounter: Counter = () => -1;
  return (x) => {
    if (state.depth >= MAX_LAZY_DEPTH) return -1;
    const picked = getter(x);
    if (picked !== lastNode) {
      lastCounter = counterCached(picked, strip);
      lastNode = picked;
    }
    state.depth++;
    const names = lastCounter(x);
    state.depth--;
    return names;
  };
}

const counters = [new WeakMap<SchemaNode, Counter>(), new WeakMap<SchemaNode, Counter>()];

function counterCached(node: SchemaNode, strip: boolean): Counter {
  const cache = counters[strip ? 1 : 0];
  let counter = cache.get(node);
  if (!counter) {
    counter = build(node, strip);
    cache.set(node, counter);
  }
  return counter;
}

/** Entry points reset the lazy depth, which an exception thrown mid-walk may have left raised. */
function entry(counter: Counter): Counter {
  return (x) => {
    state.depth = 0;
    return counter(x);
  };
}

const accepts = [new WeakMap<SchemaNode, Accept>(), new WeakMap<SchemaNode, Accept>()];

/** A predicate for `node` as the full path would judge it where walkUnknown strips `x-` keys (`strip`) or not. */
export function compileCached(node: SchemaNode, strip: boolean): Accept {
  const cache = accepts[strip ? 1 : 0];
  let accept = cache.get(node);
  if (!accept) {
    const counter = entry(counterCached(node, strip));
    accept = (x) => counter(x) >= 0;
    cache.set(node, accept);
  }
  return accept;
}

/** The validation actions of a pipe as predicates, each run on a value its root schema accepted. */
export function pipeActions(node: SchemaNode): Accept[] {
  return node
    .pipe!.slice(1)
    .map((a) => {
      const unit = new Unit(false);
      const expr = unit.action(a, 'x');
      return expr === '' ? undefined : (generated(['K'], `"use strict"; return (x) => ${expr};`)(unit.consts) as Accept);
    })
    .filter((c) => c !== undefined);
}

/**
 * For `schema`: the number of property names in a parsed JSON document the full path (walkUnknown,
 * then valibot) would report no issue for, or -1 for any other document. Undefined when the schema
 * uses something not mirrored here.
 */
export function compileCounter(schema: SchemaNode): Counter | undefined {
  let counter: Counter;
  try {
    counter = entry(counterCached(schema, true));
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
  return (doc) => {
    try {
      return counter(doc);
    } catch (err) {
      // A lazy schema resolved at run time to something not mirrored: let the full path decide.
      if (err instanceof Unsupported) return -1;
      throw err;
    }
  };
}
