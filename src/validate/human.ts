/** Readable rendering of validation reports (`validate --human`): each problem with its source line. */
import type { ValidationIssue } from './rules.js';
import type { ValidationReport } from './validate.js';
import { suggestionAddsTo } from './suggest.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Text from the file (a key, a value, a broken line) as a terminal can show it: a control
 * character would make grep call the output binary, or (ESC) drive the terminal, and a bidi control
 * reorder the line. Each becomes one visible character, so the caret under an excerpt stays in place:
 * C0 controls their Control Pictures symbol (NUL is ␀), DEL ␡, C1 and bidi controls �. Tabs stay.
 */
const visible = (text: string): string =>
  text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd';
  });

function excerpt(lines: string[] | undefined, issue: ValidationIssue): string[] {
  const raw = lines?.[issue.line - 1];
  const source = raw === undefined ? undefined : visible(raw);
  if (source === undefined) return [];
  const gutter = String(issue.line);
  // Long minified lines are cut around the column so the caret stays visible.
  const start = source.length > 120 ? Math.max(0, issue.column - 60) : 0;
  const shown = (start > 0 ? '…' : '') + source.slice(start, start + 120);
  const caretAt = issue.column - 1 - start + (start > 0 ? 1 : 0);
  return [`    ${gutter} | ${shown}`, `    ${' '.repeat(gutter.length)} | ${under(shown.slice(0, Math.max(0, caretAt)))}^`];
}

/** East Asian wide and fullwidth characters: a terminal gives each two columns. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;
const COMBINING = /[\u0300-\u036f\u200b-\u200d\ufe0f]/;

/**
 * Blank space as wide on a terminal as `prefix`, so the caret lands under the column: a tab stays a
 * tab (JSON indented with tabs is common, and a terminal's tab width is its own), a wide character
 * or an emoji takes two columns, a combining mark none.
 */
function under(prefix: string): string {
  let out = '';
  for (const ch of prefix) {
    if (ch === '\t') out += '\t';
    else if (COMBINING.test(ch)) continue;
    else out += ch.length > 1 || WIDE.test(ch) ? '  ' : ' ';
  }
  return out;
}

function renderIssue(kind: 'error' | 'warning', issue: ValidationIssue, lines: string[] | undefined): string[] {
  const out = [`  ${kind} [${issue.rule}] ${visible(issue.path) || '/'} (line ${issue.line}, column ${issue.column})`, `    ${visible(issue.message)}`];
  out.push(...excerpt(lines, issue));
  if (suggestionAddsTo(issue.message, issue.suggestion)) out.push(`    suggestion: ${visible(issue.suggestion!)}`);
  return out;
}

export function renderHuman(report: ValidationReport, text?: string): string {
  const file = visible(report.file);
  const lines = text?.replace(/^\uFEFF/, '').split(/\r?\n/);
  const head = report.valid
    ? `valid    ${file} (schema ${visible(report.schema_version ?? '?')})${report.warnings.length ? `, ${plural(report.warnings.length, 'warning')}` : ''}`
    : `INVALID  ${file}: ${plural(report.errors.length, 'error')}${report.warnings.length ? `, ${plural(report.warnings.length, 'warning')}` : ''}`;
  const body = [...report.errors.flatMap((e) => renderIssue('error', e, lines)), ...report.warnings.flatMap((w) => renderIssue('warning', w, lines))];
  return [head, ...body].join('\n') + '\n';
}
