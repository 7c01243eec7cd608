import type { AssertionResult, ResultDocument, StepResult } from '../../validate/index.js';
import type { Engine } from '../engine.js';
import type { Resolver } from '../resolve/index.js';
import type { VerbClock } from '../verbs/index.js';

export interface RunOptions {
  engine: Engine;
  device: string;
  /** A scenario that passed validation (defaults applied). */
  scenario: import('../../validate/index.js').Scenario;
  /** Folder of the scenario file: reference screenshots are relative to it. */
  scenarioDir: string;
  /** Output folder (SPEC §5 layout). */
  outDir: string;
  signal?: AbortSignal;
  clock?: VerbClock;
  resolver?: Resolver;
  /** Wait for a step's target to appear (ms, default 3000). */
  targetWaitMs?: number;
  /** Pause between looks while waiting (ms, default 250). */
  pollMs?: number;
  /** How long a failing assertion is looked at again while the screen settles (ms, default 1000). */
  settleMs?: number;
  /** Screenshots after every executed step, only after `checkpoint` steps, or none (default steps). */
  screenshots?: 'steps' | 'checkpoints' | 'none';
  /** Terminate the app and clear its data before the preconditions. */
  reset?: boolean;
  /** Activity-feed origin of the engine calls (default "runner"). */
  origin?: string;
  /** Keep resolutions in `<out>/cache/` and re-check them on the next run (default true). */
  cache?: boolean;
  onProgress?: (event: ProgressEvent) => void;
  /** Where 2.2 parameter values come from (--param, --params-file, MB_PARAM_*). */
  parameters?: import('./parameters.js').ParameterSources;
}

export type ProgressEvent =
  | { type: 'started'; run_id: string; scenario_id: string; device: string; result_file: string }
  | { type: 'step'; run_id: string; step: StepResult }
  | { type: 'assertion'; run_id: string; assertion: AssertionResult }
  | { type: 'finished'; run_id: string; status: ResultDocument['status']; summary: string };

export interface RunResult {
  document: ResultDocument;
  /** Absolute path of the result document. */
  resultFile: string;
  /** The steps of each flow step as run (ids prefixed): the reports list those never reached. */
  flows?: import('./flows.js').PlannedFlows;
}
