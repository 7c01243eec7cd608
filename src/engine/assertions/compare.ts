import { compareVersions } from '../../validate/index.js';

/** The comparison operators of conditions and counts (SPEC §3). */
export type Operator = '==' | '!=' | '>=' | '<=' | '>' | '<';

const VERSION = /^\d+(\.\d+)+$/;

/**
 * Orders two values: as dotted versions when asked ("17.5" < "17.10") or when either has two dots,
 * else numerically, else as case-insensitive text.
 */
function order(actual: unknown, expected: unknown, kind: 'auto' | 'version'): number {
  if (typeof actual === 'boolean' || typeof expected === 'boolean') {
    return String(actual).toLowerCase() === String(expected).toLowerCase() ? 0 : NaN;
  }
  const a = String(actual ?? '');
  const b = String(expected ?? '');
  const dotted = /^\d+(\.\d+)*$/;
  if ((kind === 'version' || /\..*\./.test(a) || /\..*\./.test(b)) && dotted.test(a) && dotted.test(b) && (kind === 'version' || VERSION.test(a) || VERSION.test(b))) {
    return compareVersions(a, b);
  }
  if (a.trim() !== '' && b.trim() !== '' && !Number.isNaN(Number(a)) && !Number.isNaN(Number(b))) return Number(a) - Number(b);
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la === lb ? 0 : la < lb ? -1 : 1;
}

export function compare(actual: unknown, operator: string | undefined, expected: unknown, kind: 'auto' | 'version' = 'auto'): boolean {
  const d = order(actual, expected, kind);
  switch ((operator ?? '==') as Operator) {
    case '==': return d === 0;
    case '!=': return d !== 0;
    case '>=': return d >= 0;
    case '<=': return d <= 0;
    case '>': return d > 0;
    case '<': return d < 0;
  }
  return false;
}
