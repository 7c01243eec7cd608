import { releaseBefore } from './android-release.js';
import { parseDumpedVersions, parseListedVersions } from './shell-output.js';

const LIST = 'pm list packages --show-versioncode';
const DUMP = 'dumpsys package packages';

/**
 * Where a device's installed-app versions come from. `pm list packages --show-versioncode` is short,
 * but PackageManagerShellCommand.runListPackages has the option only from Android 8: Android 7's
 * answers "Error: Unknown option: --show-versioncode" and lists nothing (its `pm` hands `list` to the
 * same shell command, Pm.runList). There the versions come from `dumpsys package packages`, which every
 * release has (longer: a block per package). The release decides up front, so the choice costs no
 * round trip; a device that refuses the option anyway (a release string that says nothing, a vendor
 * build) is switched to the dump on that answer.
 */
export class AppVersionSource {
  private dump: boolean;

  /** `release`: ro.build.version.release ("7.1.2", "14"; a preview's codename counts as new). */
  constructor(release: string) {
    this.dump = releaseBefore(release, 8);
  }

  /** `user`: `--user N ` where the current user is not the owner (current-user.ts); the dump covers every user. */
  command(user = ''): string {
    return this.dump ? DUMP : `${LIST} ${user}`.trimEnd();
  }

  /** Versions by package from `command`'s output; undefined when pm refused the option (`command` is the dump from now on). */
  read(out: string): Map<string, string> | undefined {
    if (this.dump) return parseDumpedVersions(out);
    if (/Unknown option:? --show-versioncode/.test(out)) {
      this.dump = true;
      return undefined;
    }
    return parseListedVersions(out);
  }
}
