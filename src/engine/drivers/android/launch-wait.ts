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
  if (!wait.status) return { shown: false, why: 'am start -W printed no result' };
  // "…because the current activity is being kept for the user" (app switches stopped): nothing was started.
  if (warning && !toFront && !onTop) return { shown: false, why: `am said "Warning: ${warning}"` };
  if (wait.activity?.split('/')[0] !== pkg) return { shown: false, why: `Android's wait ended on ${wait.activity ?? 'no activity'}, not on ${pkg}` };
  if (wait.totalMs === undefined) {
    const state = wait.launchState ? `LaunchState ${wait.launchState}, ` : '';
    return { shown: false, why: `Android stopped waiting before its first frame was drawn (${state}no TotalTime: its activity was removed, because its process died or it closed itself)` };
  }
  if (toFront) return { shown: true, note: 'it was already running, so Android brought its task to the front' };
  if (onTop) return { shown: true, note: 'it was already in front' };
  const kind = /^(COLD|WARM|HOT)$/.test(wait.launchState ?? '') ? `${wait.launchState!.toLowerCase()} start, ` : '';
  return { shown: true, note: `first frame drawn (${kind}${wait.totalMs} ms)` };
}
