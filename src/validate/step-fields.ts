/**
 * A step's and an assertion's fields read once. The semantic rules look at about twenty fields of
 * every step, most of them absent; on parsed JSON objects of many shapes each such read is a slow
 * (megamorphic) lookup. Walking the object's own keys once into an object of one fixed shape makes
 * every later read a plain field load. Unknown keys are left out: no rule reads them.
 */

export type Fields<K extends string> = { readonly [P in K]: unknown };

/**
 * A reader that copies `keys` from an object into an instance of one class generated for them
 * (fields initialised in the constructor, so every instance has the same shape; keys dispatched
 * by a `switch`, as shape-accept.ts does).
 */
function fieldReader<K extends string>(keys: readonly K[]): (obj: Record<string, unknown>) => Fields<K> {
  const names = keys.map((k) => JSON.stringify(k));
  const source = `"use strict"; return class {
    constructor(obj) {
      ${names.map((k) => `this[${k}] = undefined;`).join('\n      ')}
      for (const k in obj) {
        switch (k) {
          ${names.map((k) => `case ${k}: this[${k}] = obj[k]; break;`).join('\n          ')}
        }
      }
    }
  };`;
  let Reader: new (obj: Record<string, unknown>) => Fields<K>;
  try {
    Reader = new Function(source)() as typeof Reader;
  } catch (err) {
    // Code generation from strings disallowed: the same answers from a plain object, slower.
    if (!(err instanceof EvalError)) throw err;
    return (obj) => Object.fromEntries(keys.map((k) => [k, Object.prototype.hasOwnProperty.call(obj, k) ? obj[k] : undefined])) as Fields<K>;
  }
  return (obj) => new Reader(obj);
}

const STEP_KEYS = ['id', 'action', 'description', 'target', 'target_pattern', 'value', 'clear_first', 'optional', 'on_failure', 'retry_policy', 'condition', 'wait_config', 'capture_to', 'permission_name', 'flow', 'parameters', 'sub_steps'] as const;
const ASSERTION_KEYS = ['id', 'after_step', 'type', 'description', 'element_description', 'expected_value', 'expected_substring', 'expected_text', 'label_value', 'pattern', 'variable_name', 'reference_screenshot', 'permission_name', 'condition', 'timeout_ms'] as const;

export type StepFields = Fields<(typeof STEP_KEYS)[number]>;
export type AssertionFields = Fields<(typeof ASSERTION_KEYS)[number]>;

export const readStep = fieldReader(STEP_KEYS);
const readAssertion = fieldReader(ASSERTION_KEYS);

/** An assertion's fields with its index in the list. */
export interface AssertionEntry {
  a: AssertionFields;
  index: number;
}

/** The object items of the assertion list with their index, fields read once; non-objects are skipped. */
export function assertionEntries(list: unknown): AssertionEntry[] {
  const out: AssertionEntry[] = [];
  if (!Array.isArray(list)) return out;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) out.push({ a: readAssertion(item as Record<string, unknown>), index: i });
  }
  return out;
}
