import * as v from 'valibot';
import { meantHint } from './meant-name.js';

/**
 * Parameter building blocks. Every message names the parameter and what is allowed,
 * because the reader is often an agent that will retry with what the message says.
 */
// Descriptions go into the JSON Schema of tools.list, so a client (a model) reads what each parameter means.
/** Missing and null read alike: agents send null for a parameter they mean to leave out, required or not. */
export const absent = (input: unknown): boolean => input === undefined || input === null;

export const device = v.pipe(
  v.string((issue) => `device ${absent(issue.input) ? 'is required' : 'must be a string'}: a device id from mobile_list_available_devices`),
  v.minLength(1, 'device must not be empty: pass a device id from mobile_list_available_devices'),
  v.description('Device id from mobile_list_available_devices, e.g. "virtual-android-1" or an adb serial.'),
);

// Validated before any driver sees it so a package name can never smuggle shell syntax (SPEC §7).
export const PACKAGE_RE = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/;
export function packageName(param: string) {
  return v.pipe(
    v.string((issue) => `${param} ${absent(issue.input) ? 'is required' : 'must be a string'}: an Android package name or iOS bundle id such as com.example.app`),
    v.regex(
      PACKAGE_RE,
      (issue) =>
        `${param} ${JSON.stringify(issue.input)} is not a valid package name or bundle id: use letters, digits, '_', '-' and at least one dot, e.g. com.example.app`,
    ),
    v.description('Android package name or iOS bundle id, e.g. "com.example.app" (mobile_list_apps lists them).'),
  );
}

export function coordinate(param: 'x' | 'y') {
  return v.pipe(
    v.number((issue) => (absent(issue.input) ? `${param} is required: device pixels from the ${param === 'x' ? 'left' : 'top'} edge` : `${param} must be a number of device pixels`)),
    v.finite(`${param} must be a finite number of device pixels`),
    v.minValue(0, `${param} must be ≥ 0 (device pixels from the ${param === 'x' ? 'left' : 'top'} edge)`),
    v.description(`Device pixels from the ${param === 'x' ? 'left' : 'top'} edge, e.g. an element's center from mobile_list_elements_on_screen.`),
  );
}

export function oneOf<const T extends readonly string[]>(param: string, values: T, description: string) {
  return v.pipe(
    v.picklist(values, (issue) =>
      absent(issue.input)
        ? `${param} is required: one of ${values.join(', ')}`
        : `${param} must be one of ${values.join(', ')} (got ${JSON.stringify(issue.input)})`,
    ),
    v.description(description),
  );
}

export function requiredString(param: string, what: string) {
  return v.pipe(
    v.string((issue) => (absent(issue.input) ? `${param} is required: ${what}` : `${param} must be a string: ${what}`)),
    v.minLength(1, `${param} must not be empty: ${what}`),
    v.description(what.charAt(0).toUpperCase() + what.slice(1) + '.'),
  );
}

/** Objects reject unknown keys so a misspelled parameter is reported, not silently ignored. */
export function params<const E extends v.ObjectEntries>(entries: E) {
  const allowed = Object.keys(entries).join(', ') || '(none)';
  return v.strictObject(entries, (issue) => {
    const key = issue.path?.length ? String(issue.path[issue.path.length - 1].key) : undefined;
    if (key !== undefined && issue.expected === 'never') return `unknown parameter ${JSON.stringify(key)}${meantHint(key, Object.keys(entries))}; allowed parameters: ${allowed}`;
    if (key !== undefined && key in entries) {
      // A missing key: let the entry's own schema say what it wants.
      const own = v.safeParse(entries[key], undefined);
      const said = own.success ? '' : own.issues[0].message;
      if (said.includes('required')) return said;
      const what = said.replace(new RegExp(`^${key} must be [^:]*: `), '');
      return `${key} is required${what ? `: ${what}` : ''}`;
    }
    return `parameters must be a JSON object with: ${allowed}`;
  });
}

export interface ParamIssue {
  /** Dotted path of the parameter, '' for the whole object. */
  path: string;
  message: string;
}

/** "a string", "an object"; anything else (a literal, a union) as valibot wrote it. */
function withArticle(expected: string | null): string {
  if (expected === null || !/^[a-z]+$/i.test(expected)) return String(expected);
  return `${/^[aeiou]/i.test(expected) ? 'an' : 'a'} ${expected.toLowerCase()}`;
}

/**
 * Turns valibot issues into one line per offending parameter. Shared by the engine's tool
 * parameters and the bridge's JSON-RPC params, so both speak about bad input the same way.
 */
export function paramIssues(issues: readonly v.BaseIssue<unknown>[]): ParamIssue[] {
  return issues.map((issue) => {
    const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    let message = issue.message;
    if (issue.expected === 'never' && path && !message.startsWith('unknown parameter')) message = `unknown parameter "${path}"`;
    // valibot's own wording ("Invalid key: Expected "tool" but received undefined") where a schema has none of ours.
    else if (issue.input === undefined && issue.kind === 'schema' && path && message.startsWith('Invalid key:')) message = `${path} is required`;
    else if (issue.input === undefined && issue.kind === 'schema' && path && !message.includes('required')) message = `${path} is required: ${message}`;
    else if (path && message.startsWith('Invalid type: Expected ')) message = `${path} must be ${withArticle(issue.expected)}, not ${issue.received}`;
    return { path, message };
  });
}

export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return paramIssues(issues)
    .map((i) => i.message)
    .join('; ');
}

/**
 * The call a parameter message is about: the tool, and the device when the call names one, so an
 * agent driving several phones knows which of its calls failed.
 */
export function callName(tool: string, device: unknown): string {
  return typeof device === 'string' && device !== '' ? `${tool} on ${device}` : tool;
}
