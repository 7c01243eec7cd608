import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import * as v from 'valibot';
import { AssertionSchema, wordIssues, type Assertion, type AssertionResult } from '../../validate/index.js';
import { darkMode, evaluateAssertion, type AssertionEnv } from '../assertions/index.js';
import type { ScreenCapture } from '../screen/capture.js';
import type { ElementListing } from '../driver.js';
import type { UiElement } from '../types.js';
import type { ScreenSize } from '../ui-tree.js';
import { isToast, keyboardVisible, listElements, screenCapture, textOf } from '../verbs/screen.js';
import { resolveOnce, verbScreenSize } from '../verbs/target.js';
import { VerbError, type VerbContext } from '../verbs/types.js';
import { readFacts } from '../verbs/device-facts.js';
import { judgeAssertion } from '../runner/assertion-gate.js';
import type { ConditionEnv } from '../runner/conditions.js';
import { interpolateFields, type VariableValue } from '../runner/variables.js';

/** What the screen looked like during the verb before the assertion (text_changed, toast_visible). */
export interface LiveHistory {
  /** The first element listing taken during the last verb: the screen before it acted. */
  before?: UiElement[];
  /** Toast texts seen during the last verb. */
  toasts: string[];
}

export type LiveAssertionResult = Omit<AssertionResult, 'screenshot'>;

/**
 * Checks the fields of one assertion the way the validator does, filling defaults. Throws
 * VerbError INVALID_PARAMETER naming every wrong field.
 */
export function parseAssertion(request: Record<string, unknown>, id = 'live_check', afterStep = 'live'): Assertion {
  const parsed = v.safeParse(AssertionSchema, { id, after_step: afterStep, description: 'live check', ...request });
  if (parsed.success) return parsed.output;
  throw new VerbError('INVALID_PARAMETER', `the assertion is not valid: ${wordIssues(parsed.issues, 'the assertion').join('; ')}`);
}

/**
 * Evaluates one assertion now, with the runner's own evaluators (SPEC §3: every type is
 * mechanical). A failing check is looked at again for `settleMs` while the screen settles.
 * `variables` are the values a replay would hold at this point (what the session's read_text
 * save_as captured): `${name}` is filled in from them and value_matches_variable compares with them.
 */
export async function evaluateLive(ctx: VerbContext, assertion: Assertion, history: LiveHistory, settleMs = 1000, scenarioDir = liveDir(), variables: Record<string, VariableValue> = {}): Promise<LiveAssertionResult> {
  if (assertion.type === 'screenshot_match' && (isAbsolute(assertion.reference_screenshot) || assertion.reference_screenshot.split(/[\\/]/).includes('..'))) {
    throw new VerbError('INVALID_PARAMETER', `reference_screenshot ${JSON.stringify(assertion.reference_screenshot)} must be a path inside the scenario's folder (relative, without ..), e.g. "baselines/home.png"`);
  }
  // The assertion's own looks must not land in the history of the verb that came before.
  const looks: VerbContext = { ...ctx, onElements: undefined };
  let elements: Promise<ElementListing> | undefined;
  let shot: Promise<ScreenCapture> | undefined;
  let screen: ScreenSize | undefined;
  const env: AssertionEnv = {
    verbs: looks,
    elements: () => (elements ??= listElements(looks)),
    screenshot: () => (shot ??= screenCapture(looks)),
    screen: async () => (screen ??= await verbScreenSize(looks)),
    variables,
    textBefore: () => undefined,
    toastsSeen: history.toasts,
    scenarioDir,
    darkMode: () => darkMode(looks),
    keyboard: () => keyboardVisible(looks),
  };
  // As in a replay, a reference to a variable that holds nothing (yet) is the check's error, once its condition holds.
  let live: Assertion | Error;
  try {
    live = interpolateFields(assertion, variables);
  } catch (err) {
    live = err as Error;
  }
  if (!(live instanceof Error) && live.type === 'text_changed') {
    const before = history.before;
    let text: string | null | undefined;
    if (before) {
      const r = await resolveOnce(looks, { description: live.element_description, intent: 'read' }, before);
      text = r.ok ? textOf(r.element, before) : null;
    }
    env.textBefore = () => text;
  }
  const refresh = () => {
    elements = undefined;
    shot = undefined;
  };
  // The 2.2 fields (condition, timeout_ms) are judged as in a run: a live check that ignored
  // them would fail at once where the replay waits, or fail where the replay skips.
  const conditions: ConditionEnv = {
    verbs: looks,
    facts: async () => {
      const info = (await looks.engine.listDevices()).find((d) => d.id === looks.device);
      if (!info) throw new VerbError('DEVICE_NOT_FOUND', `device ${looks.device} is not connected`);
      return readFacts(looks, info);
    },
    variables,
    stepStatus: () => undefined,
  };
  const look = async (settle: number): Promise<LiveAssertionResult> =>
    live instanceof Error ? { assertion_id: assertion.id, type: assertion.type, status: 'error', message: live.message } : evaluateAssertion(live, env, settle, refresh);
  const result = await judgeAssertion(assertion, look, settleMs, looks, refresh, conditions);
  // The baseline went into this process's temp folder, which goes when it exits: "later runs" would find none.
  if (assertion.type === 'screenshot_match' && scenarioDir === scratch && /^no reference yet: /.test(result.message)) {
    result.message = result.message.replace(/; later runs compare against it$/, '; it lasts only for this session (a temporary folder, deleted at exit): later checks in this session compare against it, and a recording saved to a file takes a copy along where it can (recording_stop says whether it did)');
  }
  return result;
}

/**
 * The file a live screenshot_match recorded as its baseline in this process, when there is one.
 * recording_stop copies it next to a saved scenario, so the replays compare against it.
 */
export function liveBaseline(reference: string): string | undefined {
  if (scratch === undefined || isAbsolute(reference) || reference.split(/[\\/]/).includes('..')) return undefined;
  const file = join(scratch, reference);
  return existsSync(file) ? file : undefined;
}

/** Starts a history for the next verb: the context's listings feed it. */
export function watchHistory(ctx: VerbContext): { ctx: VerbContext; history: LiveHistory } {
  const history: LiveHistory = { toasts: [] };
  const watched: VerbContext = {
    ...ctx,
    onElements: (list) => {
      history.before ??= list;
      for (const e of list) if (isToast(e) && (e.text || e.accessibility_label)) history.toasts.push(e.text || e.accessibility_label!);
      ctx.onElements?.(list);
    },
  };
  return { ctx: watched, history };
}

let scratch: string | undefined;

/**
 * Live checks have no scenario file yet: reference screenshots are recorded in a private temp
 * folder, which lives as long as the process (baselines are compared within a session).
 */
function liveDir(): string {
  if (scratch === undefined) {
    const dir = (scratch = mkdtempSync(join(tmpdir(), 'mobilebridge-live-')));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return scratch;
}
