/**
 * What the file system says about a scenario's paths (SPEC §8): whether one leaves the scenario's
 * folder through a symlink, and whether a flow file exists, validates and stays out of cycles.
 * The folder tree is the top scenario's: a flow in flows/ may name ../common/x.json as long as
 * that stays under the top scenario's folder.
 */
import { realpathSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { readRegularTextSync } from './regular-file.js';
import type { FileChecks, FlowCheck } from './context.js';

/** As for a scenario file the CLI reads (validate/files.ts). */
const MAX_FLOW_BYTES = 16 * 1024 * 1024;

/** Validates one flow file; supplied by validate.ts so that this module does not import it back. */
export type FlowValidator = (
  text: string,
  file: string,
  baseDir: string,
  rootDir: string,
  stack: string[],
) => { errors: { rule: string; path: string }[]; parameters: string[]; cycle?: string[] };

export interface ScenarioFileChecks extends FileChecks {
  /** The first cycle a flow of this scenario ran into, as file names from the top folder. */
  cycle(): string[] | undefined;
}

const FIRST_ERRORS = 3;

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

const inside = (root: string, path: string): boolean => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/**
 * `stack`: absolute paths of the scenarios being validated, outermost first (this one last).
 */
export function fileChecks(baseDir: string, rootDir: string, stack: string[], validateFlow: FlowValidator): ScenarioFileChecks {
  const root = real(rootDir) ?? resolve(rootDir);
  const seen = new Map<string, FlowCheck>();
  const shown = (abs: string): string => relative(rootDir, abs) || abs;
  return {
    cycle() {
      for (const r of seen.values()) if (r.kind === 'cycle') return r.chain;
      return undefined;
    },
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
        if ('why' in read) result = { kind: 'missing', why: read.why };
        else {
          const report = validateFlow(read.text, abs, dirname(abs), rootDir, [...stack, abs]);
          if (report.cycle) result = { kind: 'cycle', chain: report.cycle };
          else if (report.errors.length) {
            const first = report.errors.slice(0, FIRST_ERRORS).map((e) => `${e.rule} at ${e.path || '/'}`);
            const more = report.errors.length > FIRST_ERRORS ? ` and ${report.errors.length - FIRST_ERRORS} more` : '';
            result = { kind: 'invalid', errors: [`${report.errors.length} error${report.errors.length === 1 ? '' : 's'}: ${first.join(', ')}${more}`] };
          } else result = { kind: 'ok', parameters: report.parameters };
        }
      }
      seen.set(rel, result);
      return result;
    },
  };
}
