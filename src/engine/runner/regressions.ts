/**
 * `regression` observations (SPEC §5): what passed in the previous run of the same scenario on
 * the same device, found in the same results folder, and does not pass now. A first run, or an
 * output folder of its own per CI job, has nothing to compare with and notes nothing.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Observation, ResultDocument, Scenario, StepResult } from '../../validate/index.js';

/** How many of the newest result files are looked at for the previous run: a bound on the cost. */
const LOOK_BACK = 50;

const NOT_PASSING = new Set(['failed', 'error']);
/** Runs whose statuses say something about the app; a running or cancelled one may have stopped anywhere. */
const FINISHED = new Set(['passed', 'failed', 'error']);

/** The newest finished run of `doc`'s scenario on `doc`'s device in the folder of `resultFile`, other than `doc` itself. */
export async function previousRun(resultFile: string, doc: ResultDocument): Promise<ResultDocument | undefined> {
  const folder = dirname(resultFile);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return undefined;
  }
  // run ids start with their UTC time, so the names sort oldest to newest (within a second, by chance).
  const candidates = names.filter((n) => n.startsWith('run_') && n.endsWith('.json') && n !== basename(resultFile)).sort().reverse().slice(0, LOOK_BACK);
  let newest: ResultDocument | undefined;
  for (const name of candidates) {
    let other: ResultDocument;
    try {
      other = JSON.parse(await readFile(join(folder, name), 'utf8')) as ResultDocument;
    } catch {
      continue; // being rewritten by a parallel run, or not a result document
    }
    if (other.scenario_id !== doc.scenario_id || other.metadata?.device_id !== doc.metadata.device_id || !FINISHED.has(other.status)) continue;
    if (other.started_at < doc.started_at && (!newest || other.started_at > newest.started_at)) newest = other;
  }
  return newest;
}

const flatten = (steps: readonly StepResult[]): StepResult[] => steps.flatMap((s) => [s, ...flatten(s.sub_steps_executed ?? [])]);

export function regressions(previous: ResultDocument, doc: ResultDocument, scenario: Scenario): Observation[] {
  const found: Observation[] = [];
  const before = new Map(flatten(previous.steps_executed ?? []).map((s) => [s.step_id, s.status]));
  for (const s of flatten(doc.steps_executed)) {
    if (before.get(s.step_id) !== 'passed' || !NOT_PASSING.has(s.status)) continue;
    found.push({ type: 'regression', step_id: s.step_id, message: `step ${s.step_id} passed in ${previous.run_id} and is ${s.status} now${s.error_code ? ` (${s.error_code})` : ''}` });
  }
  const passedBefore = new Set((previous.assertion_results ?? []).filter((a) => a.status === 'passed').map((a) => a.assertion_id));
  const afterStep = new Map(scenario.assertions.map((a) => [a.id, a.after_step]));
  for (const a of doc.assertion_results) {
    if (!passedBefore.has(a.assertion_id) || !NOT_PASSING.has(a.status)) continue;
    found.push({ type: 'regression', step_id: afterStep.get(a.assertion_id) ?? null, message: `assertion ${a.assertion_id} passed in ${previous.run_id} and is ${a.status} now: ${a.message}` });
  }
  return found;
}
