import type { Readable } from 'node:stream';
import type { CallContext } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { InstalledApp } from '../../types.js';
import { shellQuote } from './adb-client.js';
import { apkPackageName } from './apk-package.js';
import { AppLauncher } from './app-launcher.js';
import { AppVersionSource } from './app-versions.js';
import { CurrentUser } from './current-user.js';
import { readFront } from './front-app.js';
import { LauncherSource } from './launcher-source.js';
import { openLink } from './link-opener.js';
import { parseScreenState, SCREEN_STATE_COMMAND, type ScreenState } from './screen-state.js';
import { SessionInstall } from './session-install.js';
import { commandRefusal, firstLine, isInstalledOutput, SEPARATOR } from './shell-output.js';

/** What managing apps needs from its device (android-device.ts), with the device's error mapping. */
export interface AppsIo {
  serial: string;
  /** `release`: ro.build.version.release, which decides where launcher activities and app versions come from. */
  release: string;
  /** A shell command's output. */
  text(command: string, ctx: CallContext, what: string): Promise<string>;
  /** `text`, with a SecurityException in the output reported as PERMISSION_DENIED. */
  checkedText(command: string, ctx: CallContext, what: string): Promise<string>;
  /** A shell command's output, `input` fed to its stdin (an APK streamed into an install session). */
  fed(command: string, input: Readable, ctx: CallContext, what: string): Promise<string>;
  /** Writes `data` to `path` on the device (an install on a device without install sessions). */
  push(data: Buffer, path: string, ctx: CallContext): Promise<void>;
  /** Runs `work`, mapping its failure to a SPEC code as the device does for every command. */
  guard<T>(ctx: CallContext, what: string, work: () => Promise<T>): Promise<T>;
  /** Wakes the screen and removes a swipe lock from the `known` state (screen-state.ts ScreenGuard); `blocked` words the refusal of a lock. */
  makeScreenUsable(ctx: CallContext, what: string, options: { known: ScreenState; blocked: string }): Promise<void>;
  /** How long a launch waits for the app's first frame (app-launcher.ts). */
  launchWaitMs: number;
  /** The active window's hierarchy (the UiAutomator2 server's source, else `uiautomator dump`): the last place the app in front is read from (front-app.ts). */
  dumpTree(ctx: CallContext): Promise<string>;
}

/** What a launch Android did not confirm looks at, in one round trip: the resumed activity, then the screen state. */
const FRONT_AND_SCREEN_COMMAND = `dumpsys activity activities; echo ${SEPARATOR}; ${SCREEN_STATE_COMMAND}`;

/**
 * Installed apps on one device: listing, launching, stopping, installing, removing and clearing
 * them, and the app in front. Every package command checks with `pm path` in the same round trip
 * that the package is installed (forInstalled), so a missing one is APP_NOT_INSTALLED at no cost.
 */
export class AndroidApps {
  private readonly launcher: AppLauncher;
  private readonly versions: AppVersionSource;
  private readonly launchers: LauncherSource;
  private readonly sessions: SessionInstall;
  private readonly user: CurrentUser;

  constructor(private readonly io: AppsIo) {
    this.sessions = new SessionInstall(io);
    this.user = new CurrentUser((command, ctx, what) => io.text(command, ctx, what));
    this.versions = new AppVersionSource(io.release);
    this.launchers = new LauncherSource(io.release, io.serial);
    this.launcher = new AppLauncher({
      serial: io.serial,
      shell: (command, ctx, what) => io.checkedText(command, ctx, what),
      forInstalled: (pkg, command, ctx, what) => this.forInstalled(pkg, command, ctx, what),
      pmUser: (ctx) => this.user.pmOption(ctx),
      hasCmd: () => this.launchers.hasCmd,
      lacksCmd: (out) => this.launchers.lacksCmd(out),
      look: (ctx) => this.look(ctx),
      makeUsable: (known, pkg, ctx) => io.makeScreenUsable(ctx, `launching ${pkg}`, { known, blocked: `${pkg} started behind the lock screen, where it cannot be seen or used` }),
      waitMs: io.launchWaitMs,
    });
  }

  /** `am start -W` of a VIEW intent (link-opener.ts); a note on which app shows the link. */
  openLink(url: string, ctx: CallContext): Promise<string> {
    const { io } = this;
    return openLink(
      {
        serial: io.serial,
        shell: (command, c, what) => io.checkedText(command, c, what),
        look: (c) => this.look(c),
        makeUsable: (known, link, c) => io.makeScreenUsable(c, `opening ${link}`, { known, blocked: 'the link opened behind the lock screen, where it cannot be seen or used' }),
        waitMs: io.launchWaitMs,
      },
      url,
      ctx,
    );
  }

  /**
   * In one round trip: the package of the resumed activity, when the device names one, and the screen
   * state; `unknown` when the device has no dump that could tell (front-app.ts reads its other sources).
   */
  private async look(ctx: CallContext): Promise<{ front?: string; screen?: ScreenState; unknown?: boolean }> {
    const [activities, screen = ''] = (await this.io.text(FRONT_AND_SCREEN_COMMAND, ctx, 'reading the foreground app and the screen state')).split(SEPARATOR);
    const seen = await readFront(activities, this.io, ctx);
    return { front: 'app' in seen ? seen.app : undefined, screen: parseScreenState(screen), ...('unknown' in seen ? { unknown: true } : {}) };
  }

  /** Launcher activities (launcher-source.ts) and versions (app-versions.ts) in one round trip. */
  async list(ctx: CallContext): Promise<InstalledApp[]> {
    const user = this.user.option ?? '';
    const out = this.user.take(await this.io.text(`${this.user.prefix}${this.launchers.command(user)}; echo ${SEPARATOR}; ${this.versions.command(user)}`, ctx, 'listing apps'));
    // Read for the owner while the user was not known: the versions (and on Android 5–6 the apps) are asked for again for the user shown.
    if ((await this.user.pmOption(ctx)) !== user) return this.list(ctx);
    // The versions come last; the launcher command may echo a separator of its own.
    const cut = out.lastIndexOf(SEPARATOR);
    const [activities, printed] = cut < 0 ? [out, ''] : [out.slice(0, cut), out.slice(cut + SEPARATOR.length)];
    const versions = this.versions.read(printed) ?? this.versions.read(await this.io.text(this.versions.command(user), ctx, 'reading app versions')) ?? new Map<string, string>();
    return this.launchers.read(activities, versions) ?? this.launchers.read(await this.io.text(this.launchers.command(user), ctx, 'listing apps'), versions) ?? [];
  }

  /** One `am start -W -n` with the remembered launcher activity, or resolving it first (app-launcher.ts); a note on how the app came up. */
  launch(pkg: string, ctx: CallContext): Promise<string> {
    return this.launcher.launch(pkg, ctx);
  }

  async terminate(pkg: string, ctx: CallContext): Promise<undefined> {
    // `am force-stop` prints nothing when it stopped the app (or it was not running); a linker warning of an old emulator image may come along.
    const out = (await this.forInstalled(pkg, `am force-stop ${shellQuote(pkg)}`, ctx, 'stopping')).trim();
    const refused = commandRefusal(out, 'am');
    if (refused) throw new ToolError(refused.lacking ? 'UNSUPPORTED' : 'INTERNAL', `${this.io.serial} did not stop ${pkg}: \`am force-stop\` answered "${refused.said}"`);
    return undefined;
  }

  /** A package-installer session the APK is streamed into (session-install.ts): stopped cleanly at the deadline or on cancel. */
  async install(path: string, ctx: CallContext): Promise<{ package: string }> {
    const pkg = await apkPackageName(path, this.io.serial);
    this.launcher.forget(pkg);
    try {
      await this.sessions.install(path, ctx);
    } catch (err) {
      if (err instanceof ToolError && err.code !== 'INTERNAL') throw err;
      if (err instanceof ToolError && err.message.includes(path)) throw err;
      throw new ToolError('INTERNAL', `installing ${path} on ${this.io.serial} failed: ${(err as Error).message}`);
    }
    return { package: pkg };
  }

  /** Stops installs under way, each abandoning its session on the phone. */
  close(): Promise<void> {
    return this.sessions.close();
  }

  async uninstall(pkg: string, ctx: CallContext): Promise<void> {
    this.launcher.forget(pkg);
    // `pm path` again after the uninstall, in the same round trip: for a system app that was updated
    // (Chrome, Maps…) `pm uninstall` removes only the update, prints "Success", and the version the
    // phone came with stays installed (PackageManagerShellCommand runUninstall, DELETE_ALL_USERS).
    // With `--user N` only that user's copy goes: the other users of a shared tablet keep theirs.
    const user = await this.user.pmOption(ctx);
    const [printed, after = ''] = (await this.forInstalled(pkg, `pm uninstall ${user}${shellQuote(pkg)} && echo ${SEPARATOR} && pm path ${user}${shellQuote(pkg)}`, ctx, 'uninstalling', true)).split(SEPARATOR);
    const out = withoutPaths(printed);
    if (/^Success/m.test(out) && isInstalledOutput(after)) {
      throw new ToolError('PERMISSION_DENIED', `${this.io.serial} removed only the updates of ${pkg}: it is a system app, and the version the phone came with stays installed (Android uninstalls system apps only with root); disable it in Settings › Apps if it must not run`);
    }
    if (/^Success/m.test(out)) return;
    if (/DELETE_FAILED_INTERNAL_ERROR|DELETE_FAILED_DEVICE_POLICY_MANAGER|DELETE_FAILED_USER_RESTRICTED/.test(out)) {
      throw new ToolError('PERMISSION_DENIED', `${this.io.serial} refuses to uninstall ${pkg} (a system or device-admin app): ${out.trim()}`);
    }
    // PackageManager.deleteStatusToString: the device or profile owner blocks removing this package (DevicePolicyManager.setUninstallBlocked).
    if (/DELETE_FAILED_OWNER_BLOCKED/.test(out)) {
      throw new ToolError('PERMISSION_DENIED', `${this.io.serial} refuses to uninstall ${pkg}: its device management (a device or work-profile owner) blocks removing it: ${out.trim()}`);
    }
    throw new ToolError('INTERNAL', `uninstalling ${pkg} from ${this.io.serial} failed: ${out.trim() || 'no output'}`);
  }

  async clearData(pkg: string, ctx: CallContext): Promise<void> {
    const out = await this.forInstalled(pkg, `pm clear ${await this.user.pmOption(ctx)}${shellQuote(pkg)}`, ctx, 'clearing the data of');
    if (/^Success/m.test(out)) return;
    // A device without the command (a device emulation, a stripped build) will not clear it on any retry.
    if (commandRefusal(out, 'pm')?.lacking) throw new ToolError('UNSUPPORTED', `${this.io.serial} cannot clear app data: it has no \`pm clear\` (${firstLine(out)}); uninstall and reinstall ${pkg} instead, which also erases its data`);
    throw new ToolError('INTERNAL', `pm clear ${pkg} on ${this.io.serial} failed: ${out.trim() || 'no output'}`);
  }

  async foreground(ctx: CallContext): Promise<{ package: string; name?: string }> {
    const seen = await readFront(await this.io.text('dumpsys activity activities', ctx, 'reading the foreground app'), this.io, ctx);
    if ('app' in seen) return { package: seen.app };
    if ('none' in seen) throw new ToolError('INTERNAL', `${seen.none} on ${this.io.serial} (the screen may be off or locked); wake and unlock the device`);
    throw new ToolError(
      'INTERNAL',
      `${this.io.serial} cannot say which app is in front: it answered none of \`dumpsys activity activities\`, \`dumpsys window\` and \`uiautomator dump\` with anything that names one (a device that lacks them); take a screenshot to see what shows`,
    );
  }

  /**
   * Runs `pm path` and the command in one round trip; the command only runs when the package is
   * installed for the current user. `keepPaths`: return the output as printed, for a command that
   * prints `pm path` lines of its own.
   */
  private async forInstalled(pkg: string, command: string, ctx: CallContext, what: string, keepPaths = false): Promise<string> {
    const out = await this.io.checkedText(`pm path ${await this.user.pmOption(ctx)}${shellQuote(pkg)} && ${command}`, ctx, `${what} ${pkg}`);
    if (!isInstalledOutput(out)) {
      throw new ToolError('APP_NOT_INSTALLED', `${pkg} is not installed on ${this.io.serial}${this.user.whose}; install it with mobile_install_app, or pick a package from mobile_list_apps`);
    }
    return keepPaths ? out : withoutPaths(out);
  }
}

const withoutPaths = (out: string): string => out.replace(/^package:.*\n?/gm, '');

