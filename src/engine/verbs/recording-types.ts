import type { APP_STATES, Assertion } from '../../validate/index.js';
import type { DeviceOs } from '../types.js';
import type { SecretsSnapshot } from './recording-secrets.js';

/**
 * The shapes a recording is spoken of in: what starts one, the steps and assertions it holds, what
 * its caller is told of it, and what it leaves on disk against a crash. Apart from the Recorder that
 * fills them, so the transports, the agent session and the store name them without the class.
 */

export type AppState = (typeof APP_STATES)[number];

export interface RecordingOptions {
  device: string;
  os: DeviceOs;
  /** Human name of the scenario; the scenario_id is derived from it. */
  name: string;
  description?: string;
  /** The app under test; else the package of the first launch_app, else the foreground app at stop. */
  appPackage?: string;
  /** Starting state the replay sets up (preconditions.app_state). */
  appState?: AppState;
  environment?: string;
  startedAt?: Date;
  /** Who started it (a bridge session), so whoever finds it left behind is told whose it was. */
  startedBy?: { session: string; client?: string };
}

/** A scenario step as recorded (the schema's fields, only the ones that carry something). */
export interface RecordedStep {
  id: string;
  action: string;
  description: string;
  target?: string;
  target_pattern?: string;
  value?: string;
  clear_first?: true;
  wait_config?: { type: string; timeout_ms: number; indicator?: string };
  capture_to?: string;
  permission_name?: string;
}

export type RecordedAssertion = Assertion & Record<string, unknown>;

/** What the agent asked to check, without the fields the recorder fills in. */
export type AssertionRequest = { type: Assertion['type']; description?: string } & Record<string, unknown>;

export interface RecordingSummary {
  device: string;
  name: string;
  steps: number;
  assertions: number;
  /** Things the agent did that a scenario cannot hold (and why). */
  skipped: string[];
}

export interface RecorderSnapshot {
  options: Omit<RecordingOptions, 'startedAt'> & { startedAt: string };
  steps: RecordedStep[];
  assertions: RecordedAssertion[];
  ids: string[];
  variables: Record<string, { type: 'string'; description: string }>;
  skipped: string[];
  appPackage?: string;
  pollsSinceStep: number;
  /** Which apps the agent's screens belonged to (WorkedIn), per look. */
  looks?: [string, number][];
  /** The last step is typing that more typing into the same field continues. */
  openTyping?: { secret: boolean };
  /**
   * The secret parameters and the password focus (never a typed value). Files written before
   * these were kept lack it: what the steps tell is rebuilt (RecordingSecrets.restore).
   */
  secrets?: SecretsSnapshot;
}
