/**
 * What the package manager prints for listings, per release: `pm list packages` and
 * `dumpsys package packages`. Written from AOSP frameworks/base
 * services/core/java/com/android/server/pm/PackageManagerShellCommand.java (runListPackages) and
 * Settings.java (dumpPackagesLPr, dumpPackageLPr), cmds/pm/src/com/android/commands/pm/Pm.java (Android 7).
 */

export interface ListedApp {
  package: string;
  version: string;
  system: boolean;
}

/** The emulated phone's versionCode for an app: the digits of its version name ("1.4.2" → 142). */
export function versionCodeOf(app: ListedApp): string {
  return app.version.replace(/\D/g, '') || '1';
}

/**
 * `pm list packages [options]`. `--show-versioncode` is one of runListPackages' options from Android 8
 * (android-8.0.0_r1); before, its option switch ends in "Error: Unknown option: <opt>" and lists
 * nothing. Android 7's `pm` (Pm.runList) hands `list` to that shell command and exits 0 whatever it printed.
 */
export function listPackages(apps: ListedApp[], args: string[], releaseMajor: number, disabled: ReadonlySet<string> = new Set()): string {
  const options = args.filter((a) => a.startsWith('-'));
  const unknown = options.find((o) => !KNOWN_LIST_OPTIONS.includes(o) && !(o === '--show-versioncode' && releaseMajor >= 8));
  if (unknown) return `Error: Unknown option: ${unknown}\n`;
  const withCode = options.includes('--show-versioncode');
  // The argument after the options is a filter: packages whose name contains it (String.contains).
  const filter = args.find((a) => !a.startsWith('-'));
  return apps
    .filter((a) => (filter === undefined || a.package.includes(filter)) && (!options.includes('-d') || disabled.has(a.package)) && (!options.includes('-e') || !disabled.has(a.package)))
    .map((a) => `package:${a.package}${withCode ? ` versionCode:${versionCodeOf(a)}` : ''}\n`)
    .join('');
}
const KNOWN_LIST_OPTIONS = ['-d', '-e', '-f', '-i', '-l', '-s', '-u', '-3'];

/**
 * `dumpsys package packages`: "Packages:", a block per installed package, then "Hidden system
 * packages:" with the factory version of every system app that carries an update. The line with
 * versionCode has " minSdk=" from Android 8 (dumpPackageLPr); an abridged block (no permissions, users).
 */
export function dumpPackages(apps: ListedApp[], updatedSystemApps: ReadonlySet<string>, releaseMajor: number): string {
  const block = (a: ListedApp, code: string, name: string, n: number) => [
    `  Package [${a.package}] (${(0x1a2b3c + n).toString(16)}):`,
    `    userId=${10_000 + n}`,
    `    pkg=Package{${(0x4d5e6f + n).toString(16)} ${a.package}}`,
    `    codePath=${a.system ? `/system/app/${a.package}` : `/data/app/${a.package}-1`}`,
    `    versionCode=${code}${releaseMajor >= 8 ? ' minSdk=21' : ''} targetSdk=${releaseMajor >= 8 ? 26 : 25}`,
    `    versionName=${name}`,
    `    flags=[ ${a.system ? 'SYSTEM ' : ''}HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]`,
    '',
  ].join('\n');
  const hidden = apps.filter((a) => a.system && updatedSystemApps.has(a.package));
  return [
    'Packages:',
    ...apps.map((a, i) => block(a, versionCodeOf(a), a.version, i)),
    ...(hidden.length ? ['Hidden system packages:', ...hidden.map((a, i) => block(a, '1', '1.0', apps.length + i))] : []),
    '',
  ].join('\n');
}
