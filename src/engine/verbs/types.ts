import type { Engine } from '../engine.js';
import type { ErrorCode } from '../errors.js';
import type { Candidate, ResolutionCache, Resolver } from '../resolve/index.js';
import type { DeviceOs, Point } from '../types.js';

/** The fields of a scenario step a verb reads (SPEC §3); the runner passes whole steps. */
export interface VerbStep {
  id?: string;
  action: string;
  target?: string;
  target_pattern?: string;
  value?: string;
  /** type (2.2): empty the field before typing. */
  clear_first?: boolean;
  wait_config?: { type: string; timeout_ms?: number; indicator?: string };
  permission_name?: string;
}

/** Time as the verbs see it. Tests pass a clock that moves the virtual phone's manual clock on sleep. */
export interface VerbClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface VerbContext {
  engine: Engine;
  device: string;
  os: DeviceOs;
  /** Carried into the engine's activity events ("runner", a bridge session id). */
  origin: string;
  /** Set while an agent's verb runs: its engine calls are parts of that one action (activity). */
  partOf?: string;
  resolver: Resolver;
  /** Scenario-step resolution cache and the key scope of the current step. */
  cache?: ResolutionCache;
  cacheScope?: string;
  /** Package used by launch_app / clear_app_data when the step has no value. */
  appPackage?: string;
  signal?: AbortSignal;
  /** Set inside a verb's one-unit section (Engine.hold): its calls run there, others wait. */
  hold?: import('../device-hold.js').DeviceHold;
  clock: VerbClock;
  /** How long a tap waits for its target to appear before it fails (ms). */
  targetWaitMs: number;
  /** Pause between two looks at the screen while waiting (ms). */
  pollMs: number;
  /** Masks secrets in what the engine's activity events show of these calls (scenario parameters). */
  redact?: (value: unknown) => unknown;
  /** Called with every element listing taken during the verb (the runner watches toasts with it). */
  onElements?: (elements: import('../types.js').UiElement[]) => void;
}

export type VerbStatus = 'passed' | 'failed' | 'error' | 'needs_manual';

export interface ResolvedElement {
  id: string;
  text: string;
  label: string | null;
  type: string;
  center: Point;
  confidence: number;
  /** A password field: what is typed into it is recorded as a secret parameter. */
  password?: boolean;
}

/** What running one step live gives back (bridge `verbs.run`, and each runner step attempt). */
export interface VerbOutcome {
  status: VerbStatus;
  action: string;
  resolved: ResolvedElement | null;
  duration_ms: number;
  message: string;
  error?: { code: ErrorCode | 'NEEDS_MANUAL' | 'CANCELLED'; message: string; candidates?: Candidate[] };
  /** capture_value: the element's text as read. */
  value?: string;
}

/** Thrown inside verbs; `runVerb` turns it into an outcome. */
export class VerbError extends Error {
  constructor(
    readonly code: ErrorCode | 'NEEDS_MANUAL' | 'CANCELLED',
    message: string,
    readonly candidates?: Candidate[],
  ) {
    super(message);
    this.name = 'VerbError';
  }
}

export const realClock: VerbClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new VerbError('CANCELLED', 'cancelled'));
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new VerbError('CANCELLED', 'cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
