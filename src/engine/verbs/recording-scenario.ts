import { CURRENT_SCHEMA_VERSION, SEMANTIC_ACTIONS as AGNOSTIC_ACTIONS } from '../../validate/index.js';
import { snakeCase } from './scenario-ids.js';
import type { RecordedAssertion, RecordedStep, RecordingOptions } from './recording-types.js';

/**
 * The scenario document a stopped recording becomes: its id, platform, mode, metadata and
 * preconditions around the steps and assertions recorded. Apart from the Recorder, which collects
 * those while the agent works; this only assembles them, once, at stop, and touches no state.
 */

const AGNOSTIC: ReadonlySet<string> = new Set(AGNOSTIC_ACTIONS);

/** What a recording holds when its scenario is asked for. */
export interface RecordedContent {
  options: RecordingOptions;
  /** The app the recording was started with or launched, if any. */
  appPackage?: string;
  steps: readonly RecordedStep[];
  assertions: readonly RecordedAssertion[];
  variables: Record<string, { type: 'string'; description: string }>;
  /** The secret parameters standing for what was typed into password fields. */
  parameters: Record<string, unknown>;
}

/** Throws Error when the recording has no app or no step: no valid scenario can be made of it. */
export function scenarioDocument(recorded: RecordedContent, facts: { appPackage?: string; appVersion?: string }): Record<string, unknown> {
  const o = recorded.options;
  const app = recorded.appPackage ?? facts.appPackage;
  if (!app) throw new Error('the recording has no app: start it with app_package, or launch the app while recording');
  if (!recorded.steps.length) throw new Error('nothing was recorded: a scenario needs at least one step that succeeded');
  const agnostic = recorded.steps.some((s) => AGNOSTIC.has(s.action));
  const platform = o.os === 'iOS' ? 'ios' : 'android';
  const doc: Record<string, unknown> = {
    $schema_version: CURRENT_SCHEMA_VERSION,
    scenario_id: snakeCase(o.name, 'recorded'),
    name: o.name,
    description: o.description?.trim() || `Recorded on ${o.device} (${o.os}) on ${(o.startedAt ?? new Date()).toISOString()}`,
    platform,
    ...(agnostic ? { mode: 'platform-agnostic' } : {}),
    app_package: app,
    metadata: { app_version: facts.appVersion || 'unknown', environment: o.environment || 'development' },
    tags: ['recorded'],
  };
  if (Object.keys(recorded.variables).length) doc.variables = { ...recorded.variables };
  if (Object.keys(recorded.parameters).length) doc.parameters = { ...recorded.parameters };
  if (o.appState) doc.preconditions = { app_state: o.appState };
  doc.steps = recorded.steps.map((s) => ({ ...s }));
  doc.assertions = recorded.assertions.map((a) => ({ ...a }));
  return doc;
}
