import { suggestedValue } from '../../src/validate/suggest.js';
import { CURRENT_SCHEMA_VERSION, WAIT_TYPE_OF_ACTION } from '../../src/validate/vocabulary.js';
import { offsetOf, type Issue } from './validation-summary.js';

/**
 * Quick fixes for the validator's commonest errors, chosen by the issue's rule and its suggestion
 * (never by reading the message): a misspelt key is renamed to the suggested one, a wrong value
 * replaced by the suggested one, a missing field inserted with a placeholder. Each fix edits the
 * text at the issue's line and column, keeping the author's formatting, and refuses (undefined)
 * when the text there is not what the issue describes any more.
 */

export interface QuickFix {
  kind: 'rename' | 'replace' | 'insert' | 'syntax';
  label: string;
  apply(text: string): string | undefined;
}

/** Rules whose issue points at the object that lacks a field, and which field. */
const MISSING_FIELD_RULES: Record<string, string | undefined> = {
  'required-field': undefined,
  'assertion-field-required': undefined,
  'schema-version': '$schema_version',
  'target-required': 'target',
  'value-required': 'value',
  'wait-config-required': 'wait_config',
};

/** Rules whose suggestion names a property to rename the offending one to. */
const RENAME_RULES = new Set(['unknown-property']);

const decodeSegment = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

function segments(pointer: string): string[] {
  return pointer.split('/').slice(1).map(decodeSegment);
}

interface Token {
  start: number;
  end: number;
  value: unknown;
}

/** The JSON string or primitive starting at `at`, or undefined when none does. */
function tokenAt(text: string, at: number): Token | undefined {
  if (text[at] === '"') {
    let i = at + 1;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) return undefined;
    try {
      return { start: at, end: i + 1, value: JSON.parse(text.slice(at, i + 1)) };
    } catch {
      return undefined;
    }
  }
  const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(at, at + 40));
  return m ? { start: at, end: at + m[0].length, value: JSON.parse(m[0]) } : undefined;
}

function splice(text: string, t: Token, replacement: string): string {
  return text.slice(0, t.start) + replacement + text.slice(t.end);
}

/** Adds `"key": value` as the first member of the object whose `{` is at `at`, in the object's own layout. */
function insertMember(text: string, at: number, key: string, value: unknown): string | undefined {
  if (text[at] !== '{') return undefined;
  const after = /^\s*/.exec(text.slice(at + 1))![0];
  const empty = text[at + 1 + after.length] === '}';
  const member = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
  if (after.includes('\n')) {
    const indent = after.slice(after.lastIndexOf('\n') + 1);
    const inner = empty ? `${indent}  ` : indent;
    return `${text.slice(0, at + 1)}\n${inner}${member}${empty ? '' : ','}${text.slice(at + 1)}`;
  }
  return `${text.slice(0, at + 1)}${member}${empty ? '' : ', '}${text.slice(at + 1)}`;
}

/** The document, when it parses: some placeholders depend on it (a step's action, the last step id). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function at(doc: unknown, path: string[]): unknown {
  let node = doc;
  for (const key of path) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

/** A value that passes the field's own checks, for the author to overwrite. */
function placeholder(key: string, owner: string[], text: string): unknown {
  const inAssertion = owner[0] === 'assertions';
  const index = owner.filter((s) => /^\d+$/.test(s)).join('_') || '1';
  switch (key) {
    case '$schema_version': return CURRENT_SCHEMA_VERSION;
    case 'scenario_id': return 'my_scenario';
    case 'name': return 'My scenario';
    case 'description': return owner.length === 0 ? 'What this scenario checks' : inAssertion ? 'What this checks' : 'What this step does';
    case 'platform': return 'android';
    case 'app_package': return 'com.example.app';
    case 'metadata': return { app_version: '1.0.0', environment: 'development' };
    case 'app_version': return '1.0.0';
    case 'environment': return 'development';
    case 'steps': return [{ id: 'launch', action: 'launch_app', description: 'Start the app' }];
    case 'assertions': return [];
    case 'id': return inAssertion ? `check_${index}` : `step_${index}`;
    case 'action': return 'launch_app';
    case 'type': return inAssertion ? 'element_visible' : undefined;
    case 'target': return 'the element to act on';
    case 'value': return 'text to type';
    case 'element_description': return 'the element to check';
    case 'expected_value':
    case 'expected_text':
    case 'expected_substring': return 'expected text';
    case 'label_value': return 'accessibility label';
    case 'expected_count': return 1;
    case 'state_property': return 'enabled';
    case 'expected_visual_state': return 'loaded';
    case 'expected_theme': return 'light';
    case 'pattern': return '.+';
    case 'color_hex': return '#000000';
    case 'timeout_ms': return 10_000;
    case 'after_step': {
      const steps = at(parsed(text), ['steps']);
      const last = Array.isArray(steps) ? (steps.at(-1) as { id?: unknown } | undefined)?.id : undefined;
      return typeof last === 'string' ? last : undefined;
    }
    case 'wait_config': {
      const action = (at(parsed(text), owner) as { action?: unknown } | undefined)?.action;
      return { type: WAIT_TYPE_OF_ACTION[String(action)] ?? 'element_visible', timeout_ms: 10_000 };
    }
    default: return undefined;
  }
}

function renameFix(issue: Issue, to: string): QuickFix {
  const from = segments(issue.path!).at(-1)!;
  return {
    kind: 'rename',
    label: `Rename "${from}" to "${to}"`,
    apply: (text) => {
      const t = tokenAt(text, offsetOf(text, issue.line!, issue.column!));
      return t && t.value === from ? splice(text, t, JSON.stringify(to)) : undefined;
    },
  };
}

function replaceFix(issue: Issue, to: string | number): QuickFix {
  return {
    kind: 'replace',
    label: `Replace with ${JSON.stringify(to)}`,
    apply: (text) => {
      const t = tokenAt(text, offsetOf(text, issue.line!, issue.column!));
      return t && typeof t.value === typeof to ? splice(text, t, JSON.stringify(to)) : undefined;
    },
  };
}

function insertFix(issue: Issue, key: string, value: unknown): QuickFix {
  return {
    kind: 'insert',
    label: `Add "${key}"`,
    apply: (text) => insertMember(text, offsetOf(text, issue.line!, issue.column!), key, value),
  };
}

/** Index of the last non-blank character before `at`, or -1. */
function previousNonBlank(text: string, at: number): number {
  let i = at - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i;
}

/**
 * The two JSON slips hand-written scenarios make most, read from the text at the error's position
 * (the parser stops right there): a comma before a closing bracket, and no comma between two members.
 */
function syntaxFix(issue: Issue, text: string, offset: number): QuickFix | undefined {
  const before = previousNonBlank(text, offset);
  if (before < 0) return undefined;
  const at = (t: string) => offsetOf(t, issue.line!, issue.column!);
  if ((text[offset] === '}' || text[offset] === ']') && text[before] === ',') {
    return {
      kind: 'syntax',
      label: 'Remove the trailing comma',
      apply: (t) => {
        const comma = previousNonBlank(t, at(t));
        return t[comma] === ',' ? t.slice(0, comma) + t.slice(comma + 1) : undefined;
      },
    };
  }
  if ((text[offset] === '"' || text[offset] === '{') && /["\d}\]el]/.test(text[before])) {
    return {
      kind: 'syntax',
      label: 'Insert the missing comma',
      apply: (t) => {
        const end = previousNonBlank(t, at(t));
        return end >= 0 && /["\d}\]el]/.test(t[end]) ? `${t.slice(0, end + 1)},${t.slice(end + 1)}` : undefined;
      },
    };
  }
  return undefined;
}

/** The fix for one issue, or undefined when there is no safe one. */
export function quickFixFor(issue: Issue, text: string): QuickFix | undefined {
  if (issue.severity !== 'error' || issue.line === undefined || issue.column === undefined || issue.path === undefined || !issue.rule) return undefined;
  const path = segments(issue.path);
  const offset = offsetOf(text, issue.line, issue.column);
  const to = suggestedValue(issue.suggestion);
  if (issue.rule === 'json-syntax') return syntaxFix(issue, text, offset);
  if (RENAME_RULES.has(issue.rule)) return typeof to === 'string' ? renameFix(issue, to) : undefined;
  if (issue.rule in MISSING_FIELD_RULES && text[offset] === '{') {
    const named = MISSING_FIELD_RULES[issue.rule];
    const key = named ?? path.at(-1);
    if (!key) return undefined;
    const owner = named && path.at(-1) !== named ? path : path.slice(0, -1);
    const value = placeholder(key, owner, text);
    return value === undefined ? undefined : insertFix(issue, key, value);
  }
  if (issue.rule === 'schema-version') return tokenAt(text, offset) ? replaceFix(issue, CURRENT_SCHEMA_VERSION) : undefined;
  if (to !== undefined && tokenAt(text, offset)) return replaceFix(issue, to);
  return undefined;
}

/**
 * Fixes for a whole list. Where a misspelt key is renamed to K, the "K is missing" error in the same
 * object gets that rename too, not an insert: renaming "descripton" provides "description", and
 * adding both would duplicate it.
 */
export function quickFixes(issues: readonly Issue[], text: string): Map<Issue, QuickFix> {
  const fixes = new Map<Issue, QuickFix>();
  const renames = new Map<string, QuickFix>();
  for (const issue of issues) {
    const fix = quickFixFor(issue, text);
    if (!fix) continue;
    fixes.set(issue, fix);
    if (fix.kind === 'rename') {
      const to = String(suggestedValue(issue.suggestion));
      renames.set(`${issue.path!.slice(0, issue.path!.lastIndexOf('/'))}/${to.replace(/~/g, '~0').replace(/\//g, '~1')}`, fix);
    }
  }
  for (const issue of issues) {
    const rename = renames.get(issue.path ?? '');
    if (rename && issue.rule && issue.rule in MISSING_FIELD_RULES) fixes.set(issue, rename);
  }
  return fixes;
}
