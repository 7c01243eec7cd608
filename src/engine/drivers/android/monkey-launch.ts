import { shellQuote } from './adb-client.js';

/**
 * Starting an app with one monkey event, where the device names no launcher activity to `am start`:
 * in random mode Monkey.java starts with MonkeySourceRandom.generateActivity, an intent for one of
 * the launcher activities of the allowed packages (-p, -c), so a count of 1 is that start alone.
 * Before that, MonkeySourceRandom.validateKeys refuses a device where none of SYS_KEYS (HOME, BACK,
 * CALL, ENDCALL, the volume keys) is a key the device has (KeyCharacterMap.deviceHasKey: cloud phones,
 * TV boxes, emulators without hardware keys) while their share is 0.1% or more ("** SYS_KEYS has no
 * physical keys but with factor 2.0%.", exit 251); only SYS_KEYS is looked up (every other key counts
 * as present), and `--pct-syskeys 0` sets that share to 0, which the one start event never used anyway.
 * The option is added only after that refusal: the plain command is the one every monkey (and every
 * emulation of one) takes.
 */
export const monkeyLaunchCommand = (pkg: string, keysOff = false): string => `monkey${keysOff ? ' --pct-syskeys 0' : ''} -p ${shellQuote(pkg)} -c android.intent.category.LAUNCHER 1`;

/** MonkeySourceRandom.validateKeys' refusal: none of SYS_KEYS is a key the device has. */
export const noSystemKeys = (out: string): boolean => /SYS_KEYS has no physical keys/.test(out);

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
