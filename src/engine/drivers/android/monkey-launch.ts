import { shellQuote } from './adb-client.js';

/**
 * Starting an app with one monkey event, where the device names no launcher activity to `am start`:
 * in random mode Monkey.java starts with MonkeySourceRandom.generateActivity, an intent for one of
 * the launcher activities of the allowed packages (-p, -c), so a count of 1 is that start alone.
 */
export const monkeyLaunchCommand = (pkg: string): string => `monkey -p ${shellQuote(pkg)} -c android.intent.category.LAUNCHER 1`;

/**
 * What monkey's output says: `started` ("Events injected: 1", printed once the event was sent),
 * `none` ("** No activities found to run, monkey aborted.": the package has no such activity, or
 * is disabled), else what it printed instead (a device without monkey, one whose monkey refuses).
 */
export function readMonkeyLaunch(out: string): 'started' | 'none' | string {
  if (/^Events injected: [1-9]/m.test(out)) return 'started';
  if (/No activities found to run, monkey aborted/.test(out)) return 'none';
  const said = out.trim().split('\n').slice(-2).join(' ').slice(0, 200);
  return said ? `it answered "${said}"` : 'it printed nothing';
}
