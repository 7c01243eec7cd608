import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PACKAGE, type VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { DeviceFiles } from './files.js';
import { InstallSessions, type Stdin } from './install-sessions.js';
import { waitBlock } from './launch-output.js';
import { listPackages } from './package-output.js';
import { currentUserAnswer, installedFor, removeFor, takeUser } from './users.js';
import { releaseMajor, releaseSdk, type PhoneQuirks } from './phone-quirks.js';
import { ctx, ok, pmEscaped, unknown, type CommandResult } from './shell-command.js';

const RESOLVER_ACTIVITY = 'android/com.android.internal.app.ResolverActivity';
/** The runtime permission prompt: an activity of the permission controller, started into the asking app's task. */
export const GRANT_PERMISSIONS_ACTIVITY = 'com.google.android.permissioncontroller/com.android.permissioncontroller.permission.ui.GrantPermissionsActivity';
/** What `am` prints, once the start returned, for START_TASK_TO_FRONT. */
const TO_FRONT = 'Warning: Activity not started, its current task has been brought to the front\n';

/**
 * The SecurityException createSessionInternal throws under no_install_apps, as each release's shell prints
 * an uncaught exception: ShellCommand.exec (Android 11+: "Exception occurred while executing", 8–10:
 * "Security exception: "), both with the stack, exit status 255; Pm.java before 8: "Error: " and the exception, exit 1.
 */
function restrictedInstall(sdk: number): CommandResult {
  const exception = 'java.lang.SecurityException: User restriction prevents installing';
  const stack = `${exception}\n\tat com.android.server.pm.PackageInstallerService.createSessionInternal(PackageInstallerService.java:560)\n\tat com.android.server.pm.PackageInstallerService.createSession(PackageInstallerService.java:479)\n`;
  if (sdk >= 30) return { out: '', err: `Exception occurred while executing 'install-create':\n${stack}`, code: 255 };
  if (sdk >= 26) return { out: '', err: `Security exception: User restriction prevents installing\n\n${stack}`, code: 255 };
  return { out: '', err: `Error: ${exception}\n`, code: 1 };
}

/** The activity and package managers as `am`, `monkey`, `pm` and `cmd package` reach them, carried out on a virtual phone. */
export class AppCommands {
  /** The package installer's sessions (`pm install-create` …). */
  readonly sessions: InstallSessions;

  constructor(
    private readonly phone: VirtualDevice,
    private readonly files: DeviceFiles,
    private readonly quirks: PhoneQuirks,
    /** Called for `monkey --port N`: the adbd then serves `tcp:N` as a monkey channel. */
    private readonly onMonkeyPort: (port: number) => void,
  ) {
    this.sessions = new InstallSessions(files, () => releaseSdk(quirks));
  }

  async am([verb, ...args]: string[]): Promise<CommandResult> {
    if (verb === 'get-current-user') return currentUserAnswer(this.quirks, releaseSdk(this.quirks));
    if (verb === 'force-stop') {
      await this.phone.terminateApp(args[args.length - 1], ctx()).catch(() => undefined);
      return ok();
    }
    if (verb === 'start' && args.includes('-W') && this.quirks.startRefusesWait) return { out: '', err: 'Error: Unknown option: -W\n', code: 1 };
    const wait = args.includes('-W') && !this.quirks.startIgnoresWait;
    if (verb === 'start' && args.includes('-n')) return this.startComponent(args[args.indexOf('-n') + 1], wait);
    if (verb === 'start') {
      const data = args[args.indexOf('-d') + 1];
      if (args.includes('-d') && data) {
        const intent = `Intent { act=android.intent.action.VIEW dat=${safeUriString(data)} }`;
        const sdk = releaseSdk(this.quirks);
        // Several handlers, none the default: the package manager resolves the intent to its chooser,
        // which `am` starts (and, with -W, waits for) instead of any app; the link opens nowhere yet.
        if (this.quirks.linkChooser) return ok(`Starting: ${intent}\n${wait ? waitBlock(sdk, { timeout: false, launchState: 1, activity: RESOLVER_ACTIVITY, totalMs: 187, waitMs: 193 }) : ''}`);
        const before = this.phone.snapshot().tasks;
        try {
          await this.phone.openUrl(data, ctx());
          if (!wait) return ok(`Starting: ${intent}\n`);
          const handler = this.phone.foregroundPackage;
          const starting = `Starting: ${intent}\n`;
          const component = `${handler}/.MainActivity`;
          if (this.quirks.locked && !this.quirks.lockOccluded) return startBehindKeyguard(starting, handler in before, component, sdk);
          if (this.quirks.appStart.get(handler) === 'slow') return { out: starting, code: 0, open: true };
          // A new activity in the handler's running process is a warm start; a process started for it, cold.
          const warm = handler in before;
          return ok(starting + waitBlock(sdk, { timeout: false, launchState: warm ? 2 : 1, activity: component, totalMs: warm ? 214 : 642, waitMs: warm ? 220 : 655 }));
        } catch {
          // runStartActivity prints "Starting:" before adding FLAG_ACTIVITY_NEW_TASK; without -W its
          // errors go to stderr, and it returns 1.
          const sent = intent.replace(/ }$/, ' flg=0x10000000 }');
          return { out: `Starting: ${intent}\n`, err: `Error: Activity not started, unable to resolve ${sent}\n`, errLast: true, code: 1 };
        }
      }
    }
    return unknown(['am', verb, ...args]);
  }

  /**
   * `am start [-W] -n pkg/.Activity` (ActivityManagerShellCommand): "Starting: Intent {…}", or "Error
   * type 3" for a missing class; with -W, what ended the wait (launch-output.ts). Times are made up
   * but shaped like a phone's.
   */
  private async startComponent(component: string, wait: boolean): Promise<CommandResult> {
    const [pkg, activity] = component.split('/');
    const starting = `Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=${component} }\n`;
    // The chooser opens over whatever was in front; no app starts until the user picks one.
    if (component === RESOLVER_ACTIVITY) return ok(starting);
    if (!(await this.launchable(pkg)) || (activity !== '.MainActivity' && activity !== this.quirks.secondLauncher.get(pkg))) {
      return { out: `${starting}Error type 3\nError: Activity class {${pkg}/${activity?.startsWith('.') ? pkg + activity : activity}} does not exist.\n`, code: 1 };
    }
    const sdk = releaseSdk(this.quirks);
    const failure = this.quirks.appStart.get(pkg);
    if (failure === 'crash') {
      if (!wait) return ok(starting);
      // Android 12+: ActivityRecord.cleanUp → ActivityTaskSupervisor.stopWaitingForActivityVisible ends the
      // wait with no launch time. Before, removing the activity drops its idle timeout and reports nothing.
      if (sdk >= 31) return ok(starting + waitBlock(sdk, { timeout: false, launchState: 0, activity: component, totalMs: -1, waitMs: 412 }));
      return { out: starting, code: 0, open: true };
    }
    const running = pkg in this.phone.snapshot().tasks;
    const visible = this.phone.foregroundPackage === pkg;
    await this.phone.launchApp(pkg, ctx());
    if (!wait) return ok(starting);
    if (this.quirks.locked && !this.quirks.lockOccluded) return startBehindKeyguard(starting, running, component, sdk);
    // Resumed but never idle: the idle timeout (10 s after the resume) ends the wait, without a launch time.
    if (failure === 'busy') return ok(starting + waitBlock(sdk, { timeout: true, launchState: -1, activity: component, totalMs: -1, waitMs: 10_377 }));
    // Drawing its first frame takes longer than any test waits: the real `am` answers once it is drawn,
    // or at the idle timeout; here it holds until the host hangs up.
    if (failure === 'slow') return { out: starting, code: 0, open: true };
    if (failure === 'permission') {
      // The app asks for a runtime permission in onCreate: GrantPermissionsActivity opens in its task before its
      // first frame, and from Android 10 ActivityMetricsLogger counts it as the launch's last activity.
      if (pkg === DEMO_PACKAGE) await this.phone.openUrl('mbdemo://screen/permission', ctx());
      return ok(starting + waitBlock(sdk, { timeout: false, launchState: 1, activity: sdk >= 29 ? GRANT_PERMISSIONS_ACTIVITY : component, totalMs: 812, waitMs: 830 }));
    }
    if (!running) return ok(starting + waitBlock(sdk, { timeout: false, launchState: 1, activity: component, totalMs: 642, waitMs: 655 }));
    const toFront = starting + TO_FRONT;
    if (!visible) return ok(toFront + waitBlock(sdk, { timeout: false, launchState: 3, activity: component, totalMs: 118, waitMs: 121 }));
    // Already shown: ActivityStarter answers at once with totalTime 0. Android 10–11 set HOT for a task
    // brought to the front; from 12 waitResultIfNeeded leaves launchState at its default.
    return ok(toFront + waitBlock(sdk, { timeout: false, launchState: sdk >= 31 ? 0 : 3, activity: component, totalMs: 0, waitMs: 3 }));
  }

  async monkey(args: string[]): Promise<CommandResult> {
    const port = args.indexOf('--port');
    if (port >= 0) {
      this.onMonkeyPort(Number(args[port + 1]));
      return ok(':Monkey: seed=0 count=0\n');
    }
    const pkg = args[args.indexOf('-p') + 1];
    // Monkey.java: the random source refuses a system-key share of 0.1% or more (2% unless --pct-syskeys
    // says otherwise) on devices without physical keys, prints this and ends (exit -5) before injecting anything.
    const sysKeys = args.indexOf('--pct-syskeys');
    if (this.quirks.noPhysicalKeys && !(sysKeys >= 0 && Number(args[sysKeys + 1]) < 0.1)) return { out: `  bash arg: -p\n  bash arg: ${pkg}\n** SYS_KEYS has no physical keys but with factor 2.0%.\n`, code: 251 };
    // Monkey.getMainApps: no launcher activity of the package resolves (none, or the app is disabled).
    if (!(await this.launchable(pkg))) return { out: '** No activities found to run, monkey aborted.\n', code: 251 };
    await this.phone.launchApp(pkg, ctx());
    return ok('  bash arg: -p\n  bash arg: ' + pkg + '\nEvents injected: 1\n');
  }

  private installed(pkg: string) {
    return this.phone.installedApps.find((a) => a.package === pkg);
  }

  /** An app with a launcher activity that resolves: installed, shown by the launcher, and not disabled. */
  private async launchable(pkg: string): Promise<boolean> {
    return !this.quirks.disabledApps.has(pkg) && installedFor(this.quirks, pkg, this.quirks.currentUser) && (await this.phone.listApps(ctx())).some((a) => a.package === pkg);
  }

  private denied(verb: string, pkg: string): CommandResult | undefined {
    if (!this.quirks.securityDenied.has(pkg)) return undefined;
    return pmEscaped(verb, releaseSdk(this.quirks), `java.lang.SecurityException: Permission Denial: shell cannot manage ${pkg}`);
  }

  /** The package, when installed for `user` (pm's default: user 0). */
  private installedFor(pkg: string, user: number | 'all' | undefined) {
    return user === 'all' || installedFor(this.quirks, pkg, user ?? 0) ? this.installed(pkg) : undefined;
  }

  async pm([verb, ...all]: string[], stdin?: Stdin): Promise<CommandResult> {
    const session = await this.sessionCommand(verb, all, stdin);
    if (session) return session;
    const { user, rest: args } = takeUser(all, this.quirks);
    const pkg = args.filter((a) => !a.startsWith('-'))[0] ?? '';
    switch (verb) {
      case 'path':
        return this.installedFor(pkg, user) ? ok(`package:/data/app/~~mb==/${pkg}-1/base.apk\n`) : { out: '', code: 1 };
      case 'clear':
        if (this.denied(verb, pkg)) return this.denied(verb, pkg)!;
        // runClear: AMS.clearApplicationUserData reports an unknown package as not cleared: "Failed" on stderr, exit 1.
        if (!this.installedFor(pkg, user)) return { out: '', err: 'Failed\n', code: 1 };
        await this.phone.clearAppData(pkg, ctx());
        return ok('Success\n');
      case 'uninstall': {
        const app = this.installed(pkg);
        const failure = this.quirks.uninstallFailure;
        this.quirks.uninstallFailure = undefined;
        if (typeof user === 'number') return this.uninstallFor(pkg, user, failure);
        // runUninstall: "Failure [" + PackageManager.deleteStatusToString(status, msg) + "]", exit 1.
        if (app && failure) return { out: `Failure [${failure}]\n`, code: 1 };
        // runUninstall returns 1 after any "Failure [...]".
        if (!app) return { out: 'Failure [DELETE_FAILED_INTERNAL_ERROR]\n', code: 1 };
        if (app.system && this.quirks.updatedSystemApps.delete(pkg)) return ok('Success\n');
        if (app.system) return { out: 'Failure [DELETE_FAILED_INTERNAL_ERROR]\n', code: 1 };
        await this.phone.uninstallApp(pkg, ctx());
        this.quirks.userInstalls.delete(pkg);
        return ok('Success\n');
      }
      case 'install':
        return this.install(pkg);
      case 'list':
        return ok(listPackages(this.phone.installedApps.filter((a) => this.installedFor(a.package, user)), args.slice(1), releaseMajor(this.quirks, this.phone.info.version), this.quirks.disabledApps));
      case 'disable-user':
      case 'enable': {
        // runSetEnabledSetting: "Package <pkg> new state: <state>"; an unknown package throws IllegalArgumentException.
        if (!this.installed(pkg)) return pmEscaped(verb, releaseSdk(this.quirks), `java.lang.IllegalArgumentException: Unknown package: ${pkg}`);
        if (verb === 'enable') this.quirks.disabledApps.delete(pkg);
        else this.quirks.disabledApps.add(pkg);
        return ok(`Package ${pkg} new state: ${verb === 'enable' ? 'enabled' : 'disabled-user'}\n`);
      }
      default:
        return unknown(['pm', verb, ...args]);
    }
  }

  /**
   * `pm uninstall --user N`: the package goes for that user only, a system app too (DELETE_SYSTEM_APP:
   * hidden for the user instead of reverting to its factory version); it is deleted once no user has it.
   */
  private async uninstallFor(pkg: string, user: number, failure: string | undefined): Promise<CommandResult> {
    const app = this.installedFor(pkg, user);
    if (!app) return { out: `Failure [not installed for ${user}]\n`, code: 1 };
    if (failure) return { out: `Failure [${failure}]\n`, code: 1 };
    if (removeFor(this.quirks, pkg, user) && !app.system) await this.phone.uninstallApp(pkg, ctx());
    return ok('Success\n');
  }

  /** `pm install-*` on a session (install-sessions.ts); undefined for other verbs. */
  private async sessionCommand(verb: string, args: string[], stdin: Stdin | undefined): Promise<CommandResult | undefined> {
    switch (verb) {
      case 'install-create': return this.quirks.installRestricted ? restrictedInstall(releaseSdk(this.quirks)) : this.sessions.create();
      case 'install-write': return this.sessions.write(args, stdin);
      case 'install-commit': return this.sessions.commit(args, this.quirks.installConfirmation, (apk) => this.installApk(apk));
      case 'install-abandon':
      case 'install-destroy': return this.sessions.abandon(args);
      default: return undefined;
    }
  }

  /** `pm install <path>`: the pushed file, installed as a session's would be. */
  private async install(devicePath: string): Promise<CommandResult> {
    const data = this.files.read(devicePath);
    // runInstall returns 1 after "Failure [...]".
    if (!data && !this.quirks.installFailure) return { out: `Failure [INSTALL_FAILED_INVALID_URI: Don't have ${devicePath}]\n`, code: 1 };
    const out = await this.installApk(data ?? Buffer.alloc(0));
    return { out, code: out.startsWith('Success') ? 0 : 1 };
  }

  /** The bytes go through the virtual phone's own package reader, from a host temp file; `installFailure` refuses them first. */
  private async installApk(data: Buffer): Promise<string> {
    const failure = this.quirks.installFailure;
    this.quirks.installFailure = undefined;
    if (failure) return `Failure [${failure}]\n`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-adbd-install-'));
    try {
      const file = path.join(dir, 'app.apk');
      fs.writeFileSync(file, data);
      const { package: pkg } = await this.phone.installApp(file, ctx());
      // A session made without --user installs for every user (INSTALL_ALL_USERS).
      this.quirks.userInstalls.delete(pkg);
      return 'Success\n';
    } catch (err) {
      return `Failure [INSTALL_PARSE_FAILED_NOT_APK: ${(err as Error).message}]\n`;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  /** `cmd package …` (PackageManagerShellCommand). */
  async cmdPackage([verb, ...args]: string[], stdin?: Stdin): Promise<CommandResult> {
    const session = await this.sessionCommand(verb, args, stdin);
    if (session) return session;
    if (verb === 'resolve-activity') {
      // PackageManagerShellCommand runResolveActivity --brief: the match line, then the component.
      const pkg = args[args.length - 1];
      if (!(await this.launchable(pkg))) return ok('No activity found\n');
      // chooseBestActivity: two matches of equal rank and no saved preference give the chooser (mResolveInfo).
      if (this.quirks.secondLauncher.has(pkg)) return ok(`priority=0 preferredOrder=0 match=0x0 specificIndex=-1 isDefault=false\n${RESOLVER_ACTIVITY}\n`);
      return ok(`priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n${pkg}/.MainActivity\n`);
    }
    if (verb === 'query-activities' && args.includes('--components')) {
      // runQueryIntentActivities with --components: one flattenToShortString() line per match, nothing else.
      const pkg = args[args.length - 1];
      if (!(await this.launchable(pkg))) return ok('No activities found\n');
      const second = this.quirks.secondLauncher.get(pkg);
      return ok(`${pkg}/.MainActivity\n${second ? `${pkg}/${second}\n` : ''}`);
    }
    if (verb === 'query-activities') {
      const apps = (await this.phone.listApps(ctx())).filter((a) => !this.quirks.disabledApps.has(a.package) && installedFor(this.quirks, a.package, this.quirks.currentUser));
      return ok(apps.map((a, i) => [
        `Activity #${i}:`,
        '  priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false',
        '  ActivityInfo:',
        `    name=${a.package}.MainActivity`,
        `    packageName=${a.package}`,
        '    ApplicationInfo:',
        `      packageName=${a.package}`,
        `      labelRes=0x0 nonLocalizedLabel=${a.name} icon=0x0 banner=0x0`,
        '',
      ].join('\n')).join(''));
    }
    return unknown(['cmd', 'package', verb, ...args]);
  }
}

/**
 * `am start -W` while the lock screen shows. The activity starts behind it but is never made visible
 * (KeyguardController.checkKeyguardVisibility: "If keyguard is showing, nothing is visible"), so it
 * never draws. From Android 12 ActivityMetricsLogger.scheduleCheckActivityToBeDrawnIfSleeping drops
 * a launch still invisible after UNKNOWN_VISIBILITY_CHECK_DELAY_MS (3 s) on a sleeping display, and
 * done(abort) → ActivityTaskSupervisor.stopWaitingForActivityVisible ends the wait with no launch
 * time and LaunchState UNKNOWN (0). Before, only a drawn window or an idle timeout ends it (Android
 * 10's ActivityStackSupervisor.reportActivityLaunchedLocked), and an activity that went idle behind
 * the lock has neither, so `am` does not return. The 3 s are printed, not waited.
 */
function startBehindKeyguard(starting: string, running: boolean, component: string, sdk: number): CommandResult {
  if (sdk < 31) return { out: starting, code: 0, open: true };
  return ok(starting + (running ? TO_FRONT : '') + waitBlock(sdk, { timeout: false, launchState: 0, activity: component, totalMs: -1, waitMs: 3_012 }));
}

/**
 * How Intent.toString shows its data: Uri.toSafeString. Contact-like schemes (tel, sip, sms, smsto,
 * mailto, nfc) keep only '-', '@' and '.' of their scheme-specific part (the rest becomes 'x'); web
 * and streaming schemes (http, https, ftp, rtsp) show `//host[:port]/...`; any other scheme shows its
 * scheme-specific part, path and query included, without the fragment.
 */
export function safeUriString(uri: string): string {
  const colon = uri.indexOf(':');
  if (colon <= 0) return uri.split('#')[0];
  const scheme = uri.slice(0, colon);
  const ssp = uri.slice(colon + 1).split('#')[0];
  const lower = scheme.toLowerCase();
  if (['tel', 'sip', 'sms', 'smsto', 'mailto', 'nfc'].includes(lower)) return `${scheme}:${ssp.replace(/[^-@.]/g, 'x')}`;
  if (['http', 'https', 'ftp', 'rtsp'].includes(lower)) {
    const authority = /^\/\/([^/?#]*)/.exec(ssp)?.[1] ?? '';
    const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
    return `${scheme}://${hostPort}/...`;
  }
  return `${scheme}:${ssp}`;
}
