import type { ResultDocument, Scenario } from '../../../validate/index.js';
import type { PlannedFlows } from '../flows.js';

/** One scenario run as the reports show it. */
export interface ReportedRun {
  document: ResultDocument;
  /** The scenario file as the user named it (relative to the working folder). */
  name: string;
  /** The scenario itself: its `name` titles the run, its steps show what was never reached. */
  scenario?: Pick<Scenario, 'name' | 'steps'>;
  /** Dotted folder of the file below the folder the run was given (JUnit classname). */
  folder?: string;
  /** The steps of each flow step as run (RunResult.flows): a flow's steps never reached are listed too. */
  flows?: PlannedFlows;
}

/** The scenario's own name, else its id: what a person recognises in a report. */
export function titleOf(run: ReportedRun): string {
  return run.scenario?.name || run.document.scenario_id;
}

/** A scenario the run meant to run but never started (a Ctrl-C came first): the reports still list it. */
export interface NotStartedRun {
  name: string;
  folder?: string;
  scenario: Pick<Scenario, 'name' | 'scenario_id'>;
  /** Why it never started, as a reader should see it. */
  reason: string;
}

/** A JUnit testcase: who it is to CI (classname + name) and which scenario it is. */
export interface CaseIdentity {
  classname: string;
  title: string;
  scenarioId: string;
}

/**
 * JUnit testcase names: the title, with the scenario_id after it where scenarios of one classname
 * share a title (`login_android.json` and `login_ios.json`, both "Login"). CI readers tell testcases
 * apart by classname + name only: GitLab shows one of two identical ones, Jenkins merges their history.
 */
export function caseNames(cases: CaseIdentity[]): string[] {
  const key = (c: CaseIdentity) => `${c.classname}\n${c.title}`;
  const ids = new Map<string, Set<string>>();
  for (const c of cases) ids.set(key(c), (ids.get(key(c)) ?? new Set()).add(c.scenarioId));
  return cases.map((c) => (ids.get(key(c))!.size > 1 ? `${c.title} (${c.scenarioId})` : c.title));
}
