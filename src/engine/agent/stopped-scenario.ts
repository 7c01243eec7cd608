import { validateScenarioValue, type ValidationReport } from '../../validate/index.js';
import type { InstalledApp } from '../types.js';
import type { Recorder } from '../verbs/recording.js';
import type { RecordingSummary } from '../verbs/recording-types.js';
import { call } from '../verbs/screen.js';
import { VerbError, type VerbContext } from '../verbs/types.js';
import { isSystemPackage } from '../verbs/worked-in.js';

/**
 * What a stopped recording answers: its scenario, with the app and the app's version asked of the
 * device when the recording did not name them, and the scenario's validation report. Apart from
 * AgentSession, which decides when a recording stops and gives a repeated stop the same answer;
 * this makes the answer once, from a recorder nobody records into any more.
 */

export interface StopRecording {
  scenario: Record<string, unknown>;
  validation: ValidationReport;
  summary: RecordingSummary;
  /** This answer was given before: a stop whose answer the caller never got (cancelled, connection lost) is asked again. */
  repeated?: true;
}

/** `ctx`: the device's, when it can still be reached. Throws VerbError when the recording gives no scenario. */
export async function stoppedScenario(device: string, recorder: Recorder, ctx: VerbContext | undefined): Promise<StopRecording> {
  // The app named or launched, else the one the agent's screens belonged to; the app in front
  // now only as a last resort, and never a home screen or system overlay.
  let appPackage = recorder.app ?? recorder.workedInApp;
  if (!appPackage && ctx) {
    const front = await call<{ package: string }>(ctx, 'mobile_get_foreground_app').then((r) => r.package, () => undefined);
    if (front && !isSystemPackage(front)) appPackage = front;
  }
  let appVersion: string | undefined;
  if (appPackage && ctx) {
    const apps = await call<InstalledApp[] | { apps: InstalledApp[] }>(ctx, 'mobile_list_apps').catch(() => []);
    const list = Array.isArray(apps) ? apps : apps.apps;
    appVersion = list.find((a) => a.package === appPackage)?.version;
  }
  let scenario: Record<string, unknown>;
  try {
    scenario = recorder.toScenario({ appPackage, appVersion });
  } catch (err) {
    throw new VerbError('INVALID_PARAMETER', `the recording on ${device} was stopped but gives no scenario: ${(err as Error).message}`);
  }
  return { scenario, validation: validateScenarioValue(scenario, `${String(scenario.scenario_id)}.json`), summary: recorder.summary() };
}
