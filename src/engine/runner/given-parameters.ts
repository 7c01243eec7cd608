/**
 * Parameter values given for a run that nothing in it would read: a name no scenario or flow
 * declares (`EMIAL`), or a flow's parameter that every use of the flow passes in its step's
 * `parameters`. Such a value would be dropped without a word and the run go on with the default
 * or the step's value, so `run --param` and `scenarios.run`'s `parameters` refuse it.
 */
import type { Scenario } from '../../validate/index.js';
import { closest } from '../../validate/suggest.js';
import type { RunPlan } from './flows.js';

/** How the caller gave the values and how the refusal speaks of the run's scenarios. */
export interface GivenWords {
  /** The value as the caller gave it: `--param EMIAL`. */
  label: (name: string) => string;
  /** Who should declare it: "no scenario of this run declares". */
  nobody: string;
  /** Who declares what there is: "the scenarios declare". */
  declaredBy: string;
}

/**
 * The refusal for the names in `given` that none of the runs would read, or undefined when all are
 * read. A flow's parameter is read from the run's values only by the uses of the flow whose step
 * does not pass it. A run whose flows could not be expanded (`plan` undefined) counts by its own
 * parameters: why its flows cannot run is said elsewhere.
 */
export function unreadParameters(runs: { scenario: Scenario; plan?: RunPlan }[], given: readonly string[], words: GivenWords): string | undefined {
  const declared = new Set<string>();
  const read = new Set<string>();
  // Per flow parameter, the flow steps that pass it (the only ones that could have read it otherwise).
  const passedBy = new Map<string, string[]>();
  for (const { scenario, plan } of runs) {
    for (const name of Object.keys(scenario.parameters ?? {})) {
      declared.add(name);
      read.add(name);
    }
    for (const [stepId, use] of plan?.flows ?? []) {
      for (const name of Object.keys(use.parameters ?? {})) {
        declared.add(name);
        if (Object.hasOwn(use.passed, name)) passedBy.set(name, [...(passedBy.get(name) ?? []), stepId]);
        else read.add(name);
      }
    }
  }
  const unread = given.filter((name) => !read.has(name));
  if (!unread.length) return undefined;
  const parts: string[] = [];
  const undeclared = unread.filter((name) => !declared.has(name));
  if (undeclared.length) {
    const each = undeclared.map((name) => {
      const meant = closest(name, declared);
      return `${words.label(name)}${meant ? ` (did you mean ${meant}?)` : ''}`;
    });
    const known = declared.size ? [...declared].sort().join(', ') : 'no parameters';
    parts.push(`${each.join(', ')}: ${words.nobody} ${undeclared.length === 1 ? 'this parameter' : 'these parameters'}, so the value would be ignored; ${words.declaredBy} ${known}`);
  }
  for (const name of unread.filter((n) => declared.has(n))) {
    const steps = passedBy.get(name) ?? [];
    parts.push(`${words.label(name)}: no scenario declares it, and every use of a flow declaring it passes its own value in the flow step's "parameters" (${steps.join(', ')}), so this value would be ignored; leave it out, or take ${name} out of those steps' "parameters"`);
  }
  return parts.join('; ');
}
