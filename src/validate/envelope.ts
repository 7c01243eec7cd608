/** The SPEC §4 envelope around validation reports, shared by the CLI, the bridge and the tests. */
import type { ValidationReport } from './validate.js';
import { CURRENT_SCHEMA_VERSION } from './vocabulary.js';

export interface MultiReport {
  valid: boolean;
  results: ValidationReport[];
}

export type Envelope =
  | { ok: true; data: ValidationReport | MultiReport; schema_version: string }
  | {
      ok: false;
      data: ValidationReport | MultiReport;
      error: { kind: 'invalid_input' | 'internal'; message: string };
      hint: string;
      schema_version: string;
    };

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The schema the envelope reports on: SPEC §4 shows a 2.1 scenario's envelope as "2.1" at both
 * levels. Files without a known `$schema_version`, or several files of different versions, were
 * judged against the newest schema, so that is the one named.
 */
function reportedVersion(list: ValidationReport[]): string {
  const versions = new Set(list.map((r) => r.schema_version));
  const [only] = versions;
  return versions.size === 1 && typeof only === 'string' ? only : CURRENT_SCHEMA_VERSION;
}

/**
 * One report gives `data` = that report; several give `data.results[]`. `internal` marks
 * failures to read input (exit code 1) as opposed to invalid scenarios (exit code 3).
 */
export function envelope(reports: ValidationReport | ValidationReport[], internal?: string): Envelope {
  const list = Array.isArray(reports) ? reports : [reports];
  const data: ValidationReport | MultiReport = Array.isArray(reports) && reports.length !== 1 ? { valid: list.every((r) => r.valid), results: list } : list[0];
  const schema_version = reportedVersion(list);
  if (internal !== undefined) {
    return { ok: false, data, error: { kind: 'internal', message: internal }, hint: 'check that every path exists and is readable', schema_version };
  }
  const invalid = list.filter((r) => !r.valid);
  if (invalid.length === 0) return { ok: true, data, schema_version };
  const errors = invalid.reduce((n, r) => n + r.errors.length, 0);
  const message =
    list.length === 1
      ? `scenario failed validation (${plural(errors, 'error')})`
      : `${plural(invalid.length, 'scenario')} of ${list.length} failed validation (${plural(errors, 'error')})`;
  return { ok: false, data, error: { kind: 'invalid_input', message }, hint: list.length === 1 ? 'see data.errors' : 'see data.results[].errors', schema_version };
}

/**
 * The envelope for a `validate` that could not start (no path, an unknown flag): SPEC §4 promises
 * one JSON object on stdout from every `validate`, so a script reading it never gets nothing.
 */
export function usageEnvelope(message: string): Envelope {
  return {
    ok: false,
    data: { valid: false, results: [] },
    error: { kind: 'invalid_input', message },
    hint: 'give one or more scenario files, folders or globs; mobilebridge validate --help lists the options',
    schema_version: CURRENT_SCHEMA_VERSION,
  };
}
