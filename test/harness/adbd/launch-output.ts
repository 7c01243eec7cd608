/**
 * The WaitResult block `am start -W` prints once its wait ends, in the release's own format:
 * ActivityManagerShellCommand.runStartActivity from Android 8 (Am.java runStart before), and
 * WaitResult.launchStateToString from Android 10, when LaunchState replaced ThisTime.
 */
export interface WaitEnd {
  timeout: boolean;
  /** WaitResult.launchState: 0 unknown (the field's default), 1 COLD, 2 WARM, 3 HOT; -1 from an idle timeout. */
  launchState: number;
  /** ComponentName.flattenToShortString of the activity that ended the wait. */
  activity: string;
  /** -1 (INVALID_DELAY): no launch time, and the line is left out. */
  totalMs: number;
  waitMs: number;
}

const LAUNCH_STATES: Record<number, string> = { 1: 'COLD', 2: 'WARM', 3: 'HOT', 4: 'RELAUNCH' };

export function waitBlock(sdk: number, end: WaitEnd): string {
  const lines = [`Status: ${end.timeout ? 'timeout' : 'ok'}`];
  if (sdk >= 29) lines.push(`LaunchState: ${LAUNCH_STATES[end.launchState] ?? `UNKNOWN (${end.launchState})`}`);
  lines.push(`Activity: ${end.activity}`);
  // Before Android 10 ThisTime (the last activity's own time) came first; with one activity it equals TotalTime.
  if (sdk < 29 && end.totalMs >= 0) lines.push(`ThisTime: ${end.totalMs}`);
  if (end.totalMs >= 0) lines.push(`TotalTime: ${end.totalMs}`);
  lines.push(`WaitTime: ${end.waitMs}`, 'Complete');
  return `${lines.join('\n')}\n`;
}
