import { sleep, timeLeft } from '../../deadline.js';
import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import { RecentMap } from '../../recent-map.js';
import { shellQuote } from './adb-client.js';
import { judgeLaunch, startWaiting, unanswered, type LaunchVerdict, type Started } from './launch-wait.js';
import { monkeyLaunchCommand, noSystemKeys, readMonkeyLaunch } from './monkey-launch.js';
import { parseLauncherActivities } from './resolver-table.js';
import type { ScreenState } from './screen-state.js';
import { isListed, parseQueriedActivities, parseResolvedActivity } from './shell-output.js';

/** What launching needs from its device (android-device.ts), with the device's error mapping. */
export interface LaunchIo {
  serial: string;
  /** A shell command's output, with a SecurityException in it reported as PERMISSION_DENIED. */
  shell(command: string, ctx: CallContext, what: string): Promise<string>;
  /** `pm path` and the command in one round trip; throws APP_NOT_INSTALLED when the package is missing. */
  forInstalled(pkg: string, command: string, ctx: CallContext, what: string): Promise<string>;
  /** `--user N ` for `pm` where the current user is not the owner, else '' (current-user.ts). */
  pmUser(ctx: CallContext): Promise<string>;
  /** Whether the shell has `cmd` (Android 7+; launcher-source.ts). */
  hasCmd(): boolean;
  /** True when `out` says the shell has no `cmd`; remembered for every later call. */
  lacksCmd(out: string): boolean;
  /**
   * The package of the app in front, when the device names one, and the screen state, when it can be
   * read; `unknown` when nothing the device answers can tell which app is in front (front-app.ts).
   */
  look(ctx: CallContext): Promise<Look>;
  /**
   * Wakes the screen and removes a swipe lock, as before input (screen-state.ts ScreenGuard), starting
   * from the state `look` read; PERMISSION_DENIED when a secure lock stays or the screen does not wake.
   */
  makeUsable(screen: ScreenState, pkg: string, ctx: CallContext): Promise<void>;
  /** How long `am start -W` may wait for the first frame before the launcher looks at what is in front. */
  waitMs: number;
}

export interface Look {
  front?: string;
  screen?: ScreenState;
  unknown?: boolean;
}

/** Packages whose launcher activity is remembered; far more than an agent or a scenario launches. */
const MAX_REMEMBERED = 256;

/**
 * Starts apps with `am start -W -n <launcher activity>`: unlike `monkey -p`, this works on devices
 * without physical keys (cloud phones, TV boxes: monkey aborts with "SYS_KEYS has no physical keys"),
 * and `am` says when the start failed. `-W` makes `am` return once the app has drawn its first frame
 * (launch-wait.ts), so a screenshot taken next shows the app, not the launcher; when Android cannot
 * confirm that frame (the app died while starting, never settled, started behind the lock screen, or
 * `am` did not answer within `waitMs` or the call's deadline), the screen and the app in front decide:
 * a dark or locked screen is handled as before input, ours in front is a launch still under way,
 * anything else an error. An unlocked phone never pays for the screen check.
 * The activity is resolved once per package (`cmd package resolve-activity`; on Android 5–6, which
 * have no `cmd`, the launcher filters in `dumpsys package -f <pkg>`) and remembered,
 * so a relaunch is one round trip instead of two (`pm` and `cmd package` each cost a binder
 * call, and on phones ~100 ms). A remembered activity that no longer starts (the app was removed
 * or updated behind our back: "Error type 3") is resolved again, so the answer stays the device's.
 * A device that answers neither query (a device emulation, a build without them) starts apps with
 * `monkey -p <pkg> -c LAUNCHER 1` from then on (monkey-launch.ts), which finds the activity itself.
 */
export class AppLauncher {
  private readonly components = new RecentMap<string, string>(MAX_REMEMBERED);
  /** The device names no launcher activities (found on a first launch): apps are started with monkey. */
  private byMonkey = false;
  /** The device's monkey refused for want of system keys: it is run with `--pct-syskeys 0` from then on. */
  private monkeyKeysOff = false;

  constructor(private readonly io: LaunchIo) {}

  /** Resolves to a note on how the app came up (first frame drawn, brought to the front, still loading). */
  async launch(pkg: string, ctx: CallContext): Promise<string> {
    if (this.byMonkey) return this.monkeyLaunch(pkg, await this.monkey(pkg, (command) => this.io.forInstalled(pkg, command, ctx, 'launching')), ctx);
    const known = this.components.get(pkg);
    if (known) {
      const started = await this.start(pkg, known, ctx);
      if (!started.wait?.error) return this.outcome(pkg, judged(pkg, started, this.io.waitMs), () => this.startAgain(pkg, known, ctx), ctx);
      this.components.delete(pkg);
    }
    const component = await this.resolve(pkg, ctx);
    if (component === undefined) {
      // Nothing on this device names launcher activities: the same for every package, so later launches go to monkey at once.
      this.byMonkey = true;
      return this.monkeyLaunch(pkg, await this.monkey(pkg, (command) => this.io.shell(command, ctx, `launching ${pkg}`)), ctx);
    }
    const started = refusing(component, await this.start(pkg, component, ctx), this.io.serial);
    this.components.set(pkg, component);
    return this.outcome(pkg, judged(pkg, started, this.io.waitMs), () => this.startAgain(pkg, component, ctx), ctx);
  }

  /** Installing, updating or removing the app may change its launcher activity. */
  forget(pkg: string): void {
    this.components.delete(pkg);
  }

  /**
   * The launcher activity; undefined when the device answered neither query with anything it knows
   * (a device emulation or a build without them), so monkey is left to find it.
   */
  private async resolve(pkg: string, ctx: CallContext): Promise<string | undefined> {
    const intent = `-a android.intent.action.MAIN -c android.intent.category.LAUNCHER ${shellQuote(pkg)}`;
    let component: string | undefined;
    let answered: boolean;
    const out = this.io.hasCmd() ? await this.io.forInstalled(pkg, `cmd package resolve-activity --brief ${intent}`, ctx, 'launching') : '';
    if (!this.io.hasCmd() || this.io.lacksCmd(out)) {
      // Android 5–6: the package's own dump with its intent filters (-f; resolver-table.ts); the first launcher one.
      const dump = await this.io.forInstalled(pkg, `dumpsys package -f ${shellQuote(pkg)}`, ctx, 'launching');
      component = parseLauncherActivities(dump).get(pkg)?.[0];
      answered = /^Activity Resolver Table:/m.test(dump);
    } else {
      // Two launcher activities (a debug build's LeakCanary or Chucker icon beside the app's own) make
      // the package manager answer with its chooser; the first of the app's own is what its icon opens.
      const queried = parseResolvedActivity(out, pkg) ? '' : await this.io.shell(`cmd package query-activities --brief --components ${intent}`, ctx, `launching ${pkg}`);
      component = parseResolvedActivity(out, pkg) ?? parseQueriedActivities(queried, pkg)[0];
      // PackageManagerShellCommand's answers when nothing matches.
      answered = /^No activity found/m.test(out) || /^No activities found/m.test(queried);
    }
    if (!component && answered) throw await this.noLauncher(pkg, ctx);
    return component;
  }

  /** Why `pkg` has nothing to start: disabled, or no launcher activity. */
  private async noLauncher(pkg: string, ctx: CallContext): Promise<ToolError> {
    // A disabled app (Settings › Apps › Disable, `pm disable-user`) is still installed, but none of
    // its activities resolves, so no link opens it either: say that, not "use mobile_open_url".
    if (isListed(await this.io.shell(`pm list packages ${await this.io.pmUser(ctx)}-d ${shellQuote(pkg)}`, ctx, `launching ${pkg}`), pkg)) {
      return new ToolError('INVALID_PARAMETER', `${pkg} is installed on ${this.io.serial} but disabled, so it cannot start; enable it in Settings › Apps (or run "adb shell pm enable ${pkg}") and launch it again`);
    }
    return new ToolError('INVALID_PARAMETER', `${pkg} on ${this.io.serial} has no launcher activity to start; open one of its screens with mobile_open_url instead`);
  }

  /** Monkey's start of `pkg` run by `run`, again without system keys where it refused for their want (monkey-launch.ts). */
  private async monkey(pkg: string, run: (command: string) => Promise<string>): Promise<string> {
    const out = await run(monkeyLaunchCommand(pkg, this.monkeyKeysOff));
    if (this.monkeyKeysOff || !noSystemKeys(out)) return out;
    this.monkeyKeysOff = true;
    return run(monkeyLaunchCommand(pkg, true));
  }

  /**
   * What `monkey -p <pkg> -c LAUNCHER 1` (`out`) did: its one event starts the package's launcher
   * activity, which it does not wait for, so the app in front decides as for an `am` that did not wait.
   */
  private async monkeyLaunch(pkg: string, out: string, ctx: CallContext): Promise<string> {
    const said = readMonkeyLaunch(out);
    if (said === 'none') throw await this.noLauncher(pkg, ctx);
    if (said !== 'started') {
      throw new ToolError(
        'UNSUPPORTED',
        `${this.io.serial} cannot start ${pkg}: its package manager's queries for launcher activities gave no answer and \`monkey -p\` did not start one (${said}); open one of its screens with mobile_open_url instead`,
      );
    }
    const again = async (): Promise<Attempt> => {
      if (readMonkeyLaunch(await this.monkey(pkg, (command) => this.io.shell(command, ctx, `launching ${pkg}`))) !== 'started') throw new ToolError('INTERNAL', `${this.io.serial} did not start ${pkg} again with monkey`);
      return MONKEY_STARTED;
    };
    return this.outcome(pkg, MONKEY_STARTED, again, ctx);
  }

  private start(pkg: string, component: string, ctx: CallContext): Promise<Started> {
    return startWaiting(this.io, `-n ${shellQuote(component)} -a android.intent.action.MAIN -c android.intent.category.LAUNCHER`, ctx, `launching ${pkg}`);
  }

  private async startAgain(pkg: string, component: string, ctx: CallContext): Promise<Attempt> {
    return judged(pkg, refusing(component, await this.start(pkg, component, ctx), this.io.serial), this.io.waitMs);
  }

  /**
   * The note for a confirmed launch. Otherwise one look at the screen and the app in front: a dark or
   * locked screen is woken and a swipe lock removed (once), then the app started again (`again`), since
   * Android started it behind the lock screen, where it is never drawn; a secure lock is refused as for
   * input. Then the app in front decides between "still starting" and an error; where nothing names it,
   * the launch is not confirmed, and says so.
   */
  private async outcome(pkg: string, { verdict, unwaited }: Attempt, again: () => Promise<Attempt>, ctx: CallContext, retried = false): Promise<string> {
    if (verdict.shown) return verdict.note ?? '';
    // A start nothing waited for (no Status line from `am`, or monkey's) left the app starting: give it the wait it skipped.
    const { front, screen, unknown } = unwaited ? await lookUntil(this.io, pkg, ctx) : await this.io.look(ctx);
    if (screen && (!screen.awake || screen.locked) && !retried) {
      await this.io.makeUsable(screen, pkg, ctx);
      const note = await this.outcome(pkg, await again(), again, ctx, true);
      return `${madeUsable(screen)}, and it was started again${note ? `: ${note}` : ''}`;
    }
    if (front === pkg) return `it is in front, but ${verdict.why}; it may still be loading, so look at the screen before relying on it`;
    if (unknown) return `not confirmed: ${verdict.why}, and ${this.io.serial} has nothing that names the app in front; look at the screen before relying on it`;
    throw new ToolError(
      'INTERNAL',
      `${pkg} did not finish starting on ${this.io.serial}: ${verdict.why}; ${front ? `${front} is in front now` : 'no app is in front now'}. ` +
        'It may have crashed while starting (`adb logcat -b crash` shows why)',
    );
  }
}

/** A start and what it confirmed; `unwaited`: it returned before the app could come up. */
interface Attempt {
  verdict: LaunchVerdict;
  unwaited: boolean;
}

const MONKEY_STARTED: Attempt = { verdict: { shown: false, why: 'monkey started it without waiting for its first frame' }, unwaited: true };

function judged(pkg: string, { wait, waitedMs }: Started, fullMs: number): Attempt {
  return { verdict: wait ? judgeLaunch(wait, pkg) : unanswered(waitedMs, fullMs), unwaited: wait !== undefined && !wait.status };
}

/** The start, unless `am` refused it with an `Error:` line. */
function refusing(component: string, started: Started, serial: string): Started {
  if (started.wait?.error) throw new ToolError('INTERNAL', `${serial} did not start ${component}: ${started.wait.error}`);
  return started;
}

/** What was done to a screen that kept the app from being drawn. */
export function madeUsable(screen: ScreenState): string {
  const kind = screen.secure ? 'its PIN, pattern or password held open by a trust agent' : 'no PIN, pattern or password';
  if (!screen.awake && screen.locked) return `the screen was off and locked (${kind}), so it was woken and the lock screen dismissed`;
  if (!screen.awake) return 'the screen was off, so it was woken';
  return `the lock screen was showing (${kind}), so it was dismissed`;
}

/** How long a start `am` did not wait for is given to bring the app to the front, at most. */
const SETTLE_MS = 3_000;
/** Between two looks at what is in front. */
const SETTLE_STEP_MS = 250;
/** Time kept for the answer after the last look. */
const SETTLE_MARGIN_MS = 1_500;

/**
 * Looks until `pkg` is in front, for a start that `am` did not wait for (its activity may take a
 * moment to resume); stops at once on a dark or locked screen and where nothing names the app in front.
 */
export async function lookUntil(io: Pick<LaunchIo, 'look'>, pkg: string, ctx: CallContext): Promise<Look> {
  const until = performance.now() + Math.min(SETTLE_MS, timeLeft(ctx) - SETTLE_MARGIN_MS);
  for (;;) {
    const look = await io.look(ctx);
    const blocked = look.screen && (!look.screen.awake || look.screen.locked);
    if (look.front === pkg || look.unknown || blocked || performance.now() + SETTLE_STEP_MS > until) return look;
    await sleep(SETTLE_STEP_MS, ctx.signal);
  }
}
