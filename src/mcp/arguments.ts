import { closest } from '../validate/suggest.js';
import { meantHint } from '../engine/tools/meant-name.js';
import { scalarFromText } from '../engine/tools/scalar-text.js';
import { vocabularySpelling } from '../validate/vocabulary.js';

/** A tool call's arguments as the client sent them. */
export type Args = Record<string, unknown>;

/**
 * The arguments of an MCP call judged against the tool's own JSON Schema (the subset the tools
 * use: required, type, enum, minimum, maximum, minLength, maxLength, pattern). Clients do not all validate
 * before calling, and a value the schema rules out must not be used anyway: a wait of -5 ms, a
 * number given as the text to type, or a missing direction that the verb would ask for by its scenario name.
 */

export class ArgumentError extends Error {}

interface PropertySchema {
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  description?: string;
}

/** The subset of a tool's input schema judged here. */
export interface ArgumentSchema {
  properties: Record<string, unknown>;
  required?: readonly string[];
  /** Not JSON Schema (clients refuse a top-level anyOf): at least one of these must be given. */
  oneRequired?: readonly string[];
}

const A_TYPE: Record<NonNullable<PropertySchema['type']>, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'a JSON array',
};

function hasType(value: unknown, type: PropertySchema['type']): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    default:
      return true;
  }
}

function range(p: PropertySchema): string {
  if (p.minimum !== undefined && p.maximum !== undefined) return ` from ${p.minimum} to ${p.maximum}`;
  if (p.minimum !== undefined) return ` of at least ${p.minimum}`;
  return p.maximum !== undefined ? ` of at most ${p.maximum}` : '';
}

/** What to give for a parameter, for messages: its allowed values, else its description. */
function whatToGive(p: PropertySchema): string {
  if (p.enum) return `one of ${p.enum.join(', ')}`;
  return p.description?.replace(/\.$/, '') ?? A_TYPE[p.type ?? 'string'];
}

/**
 * The allowed value `value` spells in another case ("UP" for up, "back" for BACK), or the number
 * or boolean it spells as text ("3000", "true"), else `value`. Agents do not keep to the case, and
 * many clients send every argument as a string, but everything after the check (toStep,
 * preconditions, the recorder, the validator) compares exactly and by type, so a value is used only
 * in its canonical form, and range checks judge the number.
 */
function canonical(value: unknown, p: PropertySchema): unknown {
  return p.enum ? vocabularySpelling(value, p.enum) : scalarFromText(value, p.type);
}

/** Why `value` does not fit `p`, or undefined when it does. */
function misfit(key: string, value: unknown, p: PropertySchema): string | undefined {
  const got = `(got ${JSON.stringify(value)})`;
  if (!hasType(value, p.type)) return `"${key}" must be ${A_TYPE[p.type!]}${range(p)} ${got}`;
  if (typeof value === 'number' && ((p.minimum !== undefined && value < p.minimum) || (p.maximum !== undefined && value > p.maximum))) {
    return `"${key}" must be ${A_TYPE[p.type ?? 'number']}${range(p)} ${got}`;
  }
  if (p.enum && !p.enum.includes(value)) {
    const near = typeof value === 'string' ? closest(value, p.enum.filter((e): e is string => typeof e === 'string')) : undefined;
    return `"${key}" must be one of ${p.enum.join(', ')} ${got}${near ? `; did you mean "${near}"?` : ''}`;
  }
  if (p.minLength !== undefined && typeof value === 'string' && [...value].length < p.minLength) {
    return p.minLength === 1 ? `"${key}" must not be empty: ${whatToGive(p)}` : `"${key}" must be at least ${p.minLength} characters ${got}`;
  }
  // The UTF-16 length first: a huge value is not walked character by character, nor echoed back.
  if (p.maxLength !== undefined && typeof value === 'string' && value.length > p.maxLength) {
    const count = [...value].length;
    if (count > p.maxLength) return `"${key}" must be at most ${p.maxLength} characters (got ${count}): ${whatToGive(p)}`;
  }
  if (p.pattern && typeof value === 'string' && !new RegExp(p.pattern).test(value)) return `"${key}" must match ${p.pattern} ${got}`;
  return undefined;
}

/**
 * Refuses arguments the tool does not take (its schema says additionalProperties: false: a
 * misspelt "targte" must not be dropped silently while the call goes ahead without it) and values
 * the schema rules out, and reports required ones that are absent (or null) by their own names.
 * Other absent values are left to the tool (defaults); the caller leaves out of `required` what it
 * fills in itself (the default device). Returns the arguments to use: enum values in their
 * canonical case, numbers and booleans sent as text as what they spell.
 */
export function checkArguments(schema: ArgumentSchema, given: Args): Args {
  const args = { ...given };
  const known = Object.keys(schema.properties);
  const unknown = Object.keys(args).filter((k) => !known.includes(k));
  if (unknown.length) {
    const each = unknown.map((k) => {
      return `"${k}"${meantHint(k, known)}`;
    });
    // The caller puts the tool (and device) in front of the message, so the tool is not named again here.
    throw new ArgumentError(`unknown argument${unknown.length > 1 ? 's' : ''} ${each.join(', ')}; it takes ${known.length ? known.map((k) => `"${k}"`).join(', ') : 'no arguments'}`);
  }
  const problems: string[] = [];
  const absent = (key: string) => args[key] === undefined || args[key] === null;
  for (const key of schema.required ?? []) {
    if (absent(key)) problems.push(`"${key}" is required: ${whatToGive((schema.properties[key] ?? {}) as PropertySchema)}`);
  }
  const one = schema.oneRequired;
  if (one?.length && one.every(absent)) {
    problems.push(`give ${one.map((k) => `"${k}"`).join(' or ')}: ${whatToGive(schema.properties[one[0]] as PropertySchema)}`);
  }
  for (const key of known) {
    const value = args[key];
    if (value === undefined || value === null) continue;
    const p = schema.properties[key] as PropertySchema;
    args[key] = canonical(value, p);
    const why = misfit(key, args[key], p);
    if (why) problems.push(why);
  }
  if (problems.length) throw new ArgumentError(problems.join('; '));
  return args;
}
