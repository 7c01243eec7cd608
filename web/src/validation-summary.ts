/**
 * Reads the SPEC §4 validation envelope (as `scenarios.validate` answers it) into what the
 * validator panel shows. Pure; tolerant of shapes it does not know, so a newer bridge still
 * shows something sensible.
 */

export interface Issue {
  severity: 'error' | 'warning';
  line?: number;
  column?: number;
  path?: string;
  rule?: string;
  message: string;
  suggestion?: string;
}

export interface ValidationSummary {
  valid: boolean;
  headline: string;
  issues: Issue[];
}

function issuesOf(list: unknown, severity: Issue['severity']): Issue[] {
  if (!Array.isArray(list)) return [];
  return list.map((raw): Issue => {
    const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    return {
      severity,
      line: typeof r.line === 'number' ? r.line : undefined,
      column: typeof r.column === 'number' ? r.column : undefined,
      path: typeof r.path === 'string' ? r.path : undefined,
      rule: typeof r.rule === 'string' ? r.rule : undefined,
      message: typeof r.message === 'string' ? r.message : JSON.stringify(raw),
      suggestion: typeof r.suggestion === 'string' ? r.suggestion : undefined,
    };
  });
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export function summarizeEnvelope(envelope: unknown): ValidationSummary {
  const env = (typeof envelope === 'object' && envelope !== null ? envelope : {}) as Record<string, unknown>;
  const data = (typeof env.data === 'object' && env.data !== null ? env.data : {}) as Record<string, unknown>;
  const errors = issuesOf(data.errors, 'error');
  const warnings = issuesOf(data.warnings, 'warning');
  const issues = [...errors, ...warnings].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  const valid = env.ok === true && data.valid !== false;
  const error = env.error as { kind?: string; message?: string } | undefined;
  if (error?.kind === 'internal') return { valid: false, headline: `The validator failed: ${error.message ?? 'unknown error'}`, issues };
  const headline = valid
    ? `Valid${typeof data.schema_version === 'string' ? ` (schema ${data.schema_version})` : ''}${warnings.length ? `, ${plural(warnings.length, 'warning')}` : ''}`
    : `Invalid: ${plural(errors.length, 'error')}${warnings.length ? `, ${plural(warnings.length, 'warning')}` : ''}`;
  return { valid, headline, issues };
}

/** Offset in `text` of a 1-based line and column, for putting the cursor on an error. */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  const lineEnd = text.indexOf('\n', offset);
  const end = lineEnd < 0 ? text.length : lineEnd;
  return Math.min(offset + Math.max(0, column - 1), end);
}
