import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import { RecentMap } from '../../recent-map.js';
import { shellQuote } from './adb-client.js';
import { parseLauncherActivities } from './resolver-table.js';
import { parseQueriedActivities, parseResolvedActivity } from './shell-output.js';

/** What launching needs from its device (android-device.ts), with the device's error mapping. */
export interface LaunchIo {
  serial: string;
  /** A shell command's output, with a SecurityException in it reported as PERMISSION_DENIED. */
  shell(command: string, ctx: CallContext, what: string): Promise<string>;
  /** `pm path` and the command in one round trip; throws APP_NOT_INSTALLED when the package is missing. */
  forInstalled(pkg: string, command: string, ctx: CallContext, what: string): Promise<string>;
  /** Whether the shell has `cmd` (Android 7+; launcher-source.ts). */
  hasCmd(): boolean;
  /** True when `out` says the shell has no `cmd`; remembered for every later call. */
  lacksCmd(out: string): boolean;
}

/** Packages whose launcher activity is remembered; far more than an agent or a scenario launches. */
const MAX_REMEMBERED = 256;

/**
 * Starts apps with `am start -n <launcher activity>`: unlike `monkey -p`, this works on devices
 * without physical keys (cloud phones, TV boxes: monkey aborts with "SYS_KEYS has no physical keys"),
 * and `am` says when the start failed. The activity is resolved once per package (`cmd package
 * resolve-activity`; on Android 5–6, which have no `cmd`, the launcher filters in `dumpsys package
 * -f <pkg>`) and remembered,
 * so a relaunch is one round trip instead of two (`pm` and `cmd package` each cost a binder
 * call, and on phones ~100 ms). A remembered activity that no longer starts (the app was removed
 * or updated behind our back: "Error type 3") is resolved again, so the answer stays the device's.
 */
export class AppLauncher {
  private readonly components = new RecentMap<string, string>(MAX_REMEMBERED);

  constructor(private readonly io: LaunchIo) {}

  async launch(pkg: string, ctx: CallContext): Promise<void> {
    const known = this.components.get(pkg);
    if (known) {
      const failure = await this.start(pkg, known, ctx);
      if (!failure) return;
      this.components.delete(pkg);
    }
    const component = await this.resolve(pkg, ctx);
    const failure = await this.start(pkg, component, ctx);
    if (failure) throw new ToolError('INTERNAL', `${this.io.serial} did not start ${component}: ${failure}`);
    this.components.set(pkg, component);
  }

  /** Installing, updating or removing the app may change its launcher activity. */
  forget(pkg: string): void {
    this.components.delete(pkg);
  }

  private async resolve(pkg: string, ctx: CallContext): Promise<string> {
    const intent = `-a android.intent.action.MAIN -c android.intent.category.LAUNCHER ${shellQuote(pkg)}`;
    let component: string | undefined;
    const out = this.io.hasCmd() ? await this.io.forInstalled(pkg, `cmd package resolve-activity --brief ${intent}`, ctx, 'launching') : '';
    if (!this.io.hasCmd() || this.io.lacksCmd(out)) {
      // Android 5–6: the package's own dump with its intent filters (-f; resolver-table.ts); the first launcher one.
      component = parseLauncherActivities(await this.io.forInstalled(pkg, `dumpsys package -f ${shellQuote(pkg)}`, ctx, 'launching')).get(pkg)?.[0];
    } else {
      // Two launcher activities (a debug build's LeakCanary or Chucker icon beside the app's own) make
      // the package manager answer with its chooser; the first of the app's own is what its icon opens.
      component = parseResolvedActivity(out, pkg) ?? parseQueriedActivities(await this.io.shell(`cmd package query-activities --brief --components ${intent}`, ctx, `launching ${pkg}`), pkg)[0];
    }
    if (!component) {
      throw new ToolError('INVALID_PARAMETER', `${pkg} on ${this.io.serial} has no launcher activity to start; open one of its screens with mobile_open_url instead`);
    }
    return component;
  }

  /** The `Error…` line `am` printed, or undefined when the activity started (or was brought to the front). */
  private async start(pkg: string, component: string, ctx: CallContext): Promise<string | undefined> {
    const out = await this.io.shell(`am start -n ${shellQuote(component)} -a android.intent.action.MAIN -c android.intent.category.LAUNCHER`, ctx, `launching ${pkg}`);
    return /^Error:[^\n]*$/m.exec(out)?.[0].trim() ?? /^Error[^\n]*$/m.exec(out)?.[0].trim();
  }
}
