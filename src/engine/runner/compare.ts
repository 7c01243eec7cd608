/** The comparison operators of conditions and counts (SPEC §3). */
export type Operator = '==' | '!=' | '>=' | '<=' | '>' | '<';

const VERSION = /^\d+(\.\d+)+$/;

function versionCompare(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

/** Orders two values: numerically, as dotted versions ("17.5" < "17.10"), or as case-insensitive text. */
function order(actual: unknown, expected: unknown): number {
  if (typeof actual === 'boolean' || typeof expected === 'boolean') {
    return String(actual).toLowerCase() === String(expected).toLowerCase() ? 0 : NaN;
  }
  const a = String(actual ?? '');
  const b = String(expected ?? '');
  if (a.trim() !== '' && b.trim() !== '' && !Number.isNaN(Number(a)) && !Number.isNaN(Number(b))) return Number(a) - Number(b);
  if (VERSION.test(a) || VERSION.test(b)) {
    if (/^\d+(\.\d+)*$/.test(a) && /^\d+(\.\d+)*$/.test(b)) return versionCompare(a, b);
  }
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  return la === lb ? 0 : la < lb ? -1 : 1;
}

export function compare(actual: unknown, operator: string | undefined, expected: unknown): boolean {
  const d = order(actual, expected);
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
