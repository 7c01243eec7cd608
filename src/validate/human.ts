/** Readable rendering of validation reports (`validate --human`): each problem with its source line. */
import type { ValidationIssue } from './rules.js';
import type { ValidationReport } from './validate.js';
import { suggestionAddsTo } from './suggest.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function excerpt(lines: string[] | undefined, issue: ValidationIssue): string[] {
  const source = lines?.[issue.line - 1];
  if (source === undefined) return [];
  const gutter = String(issue.line);
  // Long minified lines are cut around the column so the caret stays visible.
  const start = source.length > 120 ? Math.max(0, issue.column - 60) : 0;
  const shown = (start > 0 ? '…' : '') + source.slice(start, start + 120);
  const caretAt = issue.column - 1 - start + (start > 0 ? 1 : 0);
  return [`    ${gutter} | ${shown}`, `    ${' '.repeat(gutter.length)} | ${' '.repeat(Math.max(0, caretAt))}^`];
}

function renderIssue(kind: 'error' | 'warning', issue: ValidationIssue, lines: string[] | undefined): string[] {
  const out = [`  ${kind} [${issue.rule}] ${issue.path || '/'} (line ${issue.line}, column ${issue.column})`, `    ${issue.message}`];
  out.push(...excerpt(lines, issue));
  if (suggestionAddsTo(issue.message, issue.suggestion)) out.push(`    suggestion: ${issue.suggestion}`);
  return out;
}

export function renderHuman(report: ValidationReport, text?: string): string {
  const lines = text?.replace(/^\uFEFF/, '').split(/\r?\n/);
  const head = report.valid
    ? `valid    ${report.file} (schema ${report.schema_version ?? '?'})${report.warnings.length ? `, ${plural(report.warnings.length, 'warning')}` : ''}`
    : `INVALID  ${report.file}: ${plural(report.errors.length, 'error')}${report.warnings.length ? `, ${plural(report.warnings.length, 'warning')}` : ''}`;
  const body = [...report.errors.flatMap((e) => renderIssue('error', e, lines)), ...report.warnings.flatMap((w) => renderIssue('warning', w, lines))];
  return [head, ...body].join('\n') + '\n';
}
