import { ToolError } from '../../errors.js';
import type { InstalledApp } from '../../types.js';
import { goIosError, majorVersion, phoneDetached, phoneGone, type GoIos } from './go-ios.js';
import { platformsFromPlist, requireBundlePlist } from './installed-bundle.js';
import type { CommandResult } from './run-command.js';
import { simctlReason, XCODE_FIX, type Simctl } from './simctl.js';
import { unlessLacking } from './tool-lacks.js';

/** Another way to tell whether an app is installed, for a tool that cannot list apps (undefined: it cannot tell either). */
export type InstalledProbe = () => Promise<boolean | undefined>;

/**
 * App lifecycle of one iOS device through its platform tool (simctl for simulators, go-ios for
 * phones). These work without WebDriverAgent, so installing or listing apps never waits on it.
 */
export interface AppControl {
  listApps(signal?: AbortSignal): Promise<InstalledApp[]>;
  install(path: string, signal?: AbortSignal): Promise<void>;
  uninstall(bundleId: string, signal?: AbortSignal, installed?: InstalledProbe): Promise<void>;
  /** A tool without a launch command throws ToolLacks, and the device launches through WebDriverAgent instead (wda-apps.ts). */
  launch(bundleId: string, signal?: AbortSignal, installed?: InstalledProbe): Promise<void>;
  /** Whether the app was running, when the tool says; ToolLacks as for launch. */
  terminate(bundleId: string, signal?: AbortSignal, installed?: InstalledProbe): Promise<boolean | undefined>;
  /** Whether the app is installed, where the tool can tell (undefined: it cannot): for what WebDriverAgent does in its stead. */
  installed?(bundleId: string, signal?: AbortSignal): Promise<boolean | undefined>;
  /** Present where the platform tool opens URLs itself; otherwise WebDriverAgent's /url is used. */
  openUrl?(url: string, signal?: AbortSignal): Promise<void>;
  /**
   * The tool whose launch only says it started the process (simctl, go-ios): an app that dies a moment
   * later changes nothing in its answer, so the device asks WebDriverAgent what came up. Absent where the
   * launch confirms itself.
   */
  readonly unconfirmedLauncher?: string;
}

function systemApp(bundleId: string, where: string): ToolError {
  return new ToolError('PERMISSION_DENIED', `${bundleId} is a system app on ${where}; iOS does not let it be uninstalled (hide it from the Home Screen by hand instead)`);
}

/** Why a bundle id missing from `ios apps` may still be installed, when go-ios cannot list the system apps. */
const SYSTEM_UNTOLD = 'the installed go-ios does not know `ios apps --system`, which lists the system apps, so whether it is one cannot be told';

function notInstalled(bundleId: string, where: string): ToolError {
  return new ToolError('APP_NOT_INSTALLED', `${bundleId} is not installed on ${where}; install it with mobile_install_app, or pick one from mobile_list_apps`);
}

async function requireInstalled(control: AppControl, bundleId: string, where: string, signal?: AbortSignal): Promise<void> {
  const apps = await control.listApps(signal);
  if (!apps.some((a) => a.package === bundleId)) throw notInstalled(bundleId, where);
}

const PLATFORM_FIX: Record<'iPhoneSimulator' | 'iPhoneOS', string> = {
  iPhoneSimulator: 'build it for the iOS Simulator (in Xcode an iOS Simulator destination; `xcodebuild -sdk iphonesimulator`)',
  iPhoneOS: 'build it for a device and sign it for this iPhone (in Xcode the iPhone or "Any iOS Device" as destination, with your team; `xcodebuild -sdk iphoneos`)',
};

/**
 * A bundle built for another platform: simctl sometimes installs a device build that then dies at launch
 * (facebook/idb#261), and a phone refuses a simulator build with a code-signing error that names neither
 * platform. The Info.plist says which it is (installed-bundle.ts platformsFromPlist); a bundle that says
 * nothing is left to the tool, but a file that is no app bundle at all never reaches it.
 */
async function requirePlatform(path: string, platform: 'iPhoneSimulator' | 'iPhoneOS', where: string, udid: string): Promise<void> {
  const built = platformsFromPlist(await requireBundlePlist(path, udid));
  if (!built || built.platforms.includes(platform)) return;
  throw new ToolError('INVALID_PARAMETER', `${path} is built for ${built.platforms.join(', ')} (its Info.plist's ${built.key}), but ${where} runs ${platform} builds: ${PLATFORM_FIX[platform]}; nothing was installed`);
}

function lackingBoth(bundleId: string, where: string): ToolError {
  return new ToolError(
    'UNSUPPORTED',
    `whether ${bundleId} is installed on ${where} cannot be told: the installed simctl knows neither \`simctl listapps\` nor \`simctl get_app_container\`, WebDriverAgent could not say (POST /wda/apps/state), and \`simctl uninstall\` succeeds for apps that are not installed too, so nothing was uninstalled: update Xcode; ${XCODE_FIX}`,
  );
}

export class SimulatorControl implements AppControl {
  /** `simctl launch` prints "<id>: <pid>" once FrontBoard started the process, whatever becomes of it. */
  readonly unconfirmedLauncher = '`simctl launch`';

  constructor(
    private readonly simctl: Simctl,
    private readonly udid: string,
  ) {}

  private get where(): string {
    return `simulator ${this.udid}`;
  }

  listApps(signal?: AbortSignal): Promise<InstalledApp[]> {
    return this.simctl.listApps(this.udid, signal);
  }

  async install(path: string, signal?: AbortSignal): Promise<void> {
    await requirePlatform(path, 'iPhoneSimulator', this.where, this.udid);
    return this.simctl.install(this.udid, path, signal);
  }

  async uninstall(bundleId: string, signal?: AbortSignal, installed?: InstalledProbe): Promise<void> {
    // simctl uninstall succeeds silently for unknown bundle ids, so check first: a simctl without listapps is asked
    // for the one app (get_app_container), and one without that either leaves it to `installed` (WebDriverAgent);
    // when nothing can tell, nothing is uninstalled.
    const system = await unlessLacking(this.simctl.systemApps(this.udid, signal));
    if (system?.includes(bundleId)) throw systemApp(bundleId, this.where);
    if (system) await requireInstalled(this, bundleId, this.where, signal);
    else {
      const there = (await unlessLacking(this.simctl.hasApp(this.udid, bundleId, signal))) ?? (await installed?.());
      if (there === undefined) throw lackingBoth(bundleId, this.where);
      if (!there) throw notInstalled(bundleId, this.where);
    }
    await this.simctl.uninstall(this.udid, bundleId, signal);
  }

  async launch(bundleId: string, signal?: AbortSignal, installed?: InstalledProbe): Promise<void> {
    const r = await this.simctl.launch(this.udid, bundleId, signal);
    if (r.code !== 0) await this.explain(r, bundleId, 'launch', signal, installed);
  }

  async terminate(bundleId: string, signal?: AbortSignal, installed?: InstalledProbe): Promise<boolean> {
    const r = await this.simctl.terminate(this.udid, bundleId, signal);
    if (r.code === 0) return true;
    // simctl fails with "found nothing to terminate" for an app that is not running; that is success here.
    await this.explain(r, bundleId, 'terminate', signal, installed);
    return false;
  }

  openUrl(url: string, signal?: AbortSignal): Promise<void> {
    return this.simctl.openUrl(this.udid, url, signal);
  }

  /** listapps lists system apps too; without it, get_app_container asks for the one app. */
  async installed(bundleId: string, signal?: AbortSignal): Promise<boolean | undefined> {
    const apps = await unlessLacking(this.listApps(signal));
    return apps ? apps.some((a) => a.package === bundleId) : unlessLacking(this.simctl.hasApp(this.udid, bundleId, signal));
  }

  /** Without listapps `installed` (WebDriverAgent) tells whether the app is there; else simctl's own words are all there is. */
  private async explain(r: CommandResult, bundleId: string, verb: 'launch' | 'terminate', signal?: AbortSignal, installed?: InstalledProbe): Promise<void> {
    const apps = await unlessLacking(this.listApps(signal));
    if ((apps ? apps.some((a) => a.package === bundleId) : await installed?.()) === false) throw notInstalled(bundleId, this.where);
    if (verb === 'terminate' && /nothing to terminate|not running/i.test(r.stderr)) return;
    throw new ToolError('INTERNAL', `could not ${verb} ${bundleId} on ${this.where}: ${simctlReason(r.stderr) || `exit code ${r.code}`}`);
  }
}

export class RealDeviceControl implements AppControl {
  /** `ios launch` logs "Process launched" with the pid processcontrol answered (cmd_device_apps.go); nothing watches it after. */
  readonly unconfirmedLauncher = '`ios launch`';

  constructor(
    private readonly goIos: GoIos,
    private readonly udid: string,
    private readonly version: string,
  ) {}

  private get where(): string {
    return `iPhone ${this.udid}`;
  }

  /**
   * iOS 17+ reaches process control (launch, kill) only through the go-ios tunnel. Listing, installing and
   * uninstalling use lockdown services over usbmuxd (go-ios ios/connect.go ConnectToService, zipconduit New),
   * and go-ios looks no tunnel up for them (cli_device_resolution.go needsAutomaticTunnelInfo), so they need none.
   */
  private async processControl(signal?: AbortSignal): Promise<void> {
    if (majorVersion(this.version) >= 17) await this.goIos.requireTunnel(this.udid, signal);
  }

  listApps(signal?: AbortSignal): Promise<InstalledApp[]> {
    return this.goIos.apps(this.udid, signal);
  }

  async install(path: string, signal?: AbortSignal): Promise<void> {
    await requirePlatform(path, 'iPhoneOS', this.where, this.udid);
    return this.goIos.install(this.udid, path, signal);
  }

  async uninstall(bundleId: string, signal?: AbortSignal, probe?: InstalledProbe): Promise<void> {
    // `ios apps` lists user apps only: a bundle id missing there may be a system app, which is not "not installed".
    // Without `ios apps --system`, one `probe` finds installed is a system app all the same.
    const apps = await unlessLacking(this.listApps(signal));
    if (!apps) return this.uninstallUnlisted(bundleId, signal, probe);
    if (!apps.some((a) => a.package === bundleId)) {
      const system = await this.goIos.systemApps(this.udid, signal);
      const installed = system ? system.includes(bundleId) : await probe?.();
      if (installed) throw systemApp(bundleId, this.where);
      if (installed === false) throw notInstalled(bundleId, this.where);
      throw new ToolError(
        'APP_NOT_INSTALLED',
        `${bundleId} is not among the apps \`ios apps\` lists on ${this.where}, so nothing was uninstalled: it is not installed, or it is a system app, which iOS does not let be uninstalled (${SYSTEM_UNTOLD}); pick one from mobile_list_apps`,
      );
    }
    await this.goIos.uninstall(this.udid, bundleId, signal);
  }

  /**
   * A go-ios without `ios apps`: `probe` (WebDriverAgent's apps/state) says whether the app is there, for installd
   * ignores an uninstall of an id it does not have ("not found in user apps, ignoring", libimobiledevice/ideviceinstaller#21)
   * and answers "Complete", all go-ios waits for (installationproxy.go Uninstall); when nothing can tell, nothing is uninstalled.
   */
  private async uninstallUnlisted(bundleId: string, signal?: AbortSignal, probe?: InstalledProbe): Promise<void> {
    if ((await this.goIos.systemApps(this.udid, signal))?.includes(bundleId)) throw systemApp(bundleId, this.where);
    const installed = await probe?.();
    if (installed === false) throw notInstalled(bundleId, this.where);
    if (installed === undefined) {
      throw new ToolError(
        'UNSUPPORTED',
        `whether ${bundleId} is installed on ${this.where} cannot be told: the installed go-ios does not know \`ios apps\`, WebDriverAgent could not say (POST /wda/apps/state), and \`ios uninstall\` does not say whether there was anything to uninstall, so nothing was uninstalled: update go-ios (\`npm install -g go-ios@latest\`), or start WebDriverAgent on the iPhone`,
      );
    }
    await this.goIos.uninstall(this.udid, bundleId, signal);
  }

  async launch(bundleId: string, signal?: AbortSignal, probe?: InstalledProbe): Promise<void> {
    // go-ios answers a command it lacks with its usage before it looks for a tunnel, and WebDriverAgent, which the
    // device then launches through, needs none: a go-ios known to lack `ios launch` is not asked for a tunnel, and
    // one never asked yet runs the launch once when no tunnel was found, to learn it; its failure leaves the refusal.
    const noTunnel = this.goIos.lacks('launch') ? undefined : await this.processControl(signal).then(() => undefined, (err: unknown) => err);
    if (noTunnel && (this.goIos.knows('launch') || !(noTunnel instanceof ToolError && noTunnel.code === 'UNSUPPORTED'))) throw noTunnel;
    const r = await this.goIos.launch(this.udid, bundleId, signal);
    if (r.code === 0) return;
    if (noTunnel) throw noTunnel;
    if (phoneDetached(r)) throw phoneGone(this.where);
    // `ios apps` lists user apps only: Safari or Settings missing there are still installed.
    const installed = (await this.installed(bundleId, signal)) ?? (await probe?.());
    if (installed === false) throw notInstalled(bundleId, this.where);
    const said = await this.processControlRefused(goIosError(r), 'launched', signal);
    const untold = this.goIos.lacks('apps') ? 'the installed go-ios does not know `ios apps`, so whether it is installed cannot be told' : `${bundleId} is not among the apps \`ios apps\` lists, so it may not be installed: ${SYSTEM_UNTOLD}`;
    const hint = installed ? `is the developer disk image mounted? \`ios image auto --udid=${this.udid}\`` : untold;
    throw new ToolError('INTERNAL', `could not launch ${bundleId} on ${this.where}: ${said} (${hint})`);
  }

  /**
   * go-ios's "processcontrol failed": the phone offers no instruments service. From iOS 16 the usual reason is
   * Developer Mode off (the developer image cannot be mounted then), which go-ios never names; `ios devmode get`
   * tells, over lockdown. Otherwise go-ios's text is quoted, without its "run `ios tunnel start`" (go-ios 1.1+
   * ios/instruments/helper.go instrumentsUnavailableErr says it on iOS 17+ for any such failure) once the tunnel
   * was found up.
   */
  private async processControlRefused(said: string, verb: 'launched' | 'stopped', signal?: AbortSignal): Promise<string> {
    if (!/processcontrol failed/i.test(said)) return said;
    const developerOff = majorVersion(this.version) >= 16 && (await this.goIos.developerMode(this.udid, signal)) === false;
    if (majorVersion(this.version) >= 17 && this.goIos.lacks('tunnel ls') && !developerOff) {
      throw new ToolError(
        'UNSUPPORTED',
        `${this.where} runs iOS 17 or later, whose apps go-ios ${verb === 'launched' ? 'launches' : 'stops'} only through a tunnel, and go-ios refused (${said}); the installed go-ios does not know \`ios tunnel ls\`, so whether a tunnel runs could not be checked: start one with \`sudo ios tunnel start\`, keep it running, then repeat the call`,
      );
    }
    const quoted =
      majorVersion(this.version) < 17 ? said : said.replace(/this device runs iOS (\S+) and needs an active tunnel — run `ios tunnel start`/, 'this device runs iOS $1 and its go-ios tunnel is up (checked with `ios tunnel ls`), so the tunnel is not what is missing');
    if (developerOff) {
      throw new ToolError(
        'UNSUPPORTED',
        `Developer Mode is off on ${this.where} (\`ios devmode get\` says DeveloperModeEnabled false; go-ios failed: ${quoted}), so apps cannot be ${verb} through go-ios: turn it on in Settings › Privacy & Security › Developer Mode (\`ios devmode reveal --udid=${this.udid}\` shows the switch when it is hidden), restart the iPhone and confirm Developer Mode, then repeat the call`,
      );
    }
    return quoted;
  }

  /**
   * go-ios `kill` (cmd_device_apps_kill.go) looks the bundle up among all apps, system ones included, and
   * fails with "not installed" or, when no process of it runs, "process not found" (before 1.1:
   * "<id> not installed", "process of <id> not found"). Its own words decide; a failure that names
   * neither (the phone gone, no developer image) is an error, never "was not running".
   */
  async terminate(bundleId: string, signal?: AbortSignal, probe?: InstalledProbe): Promise<boolean> {
    // `ios kill` resolves the bundle id through installationproxy, which needs no tunnel, before it opens
    // process control: "not installed" comes first, and only then is a missing iOS 17 tunnel the reason.
    const r = await this.goIos.kill(this.udid, bundleId, signal);
    if (r.code === 0) return true;
    if (phoneDetached(r)) throw phoneGone(this.where);
    const said = goIosError(r);
    if (/^process (of \S+ )?not found$/i.test(said)) return false;
    if (/^(\S+ )?not installed$/i.test(said) || ((await this.installed(bundleId, signal)) ?? (await probe?.())) === false) throw notInstalled(bundleId, this.where);
    await this.processControl(signal);
    throw new ToolError('INTERNAL', `could not stop ${bundleId} on ${this.where}: ${await this.processControlRefused(said, 'stopped', signal)}`);
  }

  /**
   * User apps (`ios apps`) and system apps (`ios apps --system`): launch and kill work on both. Undefined when the
   * app is no user app and this go-ios cannot list system apps, or cannot list apps at all: then nobody can tell.
   */
  async installed(bundleId: string, signal?: AbortSignal): Promise<boolean | undefined> {
    const apps = await unlessLacking(this.listApps(signal));
    if (!apps) return undefined;
    if (apps.some((a) => a.package === bundleId)) return true;
    return (await this.goIos.systemApps(this.udid, signal))?.includes(bundleId);
  }
}
