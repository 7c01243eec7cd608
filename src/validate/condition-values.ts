/**
 * `condition-value`: a condition value or operator that can never mean what the author wrote.
 * SPEC §3 gives conditions a `value` of no fixed type, and the runner compares loosely (numbers as
 * numbers even when quoted, text case-insensitively, booleans by their spelling), so only what
 * that comparison cannot make sense of is reported: "high" for an api_level, "windows" for a
 * platform, an integer variable against "a dozen", ">" between words.
 */
import { type Context, report } from './context.js';
import { NETWORK_STATES, ORDERING_OPERATORS } from './vocabulary.js';

const NUMERIC_PROPERTIES: ReadonlySet<string> = new Set(['api_level', 'screen_width', 'screen_height', 'os_version']);
/** Properties whose value must be a number (os_version is a dotted version, compared as one). */
const NUMBER_PROPERTIES: ReadonlySet<string> = new Set(['api_level', 'screen_width', 'screen_height']);
const PROPERTY_VALUES: Record<string, readonly (string | boolean)[]> = {
  platform: ['android', 'ios'],
  orientation: ['portrait', 'landscape'],
  network: NETWORK_STATES,
  dark_mode: [true, false],
};

/** A number, or text the runner reads as one ("33"). */
function numeric(value: unknown): boolean {
  return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)));
}

/** Equal the way the runner compares: case-insensitive text, `true` = "true". */
function sameWord(a: unknown, b: unknown): boolean {
  return String(a).toLowerCase() === String(b).toLowerCase();
}

/** A value holding a `${name}` reference is only known at run time. */
function referenced(value: unknown): boolean {
  return typeof value === 'string' && /(?:^|[^$])\$\{/.test(value);
}

const ordering = (operator: unknown): boolean => typeof operator === 'string' && ORDERING_OPERATORS.has(operator);

export function checkPropertyValue(ctx: Context, prop: string, cond: Record<string, unknown>, p: string): void {
  const allowed = PROPERTY_VALUES[prop];
  const value = referenced(cond.value) ? undefined : cond.value;
  if (allowed && value !== undefined && !allowed.some((a) => sameWord(a, value))) {
    report(ctx, `${p}/value`, 'condition-value', `${prop} is never ${JSON.stringify(value)}; compare it with one of: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
  } else if (NUMBER_PROPERTIES.has(prop) && value !== undefined && !numeric(value)) {
    report(ctx, `${p}/value`, 'condition-value', `${prop} is a number, so ${JSON.stringify(value)} never compares with it; give a number, e.g. 33`);
  }
  if (ordering(cond.operator) && !NUMERIC_PROPERTIES.has(prop)) {
    report(ctx, `${p}/operator`, 'condition-value', `operator ${cond.operator as string} cannot order ${prop}; use == or !=`);
  }
}

/** `type` is the declared type of the variable (string, integer, number, boolean). */
export function checkVariableValue(ctx: Context, name: string, type: string, cond: Record<string, unknown>, p: string): void {
  const value = cond.value;
  const number = type === 'integer' || type === 'number';
  if (value !== undefined && !referenced(value)) {
    const fits = number ? numeric(value) : type === 'boolean' ? typeof value === 'boolean' || sameWord(value, true) || sameWord(value, false) : true;
    if (!fits) {
      report(ctx, `${p}/value`, 'condition-value', `value ${JSON.stringify(value)} cannot be compared with ${type} variable "${name}"; give a ${number ? 'number' : 'boolean'}`);
      return;
    }
  }
  // Text is ordered only when both sides are numbers ("5" > 3); words have no order a test means.
  if (!number && ordering(cond.operator) && !(type === 'string' && (numeric(value) || referenced(value)))) {
    report(ctx, `${p}/operator`, 'condition-value', `operator ${cond.operator as string} needs numbers, and "${name}" is a ${type} variable compared with ${JSON.stringify(value)}; use == or !=, or declare "${name}" as integer or number`);
  }
}
