import { ToolError } from '../../errors.js';
import type { InstalledApp } from '../../types.js';
import { releaseBefore } from './android-release.js';
import { parseLauncherActivities } from './resolver-table.js';
import { firstLine, parseLauncherApps, SEPARATOR, shellLacks } from './shell-output.js';

const QUERY = 'cmd package query-activities -a android.intent.action.MAIN -c android.intent.category.LAUNCHER';
/** Android 5–6: the enabled packages installed for the user (`user`: current-user.ts), then every intent filter. */
const dump = (user: string) => `pm list packages ${user}-e; echo ${SEPARATOR}; dumpsys package -f r`;

/**
 * Where a device's launchable apps come from. `cmd` (and with it `cmd package query-activities`)
 * exists from Android 7; on Android 5–6 the shell answers "/system/bin/sh: cmd: not found" (mksh) and
 * the listing was empty. There the launcher activities are read from the package manager's intent
 * filters (`dumpsys package -f r`, resolver-table.ts), kept to the packages `pm list packages -e`
 * lists (Pm.runListPackages: installed for the user, not disabled), as the launcher's own query
 * would skip the others. Those releases print no app labels without one call per app, so the apps
 * are named by package and say `labelUnknown`. The release decides up front (no round trip); a
 * device whose release says 7+ but has no `cmd`, or whose `query-activities` answers nothing it
 * knows, is switched to the dump on that answer.
 */
export class LauncherSource {
  private withoutCmd: boolean;
  /** The listing comes from the dump: no `cmd`, or a `query-activities` that answered nothing it knows (a device emulation, a stripped build). */
  private fromDump: boolean;

  /** `release`: ro.build.version.release ("6.0.1", "14"; a preview's codename counts as new). */
  constructor(
    release: string,
    private readonly serial: string,
  ) {
    this.withoutCmd = releaseBefore(release, 7);
    this.fromDump = this.withoutCmd;
  }

  /** False on Android 5–6 (and a device found to lack `cmd`): package commands go through `pm` and `dumpsys`. */
  get hasCmd(): boolean {
    return !this.withoutCmd;
  }

  /** True when `out` (of a `cmd` call) says the shell has no `cmd`; `hasCmd` is false from then on. */
  lacksCmd(out: string): boolean {
    if (shellLacks(out, 'cmd')) this.withoutCmd = this.fromDump = true;
    return this.withoutCmd;
  }

  /** `user`: `--user N ` where the current user is not the owner; `query-activities` asks the current user already. */
  command(user = ''): string {
    return this.fromDump ? dump(user) : QUERY;
  }

  /**
   * The launchable apps from `command`'s output; undefined when the query gave no answer it knows
   * (`command` is the dump from now on). UNSUPPORTED when the dump has no resolver table either:
   * an empty list would say the device has no apps.
   */
  read(out: string, versions: ReadonlyMap<string, string>): InstalledApp[] | undefined {
    if (this.fromDump) return this.dumped(out, versions);
    if (shellLacks(out, 'cmd')) this.withoutCmd = true;
    // PackageManagerShellCommand's answers: an "Activity #n:" block per match, or this line.
    if (shellLacks(out, 'cmd') || !/^\s*(?:Activity #\d+:|packageName=)|^No activities found/m.test(out)) {
      this.fromDump = true;
      return undefined;
    }
    return parseLauncherApps(out, versions);
  }

  private dumped(out: string, versions: ReadonlyMap<string, string>): InstalledApp[] {
    const [listed, resolvers = ''] = out.split(SEPARATOR);
    if (!/^Activity Resolver Table:/m.test(resolvers)) {
      throw new ToolError(
        'UNSUPPORTED',
        `${this.serial} cannot tell which apps are launchable: neither \`cmd package query-activities\` nor \`dumpsys package -f r\` answered (${firstLine(resolvers, 160) || firstLine(out, 160) || 'no output'}); launch an app by its package id (\`adb shell pm list packages\` lists them)`,
      );
    }
    const enabled = new Set([...listed.matchAll(/^package:(\S+)/gm)].map((m) => m[1]));
    return [...parseLauncherActivities(resolvers).keys()]
      .filter((pkg) => enabled.has(pkg))
      .sort((a, b) => a.localeCompare(b))
      .map((pkg) => ({ package: pkg, name: pkg, labelUnknown: true as const, version: versions.get(pkg) ?? '', installed: true }));
  }
}


