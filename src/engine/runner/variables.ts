import { UNFILLED_CONDITION_FIELDS, UNFILLED_FIELDS, type VariableDeclaration } from '../../validate/index.js';
import { VerbError } from '../verbs/index.js';

export type VariableValue = string | number | boolean | null;

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** Replaces `${name}` with the captured value; `$${` stays a literal `${` (SPEC §3). */
export function interpolate(text: string, values: Record<string, VariableValue>): string {
  return text.replace(REFERENCE, (_match, name: string | undefined) => {
    if (name === undefined) return '${';
    // Own names only: "toString" is not a declared variable because every object has one.
    if (!Object.hasOwn(values, name)) throw new VerbError('INVALID_PARAMETER', `\${${name}} is not a declared variable; declare it under "variables"`);
    const value = values[name];
    if (value === null) throw new VerbError('INVALID_PARAMETER', `\${${name}} has no value yet: no capture_value step has filled it before this point`);
    return String(value);
  });
}

/**
 * Fills in the references to `values` only, leaving any other `${name}` (and `$${`) as written:
 * what a run knows of a text before it starts (parameters, not yet captured variables).
 */
export function interpolateKnown(text: string, values: Record<string, string>): string {
  return text.replace(REFERENCE, (match, name: string | undefined) => (name !== undefined && Object.hasOwn(values, name) ? values[name] : match));
}

/** A description: `$${` is a literal `${`, the names with a value are filled in, any other `${name}` stays as written. */
function interpolateProse(text: string, values: Record<string, VariableValue>): string {
  return text.replace(REFERENCE, (match, name: string | undefined) => (name === undefined ? '${' : Object.hasOwn(values, name) && values[name] !== null ? String(values[name]) : match));
}

/** Interpolates every string property of a step or assertion (not nested sub_steps: they get theirs when they run). */
export function interpolateFields<T extends object>(item: T, values: Record<string, VariableValue>, skip: readonly string[] = UNFILLED_FIELDS): T {
  const out = { ...item } as Record<string, unknown>;
  for (const [k, v] of Object.entries(out)) {
    // `x-` keys belong to other tools: their text is left as written.
    if (skip.includes(k) || k.startsWith('x-')) continue;
    // A description is prose: what is known is filled in, any other `${…}` stays as written (the validator agrees).
    if (typeof v === 'string') out[k] = k === 'description' ? interpolateProse(v, values) : interpolate(v, values);
    else if (k === 'condition' && v && typeof v === 'object') out[k] = interpolateFields(v as object, values, UNFILLED_CONDITION_FIELDS);
  }
  return out as T;
}

const NUMBER_IN_TEXT = /[-+]?\d[\d,]*(?:\.\d+)?|[-+]?\.\d+/;
const TRUE_WORDS = new Set(['true', 'yes', 'on', '1', 'checked', 'enabled', 'selected']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', 'unchecked', 'disabled', 'not selected']);

/**
 * The captured text as the declared type. Numbers are taken from the first number in the
 * text ("Total: 1,234.50" → 1234.5), since screens rarely show bare numbers.
 */
export function coerce(raw: string, declaration: VariableDeclaration | undefined, name: string): VariableValue {
  const type = declaration?.type ?? 'string';
  const text = raw.trim();
  switch (type) {
    case 'string':
      return raw;
    case 'integer':
    case 'number': {
      const m = NUMBER_IN_TEXT.exec(text);
      if (!m) throw new VerbError('INVALID_PARAMETER', `cannot store ${JSON.stringify(raw)} in ${name} (${type}): the text holds no number`);
      const n = Number(m[0].replace(/,/g, ''));
      if (type === 'integer' && !Number.isInteger(n)) throw new VerbError('INVALID_PARAMETER', `cannot store ${JSON.stringify(raw)} in ${name} (integer): ${m[0]} is not a whole number; declare the variable as number`);
      return n;
    }
    case 'boolean': {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      throw new VerbError('INVALID_PARAMETER', `cannot store ${JSON.stringify(raw)} in ${name} (boolean): expected true/false, yes/no, on/off or 1/0`);
    }
  }
}
