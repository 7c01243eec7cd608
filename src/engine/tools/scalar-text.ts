/**
 * Numbers and booleans written as strings. Many model clients send every argument as text
 * ("3000", "0.5", "true"), so a parameter that wants a number or a boolean takes a string that is
 * exactly the JSON spelling of one. Nothing looser: "12px", " 1", "", "NaN" and "1e400" (out of
 * range) stay strings, and the check refuses them as before, so a value is never guessed.
 */

/** JSON's number grammar, whole string: no sign "+", no leading zeros, no spaces, no hex. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * `value` as the number or boolean it spells when the parameter wants one (`wanted`: the JSON
 * Schema or valibot type name, "number", "integer" or "boolean"), else `value` unchanged.
 */
export function scalarFromText(value: unknown, wanted: string | undefined): unknown {
  if (typeof value !== 'string') return value;
  if (wanted === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  if (wanted !== 'number' && wanted !== 'integer') return value;
  if (!JSON_NUMBER.test(value)) return value;
  const number = Number(value);
  return Number.isFinite(number) ? number : value;
}
