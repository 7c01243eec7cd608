/**
 * The Run form's parameters (pure): which the scenario declares, what the form starts with, what is
 * sent with the run, and which entered values may stay when the declarations change.
 */

/** SPEC §8's parameter names; anything else is the bridge's validation to report, not a field. */
const NAME = /^[A-Z][A-Z0-9_]*$/;

export interface FormParameter {
  name: string;
  secret: boolean;
  description?: string;
  /** Used when the field is left as it starts; a secret's default is never put in the field. */
  default?: string;
  /** A flow's parameter the bridge asked for: the flow step that needs it and the flow file. */
  flow?: { step: string; file: string };
}

/**
 * The scenario's own 2.2 parameters, defaulted ones too (a user may point BASE_URL elsewhere for
 * one run, as `run --param` can). Text that is not JSON declares nothing: the bridge says what is wrong.
 */
export function declaredParameters(scenarioText: string): FormParameter[] {
  let doc: unknown;
  try {
    doc = JSON.parse(scenarioText);
  } catch {
    return [];
  }
  const declared = (doc as { parameters?: unknown } | null)?.parameters;
  if (!declared || typeof declared !== 'object' || Array.isArray(declared)) return [];
  const out: FormParameter[] = [];
  for (const [name, spec] of Object.entries(declared as Record<string, unknown>)) {
    if (!NAME.test(name)) continue;
    const s = (spec && typeof spec === 'object' ? spec : {}) as { default?: unknown; secret?: unknown; description?: unknown };
    out.push({
      name,
      secret: s.secret === true,
      ...(typeof s.description === 'string' ? { description: s.description } : {}),
      ...(typeof s.default === 'string' ? { default: s.default } : {}),
    });
  }
  return out;
}

/** What a field starts with: a non-secret default, so it can be read and changed; nothing otherwise. */
export function initialValue(p: FormParameter): string {
  return p.default !== undefined && !p.secret ? p.default : '';
}

/** The field's hint when empty: that the default applies (never the secret's value), or that a value is needed. */
export function placeholder(p: FormParameter): string {
  if (p.default === undefined) return 'required';
  return p.secret ? 'secret default kept unless you type a value' : `default: ${p.default}`;
}

/**
 * The values to send: each one the run needs and each default the user changed. A field left as it
 * started, or emptied, keeps the default (sending it would only repeat it, and for a secret the
 * page never knew the value to compare). `missing`: parameters without a default left empty.
 */
export function valuesToSend(params: readonly FormParameter[], entered: ReadonlyMap<string, string>): { values: Record<string, string>; missing: string[] } {
  const values: Record<string, string> = {};
  const missing: string[] = [];
  for (const p of params) {
    const value = entered.get(p.name) ?? '';
    if (value === '') {
      if (p.default === undefined) missing.push(p.name);
    } else if (value !== p.default) values[p.name] = value;
  }
  return { values, missing };
}

/** Whether two lists would make the same form (same fields in the same order, the same way). */
export function sameForm(a: readonly FormParameter[], b: readonly FormParameter[]): boolean {
  return a.length === b.length && a.every((p, i) => key(p) === key(b[i]!));
}

const key = (p: FormParameter): string => JSON.stringify([p.name, p.secret, p.default ?? null, p.flow?.step ?? null]);

/**
 * The entered values that stay when the form is rebuilt for new declarations: only a value the user
 * typed (not a default left as it was), for a parameter of the same name that is secret exactly when
 * it was. A renamed parameter starts empty, and a secret never lands in a plain text field.
 */
export function keptValues(before: readonly FormParameter[], entered: ReadonlyMap<string, string>, after: readonly FormParameter[]): Map<string, string> {
  const kept = new Map<string, string>();
  for (const p of after) {
    const old = before.find((b) => b.name === p.name);
    const value = entered.get(p.name);
    if (!old || value === undefined || value === '' || old.secret !== p.secret || value === initialValue(old)) continue;
    kept.set(p.name, value);
  }
  return kept;
}

/**
 * What identifies the flows a scenario runs (each flow step: id, file, the parameters it passes);
 * the flow parameters the bridge asked for hold only while this stays the same.
 */
export function flowKey(scenarioText: string): string {
  let doc: unknown;
  try {
    doc = JSON.parse(scenarioText);
  } catch {
    return '';
  }
  const uses: unknown[] = [];
  const visit = (steps: unknown): void => {
    if (!Array.isArray(steps)) return;
    for (const raw of steps) {
      const s = (raw && typeof raw === 'object' ? raw : {}) as { id?: unknown; flow?: unknown; parameters?: unknown; sub_steps?: unknown };
      if (s.flow !== undefined) uses.push([s.id, s.flow, s.parameters ?? null]);
      visit(s.sub_steps);
    }
  };
  visit((doc as { steps?: unknown } | null)?.steps);
  return JSON.stringify(uses);
}

/**
 * The flows' parameters in a run refused for missing values (`missing_parameters` of scenarios.run
 * with refuse_missing_parameters), one per name: a value given for a name serves every flow
 * reading it. Undefined when the answer is no such refusal.
 */
export function flowParametersAsked(answer: unknown): FormParameter[] | undefined {
  const list = (answer as { missing_parameters?: unknown } | null)?.missing_parameters;
  if (!Array.isArray(list)) return undefined;
  const out: FormParameter[] = [];
  for (const raw of list) {
    const m = (raw && typeof raw === 'object' ? raw : {}) as { name?: unknown; secret?: unknown; description?: unknown; flow_step?: unknown; flow?: unknown };
    if (typeof m.name !== 'string' || !NAME.test(m.name) || typeof m.flow_step !== 'string') continue;
    const seen = out.find((p) => p.name === m.name);
    if (seen) {
      // Secret for one flow is secret for the run: its value is masked everywhere anyway.
      seen.secret ||= m.secret === true;
      continue;
    }
    out.push({ name: m.name, secret: m.secret === true, ...(typeof m.description === 'string' ? { description: m.description } : {}), flow: { step: m.flow_step, file: typeof m.flow === 'string' ? m.flow : '' } });
  }
  return out;
}
