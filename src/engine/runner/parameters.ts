/**
 * Run-time parameters of schema 2.2 (SPEC §8): where their values come from, and the masking of
 * secret values in everything a run writes or says.
 */
import type { Parameters } from '../../validate/index.js';

/** Where parameter values come from, strongest first: `given` (--param), `file` (--params-file), `env` (MB_PARAM_<NAME>). */
export interface ParameterSources {
  given?: Record<string, string>;
  file?: Record<string, string>;
  env?: Record<string, string | undefined>;
  /**
   * How the run's caller gives a value to `name`, for the message when one is missing: the CLI's
   * flags and environment by default; a run through the bridge has only scenarios.run's
   * `parameters` (it reads neither flags nor the bridge's environment).
   */
  howToGive?: (name: string) => string;
}

export const ENV_PREFIX = 'MB_PARAM_';
export const MASK = '•••';

export interface ResolvedParameters {
  values: Record<string, string>;
  /** Declared names that got no value from anywhere, in declaration order. */
  missing: string[];
  /** Values of the parameters declared secret. */
  secrets: string[];
}

/**
 * Values for declared parameters. `passed` (a flow step's `parameters`) outranks the run's
 * sources; then `--param`, `--params-file`, the environment, and the declaration's `default`.
 */
export function resolveParameters(declared: Parameters | undefined, sources: ParameterSources = {}, passed: Record<string, string> = {}): ResolvedParameters {
  const values: Record<string, string> = {};
  const missing: string[] = [];
  const secrets: string[] = [];
  for (const [name, decl] of Object.entries(declared ?? {})) {
    // An empty variable is what CI gives for a secret that is not configured (`${{ secrets.X }}`):
    // typing an empty password would run the scenario on a value nobody gave, so it is not a value.
    const env = sources.env?.[`${ENV_PREFIX}${name}`] || undefined;
    const value = passed[name] ?? sources.given?.[name] ?? sources.file?.[name] ?? env ?? decl.default;
    if (value === undefined) {
      missing.push(name);
      continue;
    }
    values[name] = value;
    if (decl.secret) secrets.push(value);
  }
  return { values, missing, secrets };
}

/** Letters and digits: a short secret next to one of them is part of a longer word, not the secret. */
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;
const inWord = (s: string, at: number): boolean => at >= 0 && at < s.length && WORD_CHARACTER.test(s[at]);

/**
 * Replaces every secret value with ••• in text and in JSON-like values (never in names: the
 * result document's keys stay as they are). Longer secrets go first so that a secret containing
 * another is masked whole. A secret of `WHOLE_LENGTH` characters or more is masked wherever it
 * occurs; a shorter one only where it stands alone, not inside a longer word, because a secret
 * "x" or "pass" would otherwise garble every message ("te•••t") and status ("•••ed") of the run
 * (GitLab refuses to mask values under 8 characters for the same reason). Strings longer than
 * `MAX_SCANNED` (images as base64) are left alone: a short secret could occur in them by chance,
 * and masking would corrupt them.
 */
export class SecretMask {
  private values: string[] = [];
  static readonly MAX_SCANNED = 64 * 1024;
  static readonly WHOLE_LENGTH = 8;
  /** A secret this long or longer (a 4-digit PIN) is masked anywhere inside what the run quotes from the screen. */
  static readonly QUOTED_LENGTH = 4;

  add(...secrets: string[]): void {
    for (const s of secrets) if (s !== '') for (const form of shownForms(s)) if (!this.values.includes(form)) this.values.push(form);
    this.values.sort((a, b) => b.length - a.length);
  }

  get active(): boolean {
    return this.values.length > 0;
  }

  /**
   * Whether a secret occurs anywhere in `s`, inside a longer word too. Stricter than `text()` on
   * purpose: for what is simply left out rather than shown masked (the resolution cache) being
   * strict costs nothing a person sees.
   */
  occursIn(s: string): boolean {
    return this.values.some((secret) => s.includes(secret));
  }

  text(s: string): string {
    if (!this.values.length || s.length > SecretMask.MAX_SCANNED) return s;
    let out = s;
    for (const secret of this.values) {
      if (!out.includes(secret)) continue;
      if (secret.length >= SecretMask.WHOLE_LENGTH) out = out.split(secret).join(MASK);
      else {
        out = maskAlone(out, secret);
        if (secret.length >= SecretMask.QUOTED_LENGTH && out.includes(secret)) out = maskQuoted(out, secret);
      }
    }
    return out.includes(CLIPPED) ? this.maskClipped(out) : out;
  }

  /**
   * A value shown as it is (a captured text, an assertion's expected or actual value, a resolved
   * element's text): a secret of QUOTED_LENGTH or more inside it is masked wherever it is, as inside
   * quotes ("ref482915": a PIN typed after other text).
   */
  shownValue(s: string): string {
    if (!this.values.length || s.length > SecretMask.MAX_SCANNED) return s;
    let out = s;
    for (const secret of this.values) if (secret.length >= SecretMask.QUOTED_LENGTH && out.includes(secret)) out = out.split(secret).join(MASK);
    return this.text(out);
  }

  /**
   * Messages name what a screen shows cut to a few dozen characters (`"correct-horse-battery-st…"`
   * for a field holding a long secret): a start of a secret right before the ellipsis is masked
   * with it. Glued to a longer word, only a start of 4 characters or more of a long secret counts,
   * as for whole secrets: the cut words of ordinary messages would otherwise turn to •••.
   */
  private maskClipped(text: string): string {
    let out = '';
    let from = 0;
    for (let at = text.indexOf(CLIPPED); at !== -1; at = text.indexOf(CLIPPED, at + 1)) {
      let cut = 0;
      for (const secret of this.values) {
        for (let k = Math.min(secret.length - 1, at - from); k > cut; k--) {
          if (!text.startsWith(secret.slice(0, k), at - k)) continue;
          if (!inWord(text, at - k - 1) || (k >= 4 && secret.length >= SecretMask.WHOLE_LENGTH)) cut = k;
          break;
        }
      }
      if (!cut) continue;
      out += text.slice(from, at - cut) + MASK;
      from = at + CLIPPED.length;
    }
    return out + text.slice(from);
  }

  /** A masked copy; objects and arrays are copied only when something in them changed. */
  deep<T>(value: T): T {
    if (!this.values.length) return value;
    return this.walk(value) as T;
  }

  /** Masks the strings of an object tree in place (the result document the run keeps building). */
  inPlace(value: object, shown = false): void {
    if (!this.values.length) return;
    const entries = Array.isArray(value) ? value.entries() : Object.entries(value);
    for (const [k, v] of entries) {
      const inner = shown || SHOWN_VALUES.has(String(k));
      if (typeof v === 'string') (value as Record<string | number, unknown>)[k] = inner ? this.shownValue(v) : this.text(v);
      else if (v && typeof v === 'object') this.inPlace(v, inner);
    }
  }

  private walk(value: unknown, shown = false): unknown {
    if (typeof value === 'string') return shown ? this.shownValue(value) : this.text(value);
    if (Array.isArray(value)) {
      const out = value.map((v) => this.walk(v, shown));
      return out.some((v, i) => v !== value[i]) ? out : value;
    }
    if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        out[k] = this.walk(v, shown || SHOWN_VALUES.has(k));
        if (out[k] !== v) changed = true;
      }
      return changed ? out : value;
    }
    return value;
  }
}

const CLIPPED = '…';

/** Keys whose values are texts from the screen or typed into it, never words of ours (see shownValue). */
const SHOWN_VALUES: ReadonlySet<string> = new Set(['captured_variables', 'expected', 'actual', 'text']);

/**
 * The ways a secret reaches a message besides as it is: quoted with JSON.stringify (a `"` or `\`
 * in it escaped), and with its runs of white space made one space (what a listing's text becomes
 * when a message names it on one line).
 */
function shownForms(secret: string): string[] {
  const oneLine = secret.replace(/\s+/g, ' ').trim();
  // Percent-encoded, as an address bar shows a secret typed into a URL (`qa:S3cure%40Pass@host`), and
  // with + for spaces as forms send it; and as each part of a URL serialises it (urlForms).
  let encoded: string[] = [];
  try {
    const e = encodeURIComponent(secret);
    encoded = [e, e.replace(/%20/g, '+')];
  } catch {
    // A lone surrogate has no percent-encoding: no address bar shows one either.
  }
  const forms = [secret, oneLine, ...encoded, ...urlForms(secret)].flatMap((f) => [f, JSON.stringify(f).slice(1, -1)]);
  return [...new Set(forms)].filter((f) => f !== '');
}

/**
 * The secret as a browser's address bar (and the virtual browser, `new URL(raw).href`) shows it
 * inside a URL: the WHATWG URL serialisation percent-encodes each component with its own set
 * (userinfo encodes `@ : / ; =` but not `& + $ , '`; a query `'` but not `& @`), which
 * encodeURIComponent matches for none of them. Read back from a scratch URL; also as a form
 * field (URLSearchParams encodes `! ' ( ) ~` too).
 */
function urlForms(secret: string): string[] {
  const forms: string[] = [];
  const read = (base: string, set: (u: URL) => void, get: (u: URL) => string) => {
    try {
      const u = new URL(base);
      set(u);
      forms.push(get(u));
    } catch {
      // Nothing to add: no URL holds it this way.
    }
  };
  for (const base of ['https://host/', 'x-scheme://host/']) {
    read(base, (u) => (u.username = secret), (u) => u.username);
    read(base, (u) => (u.password = secret), (u) => u.password);
    read(base, (u) => (u.search = `?${secret}`), (u) => u.search.slice(1));
    read(base, (u) => (u.hash = `#${secret}`), (u) => u.hash.slice(1));
    // A path drops "." and ".." segments (and a special scheme reads \ as /): that is no longer the secret.
    if (!secret.split(/[/\\]/).some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment))) {
      read(base, (u) => (u.pathname = `/${secret}`), (u) => u.pathname.slice(1));
    }
  }
  forms.push(new URLSearchParams({ s: secret }).toString().slice(2));
  return forms;
}

/** `secret` inside a double-quoted stretch of `text` (what a message quotes from the screen), wherever it is there. */
function maskQuoted(text: string, secret: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, (quoted) => quoted.split(secret).join(MASK));
}

function maskAlone(text: string, secret: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1)) {
    if (at < from || inWord(text, at - 1) || inWord(text, at + secret.length)) continue;
    out += text.slice(from, at) + MASK;
    from = at + secret.length;
  }
  return out + text.slice(from);
}

/** A parameter with no value: one of the scenario's own, or one a flow step's flow declares. */
export interface MissingParameter {
  name: string;
  /** The flow step whose flow needs it (its id as in the results), the flow file, and the names the scenario holding the step declares. */
  flow?: { step: string; file: string; outer: string[] };
}

const sources = (name: string) => `--param ${name}=..., a --params-file JSON object, or the environment variable ${ENV_PREFIX}${name} (not empty)`;

/**
 * The run's message when parameters have no value: names, and the ways to give one that work. A
 * flow's parameter is named by its own name (the run's sources are looked up with it, as for the
 * scenario's), and the flow step that needs it is said, since its `parameters` map can pass it.
 */
export function missingParametersMessage(missing: MissingParameter[], howToGive: (name: string) => string = sources): string {
  const parts: string[] = [];
  const own = missing.filter((m) => !m.flow).map((m) => m.name);
  if (own.length) parts.push(`no value for parameter${own.length === 1 ? '' : 's'} ${own.join(', ')}; give ${own.length === 1 ? 'it' : 'each'} with ${howToGive(own[0])}`);
  const steps = new Map<string, MissingParameter[]>();
  for (const m of missing) if (m.flow) steps.set(m.flow.step, [...(steps.get(m.flow.step) ?? []), m]);
  for (const [step, list] of steps) {
    const { file, outer } = list[0].flow!;
    const names = list.map((m) => m.name);
    // Passing a parameter of the same name on is the usual wiring; otherwise a value to fill in.
    const map = names.map((n) => `"${n}": "${outer.includes(n) ? `\${${n}}` : '...'}"`).join(', ');
    parts.push(`flow step ${step} (${file}) has no value for the flow's parameter${names.length === 1 ? '' : 's'} ${names.join(', ')}; pass ${names.length === 1 ? 'it' : 'them'} in the step's "parameters": {${map}}, or give ${names.length === 1 ? 'it' : 'each'} with ${howToGive(names[0])}`);
  }
  return parts.join('; ');
}
