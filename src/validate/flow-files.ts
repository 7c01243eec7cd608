/**
 * What the file system says about a scenario's paths (SPEC §8): whether one leaves the scenario's
 * folder through a symlink, and whether a flow file exists, validates and stays out of cycles.
 * The folder tree is the top scenario's: a flow in flows/ may name ../common/x.json as long as
 * that stays under the top scenario's folder.
 */
import { readdirSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { closest } from './suggest.js';
import { readRegularTextSync } from './regular-file.js';
import type { DeclaredNames, FileChecks, FlowCheck, FlowExpansion, PermissionAnswer, PlatformIssue } from './context.js';

/** As for a scenario file the CLI reads (validate/files.ts). */
const MAX_FLOW_BYTES = 16 * 1024 * 1024;

/**
 * The most steps a scenario may become once its flows are expanded (each flow use is a copy of the
 * flow's steps, so a flow used twice in a flow used twice … doubles per level: 16 levels are 65,000
 * steps, held in memory and in every rewrite of the result document). No hand-written scenario
 * comes near it; the runner and the validator both refuse more (rule `flow-too-large`).
 */
export const MAX_EXPANDED_STEPS = 10_000;

/**
 * The expanded size of the flow in `abs`: its steps at every nesting level, each flow step also
 * standing for the steps of its flow. Counted from the files (each read once, `memo`), not by
 * expanding them, so a chain that would blow up is measured in no time. What cannot be read or is
 * a cycle counts as nothing here: those have rules of their own.
 */
function expansionOf(abs: string, memo: Map<string, { steps: number; heaviest?: string }>, stack: string[]): { steps: number; heaviest?: string } {
  const known = memo.get(abs);
  if (known) return known;
  const read = readRegularTextSync(abs, MAX_FLOW_BYTES);
  let doc: unknown;
  try {
    doc = 'why' in read ? undefined : JSON.parse(read.text);
  } catch {
    doc = undefined;
  }
  let steps = 0;
  const byFlow = new Map<string, number>();
  const walk = (list: unknown): void => {
    if (!Array.isArray(list)) return;
    for (const s of list) {
      steps++;
      if (typeof s !== 'object' || s === null) continue;
      const step = s as { flow?: unknown; sub_steps?: unknown };
      if (typeof step.flow !== 'string') {
        walk(step.sub_steps);
        continue;
      }
      const child = resolve(dirname(abs), step.flow);
      if (stack.includes(child)) continue;
      const size = expansionOf(child, memo, [...stack, child]).steps;
      steps += size;
      byFlow.set(child, (byFlow.get(child) ?? 0) + size);
    }
  };
  walk(typeof doc === 'object' && doc !== null ? (doc as { steps?: unknown }).steps : undefined);
  let heaviest: string | undefined;
  for (const [file, size] of byFlow) if (size > 0 && (heaviest === undefined || size > byFlow.get(heaviest)!)) heaviest = file;
  const result = { steps, heaviest };
  memo.set(abs, result);
  return result;
}

/** Validates one flow file; supplied by validate.ts so that this module does not import it back. */
export type FlowValidator = (
  text: string,
  file: string,
  baseDir: string,
  rootDir: string,
  stack: string[],
  /** The platform its steps run on (the top scenario's). */
  platform: string | undefined,
) => { errors: { rule: string; path: string }[]; parameters: string[]; secrets: string[]; cycle?: string[]; platformIssues: PlatformIssue[]; answers: PermissionAnswer[]; names: DeclaredNames };

export interface ScenarioFileChecks extends FileChecks {
  /** The first cycle a flow of this scenario ran into, as file names from the top folder. */
  cycle(): string[] | undefined;
  /** What each flow this scenario names came to, as far as the checks went. */
  checked(): Iterable<FlowCheck>;
}

const FIRST_ERRORS = 3;

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** How far below a scenario's folder, and how many files, the search for a misspelt flow goes. */
const NEARBY_DEPTH = 3;
const NEARBY_FILES = 2000;

/**
 * The *.json files below `dir` as a flow step would name them (`flows/login.json`), for the
 * did-you-mean of a flow that does not exist. Hidden folders and node_modules hold no scenarios.
 */
function jsonFilesBelow(dir: string): string[] {
  const found: string[] = [];
  const walk = (abs: string, rel: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (found.length >= NEARBY_FILES) return;
      const name = rel ? `${rel}/${e.name}` : e.name;
      if (e.isFile() && e.name.endsWith('.json')) found.push(name);
      else if (e.isDirectory() && depth < NEARBY_DEPTH && !e.name.startsWith('.') && e.name !== 'node_modules') walk(join(abs, e.name), name, depth + 1);
    }
  };
  walk(dir, '', 0);
  return found;
}

export const inside = (root: string, path: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * `stack`: absolute paths of the scenarios being validated, outermost first (this one last);
 * `platform`: the one the flows' steps run on.
 */
export function fileChecks(baseDir: string, rootDir: string, stack: string[], validateFlow: FlowValidator, platform: string | undefined): ScenarioFileChecks {
  const root = real(rootDir) ?? resolve(rootDir);
  const seen = new Map<string, FlowCheck>();
  const shown = (abs: string): string => relative(rootDir, abs) || abs;
  const sizes = new Map<string, { steps: number; heaviest?: string }>();
  const expansion = (abs: string): FlowExpansion => {
    const { steps } = expansionOf(abs, sizes, [...stack, abs]);
    const chain = [shown(abs)];
    for (let at = sizes.get(abs)?.heaviest; at !== undefined && !chain.includes(shown(at)); at = sizes.get(at)?.heaviest) chain.push(shown(at));
    return { steps, chain };
  };
  let nearby: string[] | undefined;
  // The file meant by a path that names none, when one is close (flow/logn.json → flows/login.json).
  const meant = (rel: string): string | undefined => {
    nearby ??= jsonFilesBelow(baseDir).filter((f) => !stack.includes(resolve(baseDir, f)));
    return closest(rel.replace(/\\/g, '/').replace(/^\.\//, ''), nearby);
  };
  return {
    nested: stack.length > 1,
    cycle() {
      for (const r of seen.values()) if (r.kind === 'cycle') return r.chain;
      return undefined;
    },
    checked: () => seen.values(),
    escapes(rel) {
      const abs = resolve(baseDir, rel);
      if (!inside(resolve(rootDir), abs)) return 'it points above the folder of the scenario being validated';
      const target = real(abs);
      if (target !== undefined && !inside(root, target)) return `a symlink leads to ${target}`;
      return undefined;
    },
    flow(rel) {
      const cached = seen.get(rel);
      if (cached) return cached;
      const abs = resolve(baseDir, rel);
      let result: FlowCheck;
      if (stack.includes(abs)) {
        result = { kind: 'cycle', chain: [...stack.slice(stack.indexOf(abs)), abs].map(shown) };
      } else {
        // Never blocks on a FIFO or device named as a flow, like every scenario read.
        const read = readRegularTextSync(abs, MAX_FLOW_BYTES);
        if ('why' in read) result = read.why === 'no such file' ? { kind: 'missing', why: read.why, meant: meant(rel) } : { kind: 'missing', why: read.why };
        else {
          const report = validateFlow(read.text, abs, dirname(abs), rootDir, [...stack, abs], platform);
          if (report.cycle) result = { kind: 'cycle', chain: report.cycle };
          else if (report.errors.length) {
            const first = report.errors.slice(0, FIRST_ERRORS).map((e) => `${e.rule} at ${e.path || '/'}`);
            const more = report.errors.length > FIRST_ERRORS ? ` and ${report.errors.length - FIRST_ERRORS} more` : '';
            result = { kind: 'invalid', errors: [`${report.errors.length} error${report.errors.length === 1 ? '' : 's'}: ${first.join(', ')}${more}`] };
          } else result = { kind: 'ok', parameters: report.parameters, secrets: report.secrets, expansion: expansion(abs), platformIssues: report.platformIssues, answers: report.answers, names: report.names };
        }
      }
      seen.set(rel, result);
      return result;
    },
  };
}
