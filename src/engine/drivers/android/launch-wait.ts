import { timeLeft, timeoutSignal } from '../../deadline.js';
import type { CallContext } from '../../driver.js';
/*
 * What `am start -W` says about a launch. ActivityManagerShellCommand.runStartActivity (Am.java
 * before Android 8) prints "Starting: Intent {…}", then any Warning:/Error: line, then, for a start
 * that was not refused, the WaitResult that ended the wait:
 *   Android 5–9   Status: ok|timeout, Activity: pkg/.Class, ThisTime: n, TotalTime: n, WaitTime: n, Complete
 *   Android 10+   Status: ok|timeout, LaunchState: COLD|WARM|HOT|RELAUNCH|UNKNOWN (n), Activity, TotalTime, WaitTime, Complete
 * ThisTime and TotalTime are left out when they are -1 (no launch time known).
 * The wait ends when an activity of the launch has drawn its first frame (ActivityRecord.onWindowsDrawn,
 * TotalTime then counts from the start), when the launched activity does not go idle within 10 s of
 * being resumed ("Status: timeout", ActivityTaskSupervisor IDLE_TIMEOUT), and from Android 12 also when
 * the activity is removed before drawing (its process died: ActivityRecord.cleanUp →
 * stopWaitingForActivityVisible, "LaunchState: UNKNOWN (0)" and no TotalTime). An app already in
 * front answers at once with TotalTime 0 after "Warning: Activity not started, its current task has
 * been brought to the front". Before Android 12 nothing ends the wait for an activity removed before
 * drawing, so the command may not return at all (the launcher's caller bounds it).
 */

export interface LaunchWait {
  /** The `Error…` line: the activity was not started. */
  error?: string;
  /** The `Warning: Activity not started, …` line: an existing task or activity was shown instead. */
  warning?: string;
  status?: 'ok' | 'timeout';
  /** Android 10+: COLD, WARM, HOT, RELAUNCH or "UNKNOWN (n)". */
  launchState?: string;
  /** The component whose drawing (or removal) ended the wait, as `pkg/.Class`. */
  activity?: string;
  /** From the start to the first frame drawn; absent when Android knows no launch time. */
  totalMs?: number;
}

export function parseLaunchWait(out: string): LaunchWait {
  const line = (pattern: RegExp) => pattern.exec(out)?.[1]?.trim();
  const total = line(/^TotalTime:\s*(\d+)/m);
  const status = line(/^Status:\s*(ok|timeout)\b/m) as LaunchWait['status'];
  return {
    // "Error type 3" comes before the line that says what is wrong.
    error: (/^Error:[^\n]*$/m.exec(out) ?? /^Error[^\n]*$/m.exec(out))?.[0].trim(),
    warning: line(/^Warning:\s*([^\n]*)$/m),
    status,
    launchState: line(/^LaunchState:\s*([^\n]*)$/m),
    activity: line(/^Activity:\s*(\S+)/m),
    totalMs: total === undefined ? undefined : Number(total),
  };
}

/**
 * Whether the wait confirms that `pkg` has drawn: `shown` with a note for the caller, or not, with
 * what Android said instead, after which the caller looks at what is in front.
 */
export type LaunchVerdict = { shown: true; note?: string } | { shown: false; why: string };

export function judgeLaunch(wait: LaunchWait, pkg: string): LaunchVerdict {
  const warning = wait.warning ?? '';
  const toFront = /brought to the front/.test(warning);
  const onTop = /delivered to currently running top-most instance/.test(warning);
  if (wait.status === 'timeout') return { shown: false, why: 'Android stopped waiting for its first frame ("Status: timeout": the app was still busy 10 s after Android resumed it)' };
  // Every `am` that waits prints the WaitResult; one that ignores -W (a device emulation's) returns at once.
  if (!wait.status) return { shown: false, why: 'am start returned without waiting for its first frame (it printed no Status line)' };
  // "…because the current activity is being kept for the user" (app switches stopped): nothing was started.
  if (warning && !toFront && !onTop) return { shown: false, why: `am said "Warning: ${warning}"` };
  // Android 5–7 leave WaitResult.who unset for START_DELIVERED_TO_TOP: no Activity line, TotalTime 0.
  if (onTop && wait.activity === undefined) return { shown: true, note: 'it was already in front' };
  // From Android 10 (the releases that print LaunchState) the activities an app starts before its first
  // frame are one launch (ActivityMetricsLogger coalesces them, also across packages), and the wait
  // names the last: a permission prompt or a sign-in page the app opened at once. Before, any activity
  // drawn while the wait lasted could end it (the launcher, after a crash): that is no confirmation.
  const foreign = wait.activity !== undefined && wait.activity.split('/')[0] !== pkg;
  if (wait.activity === undefined || (foreign && wait.launchState === undefined)) return { shown: false, why: `Android's wait ended on ${wait.activity ?? 'no activity'}, not on ${pkg}` };
  if (wait.totalMs === undefined) {
    const state = wait.launchState ? `LaunchState ${wait.launchState}, ` : '';
    return { shown: false, why: `Android stopped waiting before its first frame was drawn (${state}no TotalTime: its activity was removed, because its process died or it closed itself)` };
  }
  const over = foreign ? `; what shows is ${wait.activity}, another app's screen that ${pkg} opened as it started (a permission prompt, a sign-in page)` : '';
  if (toFront) return { shown: true, note: `it was already running, so Android brought its task to the front${over}` };
  if (onTop) return { shown: true, note: `it was already in front${over}` };
  const kind = /^(COLD|WARM|HOT)$/.test(wait.launchState ?? '') ? `${wait.launchState!.toLowerCase()} start, ` : '';
  return { shown: true, note: `first frame drawn (${kind}${wait.totalMs} ms)${over}` };
}

/** Time kept after `am` for the look at what is in front (one round trip) and the answer, within the call's deadline. */
const LOOK_MARGIN_MS = 1_500;
/** `am` gets at least this long even when the deadline is nearer: a start must be asked for before anything can be seen. */
const MIN_WAIT_MS = 500;

/** What `am start -W` printed (undefined when it had not returned), and how long it was given. */
export interface Started {
  wait: LaunchWait | undefined;
  waitedMs: number;
}

/**
 * `am start -W <intent>`, given at most `io.waitMs` and no longer than the call's deadline leaves room
 * for a look at what is in front: a slow start then ends as "not confirmed", not as the call's TIMEOUT.
 */
export async function startWaiting(
  io: { shell(command: string, ctx: CallContext, what: string): Promise<string>; waitMs: number },
  intent: string,
  ctx: CallContext,
  what: string,
): Promise<Started> {
  const waitedMs = Math.round(Math.min(io.waitMs, Math.max(MIN_WAIT_MS, timeLeft(ctx) - LOOK_MARGIN_MS)));
  const patience = AbortSignal.any([ctx.signal, timeoutSignal(waitedMs)]);
  let wait: LaunchWait | undefined;
  try {
    const out = await io.shell(`am start -W ${intent}`, { signal: patience }, what);
    // An `am` that does not know -W (a device emulation's) refuses the whole start: it is started without the wait.
    wait = parseLaunchWait(/Unknown option:? -W\b/.test(out) ? await io.shell(`am start ${intent}`, { signal: patience }, what) : out);
  } catch (err) {
    // Our patience ran out, not the call's: the app may still be starting, which the app in front tells.
    if (ctx.signal.aborted || !patience.aborted) throw err;
  }
  return { wait, waitedMs };
}

/** The verdict when `am` had not answered within `waitedMs` of the `fullMs` a start may take. */
export function unanswered(waitedMs: number, fullMs: number): { shown: false; why: string } {
  const cutShort = waitedMs < fullMs ? ", all the time the call's deadline left for it" : '';
  return { shown: false, why: `Android had not reported its first frame after ${Math.round(waitedMs / 100) / 10} s${cutShort}` };
}
