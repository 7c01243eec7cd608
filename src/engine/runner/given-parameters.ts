/**
 * Parameter values given for a run that nothing in it would read: a name no scenario or flow
 * declares (`EMIAL`). Such a value would be dropped without a word and the run go on with the
 * default, so `run --param` and `scenarios.run`'s `parameters` refuse it.
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
 * The refusal for the names in `given` that none of the runs declares, or undefined when all are
 * declared. A run whose flows could not be expanded (`plan` undefined) counts by its own parameters:
 * why its flows cannot run is said elsewhere.
 */
export function unreadParameters(runs: { scenario: Scenario; plan?: RunPlan }[], given: readonly string[], words: GivenWords): string | undefined {
  const declared = new Set<string>();
  for (const { scenario, plan } of runs) {
    for (const name of Object.keys(scenario.parameters ?? {})) declared.add(name);
    for (const use of plan?.flows.values() ?? []) for (const name of Object.keys(use.parameters ?? {})) declared.add(name);
  }
  const undeclared = given.filter((name) => !declared.has(name));
  if (!undeclared.length) return undefined;
  const each = undeclared.map((name) => {
    const meant = closest(name, declared);
    return `${words.label(name)}${meant ? ` (did you mean ${meant}?)` : ''}`;
  });
  const known = declared.size ? [...declared].sort().join(', ') : 'no parameters';
  return `${each.join(', ')}: ${words.nobody} ${undeclared.length === 1 ? 'this parameter' : 'these parameters'}, so the value would be ignored; ${words.declaredBy} ${known}`;
}
