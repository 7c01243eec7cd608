/**
 * The schema 2.2 options of `mobilebridge run` (SPEC §8): --param (repeatable), --params-file,
 * MB_PARAM_* from the environment, --include-tags / --exclude-tags, and the checks that stop a
 * run before anything touches a device (a parameter without a value, an unusable flow).
 */
import { dirname, relative, resolve } from 'node:path';
import { readRegularTextSync } from '../validate/regular-file.js';
import { parseJson, positionsOf } from '../validate/json.js';
import { planRun } from '../engine/runner/flows.js';
import { missingParametersMessage, type ParameterSources } from '../engine/runner/parameters.js';
import { unreadParameters } from '../engine/runner/given-parameters.js';
import type { AnyStep, Scenario } from '../validate/index.js';
import { isFlowStep, PARAMETER_NAME } from '../validate/index.js';

const PARAMS_FILE_BYTES = 1024 * 1024;

/** `--NAME value` and `--NAME=value`, as often as given; the rest of the arguments unchanged. */
export function takeRepeated(args: string[], name: string): { values: string[]; rest: string[]; error?: string } {
  const values: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
    else if (arg === `--${name}`) {
      const next = args[i + 1];
      if (next === undefined) return { values, rest, error: `--${name} needs a value` };
      values.push(next);
      i++;
    } else rest.push(arg);
  }
  return { values, rest };
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

function checkName(name: string, where: string): string | undefined {
  return PARAMETER_NAME.test(name) ? undefined : `${where}: "${name}" is not a parameter name (upper case letters, digits and _, starting with a letter, e.g. USER_EMAIL)`;
}

/** --param NAME=value pairs and the --params-file object, checked; `error` says what to fix. */
export function parameterSources(pairs: string[], paramsFile: string | undefined, env: NodeJS.ProcessEnv): { sources?: ParameterSources; error?: string } {
  const given: Record<string, string> = {};
  for (const [n, pair] of pairs.entries()) {
    const eq = pair.indexOf('=');
    // Never quoted: without its "=" the argument may be the secret value alone, and an access key
    // (AKIA…) looks just like a NAME. Its position tells which one is meant.
    if (eq <= 0) return { error: `--param (the ${ordinal(n + 1)}): ${eq === 0 ? 'the name before "=" is missing' : 'there is no "="'}; write NAME=value, e.g. --param USER_EMAIL=demo@example.com` };
    const name = pair.slice(0, eq);
    const bad = checkName(name, '--param');
    if (bad) return { error: bad };
    // Two values for one name: the run would use one the author did not mean (values not quoted: they may be secrets).
    if (name in given) return { error: `--param ${name} is given twice; give each parameter once` };
    given[name] = pair.slice(eq + 1);
  }
  let file: Record<string, string> | undefined;
  if (paramsFile !== undefined) {
    const read = readRegularTextSync(paramsFile, PARAMS_FILE_BYTES);
    if ('why' in read) return { error: `--params-file ${paramsFile}: ${read.why}; give a JSON object such as {"USER_EMAIL": "demo@example.com"}` };
    // The file holds secrets: a parser's message quotes the text around the fault (JSON.parse:
    // `..."ASSWORD": hunter2hun"...`, ours the character found), so only the place is said.
    const json = parseJson(read.text);
    if (!json.ok) {
      const [at] = positionsOf(json.text, [json.offset]);
      const what = json.reason === 'empty' ? 'is empty' : `is not valid JSON at line ${at.line}, column ${at.column}`;
      return { error: `--params-file ${paramsFile} ${what}; fix it there (values are not quoted here, they may be secrets): one JSON object of NAME: "value", such as {"USER_EMAIL": "demo@example.com"}` };
    }
    const parsed = json.value;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: `--params-file ${paramsFile}: must hold one JSON object of NAME: "value"` };
    // JSON keeps the last of two equal names without a word: the run would type a value nobody meant.
    const twice = json.duplicates.find((d) => d.pointer === `/${d.key}`);
    if (twice) {
      const [at] = positionsOf(json.text, [twice.offset]);
      return { error: `--params-file ${paramsFile}: ${twice.key} is given twice (again at line ${at.line}, column ${at.column}); keep one (values are not quoted here, they may be secrets)` };
    }
    file = {};
    for (const [name, value] of Object.entries(parsed)) {
      const bad = checkName(name, `--params-file ${paramsFile}`);
      if (bad) return { error: bad };
      // Values are text, as on the command line; a number or boolean is taken as written.
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return { error: `--params-file ${paramsFile}: ${name} must be a string (or a number or boolean), not ${value === null ? 'null' : typeof value}` };
      file[name] = String(value);
    }
  }
  return { sources: { given, file, env } };
}

const tagList = (flag: string | boolean | undefined): string[] | undefined =>
  typeof flag === 'string'
    ? flag
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
    : undefined;

/** --include-tags a,b keeps scenarios with any of them; --exclude-tags c drops those with any of these. */
export function byTags<T extends { scenario?: Scenario }>(items: T[], include: string | boolean | undefined, exclude: string | boolean | undefined): { kept: T[]; error?: string } {
  if (include === true || exclude === true) return { kept: items, error: `--${include === true ? 'include' : 'exclude'}-tags needs a comma-separated list, e.g. smoke,login` };
  const wanted = tagList(include);
  const unwanted = tagList(exclude) ?? [];
  const kept = items.filter((item) => {
    const tags = item.scenario?.tags ?? [];
    if (wanted && !tags.some((t) => wanted.includes(t))) return false;
    return !tags.some((t) => unwanted.includes(t));
  });
  return { kept };
}

/**
 * A file that another scenario of the run uses as a flow is a part, not a test: running a folder
 * runs it inside the scenarios that name it, not once more on its own. `usedBy`: per flow left
 * out, the first scenario of the run that names it (for the note saying so).
 */
export function withoutFlows<T extends { file: string; scenario?: Scenario }>(items: T[]): { kept: T[]; flows: T[]; usedBy: Map<T, T> } {
  const users = new Map<string, T>();
  const visit = (steps: AnyStep[], dir: string, user: T): void => {
    for (const s of steps) {
      if (isFlowStep(s)) {
        const flow = resolve(dir, s.flow);
        if (!users.has(flow)) users.set(flow, user);
      } else if (s.sub_steps) visit(s.sub_steps, dir, user);
    }
  };
  for (const item of items) if (item.scenario) visit(item.scenario.steps, dirname(item.file), item);
  const flows = items.filter((i) => users.has(resolve(i.file)));
  const usedBy = new Map(flows.map((f) => [f, users.get(resolve(f.file))!]));
  return { kept: items.filter((i) => !flows.includes(i)), flows, usedBy };
}

/** Parameters without a value and flows that cannot run, over every file, before the first run starts. */
export function preflight(items: { file: string; scenario?: Scenario }[], sources: ParameterSources): string[] {
  const problems: string[] = [];
  for (const { file, scenario } of items) {
    if (!scenario) continue;
    // Named as the run's other output names it (runs[].scenario, progress lines): from the working folder.
    const shown = relative(process.cwd(), file) || file;
    try {
      const plan = planRun(scenario, dirname(file), sources);
      if (plan.missing.length) problems.push(`${shown}: ${missingParametersMessage(plan.missing)}`);
    } catch (err) {
      problems.push(`${shown}: ${(err as Error).message}`);
    }
  }
  return problems;
}

/**
 * The refusal for `--param` names that nothing in the run would read (`--param EMIAL=...` would run
 * with the default EMAIL). `--params-file` and `MB_PARAM_*` are not checked: one file or CI
 * environment often serves several suites.
 */
export function undeclaredParameters(items: { file: string; scenario?: Scenario }[], given: Record<string, string>): string | undefined {
  const runs = items.flatMap(({ file, scenario }) => {
    if (!scenario) return [];
    try {
      return [{ scenario, plan: planRun(scenario, dirname(file)) }];
    } catch {
      // A flow that cannot be read is reported by preflight, with its reason.
      return [{ scenario }];
    }
  });
  return unreadParameters(runs, Object.keys(given), { label: (name) => `--param ${name}`, nobody: 'no scenario of this run declares', declaredBy: 'the scenarios declare' });
}
