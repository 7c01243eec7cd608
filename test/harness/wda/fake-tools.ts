import http from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { CallContext } from '../../../src/engine/driver.js';
import { readIpaInfoPlist } from '../../../src/engine/files/package-files.js';
import { ToolError } from '../../../src/engine/errors.js';
import type { VirtualDevice } from '../../../src/engine/drivers/virtual/index.js';
import type { EmulatedWda } from './emulated-wda.js';
import { EmulatedUsbmuxd } from './emulated-usbmuxd.js';

/*
 * Answers the fake `xcrun` and `ios` executables of test/harness/bin from the virtual phones' state,
 * in the real tools' formats:
 *   xcrun simctl list devices --json   {"devices": {"com.apple.CoreSimulator.SimRuntime.iOS-17-5": [{udid, name, state, isAvailable, …}]}}
 *   xcrun simctl listapps <udid>       old-style plist keyed by bundle id (ApplicationType, CFBundle…, SBAppTags)
 *   xcrun simctl get_app_container <udid> <id>   the app's bundle path; fails for an app not installed
 *   xcrun simctl launch <udid> <id>    "<id>: <pid>"; failures "An error was encountered processing the command (domain=…, code=…):"
 *   ios list --details                 {"deviceList": [{Udid, ProductName, ProductType, ProductVersion}]}; exits 1 if any phone is untrusted
 *   ios list                           {"deviceList": ["<udid>", …]}
 *   ios info --udid=<udid>             the phone's lockdown values {ProductType, ProductVersion, …}
 *   ios apps                           [{CFBundleIdentifier, CFBundleName, CFBundleDisplayName, CFBundleShortVersionString, …}] (user apps)
 *   ios tunnel ls                      [{address, rsdPort, udid, userspaceTun, userspaceTunPort}]; fails while no tunnel agent runs
 * The phones' usbmuxd (emulated-usbmuxd.ts) carries connections to their emulated WDA.
 * go-ios failures are logrus JSON lines on stderr ({"level":"fatal","msg":…,"err":…}) and exit 1.
 * iOS 17+ without a tunnel: only launch and kill fail (instruments); a phone not attached: "Device not found: <udid>".
 */

export const FAKE_BIN = fileURLToPath(new URL('../../../../test/harness/bin', import.meta.url));

export interface FakeSimulator {
  udid: string;
  name: string;
  /** e.g. "iOS-17-5" */
  runtime: string;
  /** CoreSimulator's states as simctl lists them; only a Booted one runs commands. */
  state: 'Creating' | 'Shutdown' | 'Booting' | 'Booted' | 'Shutting Down';
  device: VirtualDevice;
}

export interface FakePhone {
  udid: string;
  productType: string;
  version: string;
  device: VirtualDevice;
  /** A go-ios tunnel is up (needed from iOS 17). */
  tunnel: boolean;
  /** WebDriverAgent inside the phone (port 8100, MJPEG 9100), reached through usbmuxd. */
  wda: EmulatedWda;
  /** Also paired over Wi-Fi: `ios list` shows it twice, once per connection. */
  wifi?: boolean;
  /** Unplugged: absent from `ios list` and usbmuxd's list; connections carried to it close. */
  unplugged?: boolean;
  /** Not paired / "Trust This Computer" not tapped: usbmuxd lists it, lockdown refuses it. */
  untrusted?: boolean;
  /** No developer disk image mounted: process control (launch, kill) is refused by the phone. */
  noDeveloperImage?: boolean;
  /**
   * Developer Mode (iOS 16+; default on). Off, no developer image can be mounted, so process control is refused as
   * without one; `ios devmode get` prints {"DeveloperModeEnabled": false}.
   */
  developerMode?: boolean;
  /** Counts plug-ins: usbmuxd gives the phone a new device id at each. */
  plugged?: number;
}

export interface SimLaunch {
  udid: string;
  env: Record<string, string>;
}

/** `simctl launch` passes SIMCTL_CHILD_<name> from its own environment to the app as <name>. */
function childEnv(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('SIMCTL_CHILD_')).map(([k, v]) => [k.slice('SIMCTL_CHILD_'.length), v]));
}

export interface FakeToolsConfig {
  simulators: FakeSimulator[];
  phones: FakePhone[];
  /** false: only the Command Line Tools are selected, so `xcrun simctl` is not found. */
  xcodeSelected?: boolean;
  /**
   * Runs when `simctl launch` starts this bundle id (a WebDriverAgent runner: the test starts its emulated WDA),
   * with the environment the app gets (SIMCTL_CHILD_<name> passed as <name>, e.g. USE_PORT).
   */
  onLaunch?: Record<string, (launch: SimLaunch) => Promise<void>>;
  /** go-ios log format: logrus JSON (before 1.1, the default) or slog JSON (1.1 and later). */
  goIosLogs?: 'logrus' | 'slog';
  /**
   * Apps that die right after they start (a build for another platform or architecture: facebook/idb#261).
   * `simctl launch` still prints "<id>: <pid>" and exits 0, and `ios launch` still logs "Process launched"
   * {pid} (cmd_device_apps.go: processcontrol StartProcess answers with the new pid and nothing watches it
   * after). WDA then finds SpringBoard in front (XCUIApplication+FBHelpers.m fb_activeApplication, the
   * system app when no other is active) and the app not running (XCUIApplicationState 1).
   */
  crashOnLaunch?: string[];
  /**
   * Commands and options the installed go-ios does not know: a verb ("tunnel", "devmode": before 1.0.122 and 1.0.121),
   * a verb and its subcommand ("tunnel ls"), or a verb and an option ("list --details", "apps --system"), as an
   * older build or an emulation of a few commands lacks them. Answered as docopt answers arguments no usage line
   * matches: the "Usage:" section of what it does know on stderr, exit 1.
   */
  goIosLacks?: string[];
  /** simctl subcommands the installed simctl (or an emulation of it) does not know, e.g. "listapps". */
  simctlLacks?: string[];
}

interface Answer {
  stdout?: string;
  stderr?: string;
  code?: number;
}

const ctx = (): CallContext => ({ signal: new AbortController().signal });
const q = (s: string) => (/^[A-Za-z0-9_.$/:-]+$/.test(s) ? s : JSON.stringify(s));
/** go-ios logs logrus JSON before 1.1 and slog JSON ("level":"ERROR", time first) from 1.1 on. */
let goIosLogStyle: 'logrus' | 'slog' = 'logrus';
const logLine = (level: 'info' | 'warn' | 'error' | 'fatal', msg: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify(
    goIosLogStyle === 'slog'
      ? { time: new Date().toISOString(), level: level === 'info' ? 'INFO' : level === 'warn' ? 'WARN' : 'ERROR', msg, ...extra }
      : { ...extra, level, msg, time: new Date().toISOString() },
  ) + '\n';
const fatal = (msg: string, err: string): Answer => ({ stderr: logLine('fatal', msg, { err }), code: 1 });
/** slog.Error(msg, attrs…) then os.Exit(1), as go-ios does where it logs a miss without an err. */
const failure = (msg: string, attrs: Record<string, unknown>): Answer => ({ stderr: logLine('error', msg, attrs), code: 1 });
/** ConnectLockdownWithSession (connect.go) for a phone without a pair record (pair_read.go). */
const NOT_PAIRED = "could not retrieve PairRecord with error: ReadPair failed with errorcode '2', is the device paired?";
/** startservice.go's refusal when the instruments service is missing (no developer disk image; iOS 17+ without a tunnel). */
const NO_SERVICE = "Could not start service:com.apple.instruments.remoteserver.DVTSecureSocketProxy with reason:'InvalidService'. Have you mounted the Developer Image?";
/**
 * What `processcontrol failed` carries: go-ios 1.1+ wraps the refusal with its remedy (ios/instruments/helper.go
 * instrumentsUnavailableErr at 3ebc297: a disk image below iOS 17, a tunnel from 17 on); older builds quote it bare.
 */
const noInstruments = (phone: FakePhone): string => {
  if (goIosLogStyle !== 'slog') return NO_SERVICE;
  const remedy = Number.parseInt(phone.version, 10) >= 17 ? `this device runs iOS ${phone.version} and needs an active tunnel — run \`ios tunnel start\`` : 'the Developer Disk Image must be mounted — run `ios image auto`';
  return `instruments service "com.apple.instruments.remoteserver.DVTSecureSocketProxy" unavailable on ${phone.udid}: ${remedy} (cause: ${NO_SERVICE})`;
};
/**
 * processcontrol.go parseLaunchReply: the phone's NSError (nskeyedarchiver.NSError {ErrorCode Domain UserInfo}, printed with %v)
 * in "Failed starting process: <id>, msg:…"; slog builds log startProcessWithRetry's "failed starting process" first.
 * The NSError's contents are the phone's (FrontBoard's refusal to open an unknown bundle), not go-ios's.
 */
const launchRefused = (id: string): Answer => {
  const err = `Failed starting process: ${id}, msg:{4 FBSOpenApplicationServiceErrorDomain map[NSLocalizedDescription:The request to open "${id}" failed.]}`;
  const library = goIosLogStyle === 'slog' ? logLine('error', 'failed starting process', { module: 'instruments', channel_id: 'com.apple.instruments.server.services.processcontrol', error: err, bundleID: id, attempts: 1 }) : '';
  return { stderr: library + logLine('fatal', 'launch app command failed', { err }), code: 1 };
};
const simError = (domain: string, code: number, lines: string[]): Answer => ({
  stderr: `An error was encountered processing the command (domain=${domain}, code=${code}):\n${lines.join('\n')}\n`,
  code: code & 0xff || 1,
});

/**
 * `simctl install` refused inside the simulator (installd), as Xcode 15.2 prints it (NyaMisty/ipatool-py#74): the reason
 * sits between two generic lines and an "Underlying error" whose last line is "Please try again later.".
 */
const installRefused = (path: string, reason: string): Answer => {
  const name = path.split('/').pop()!.replace(/\.(app|ipa)$/, '');
  return {
    stderr: [
      'An error was encountered processing the command (domain=IXUserPresentableErrorDomain, code=1):',
      'Simulator device returned an error for the requested operation.',
      'Please try again later.',
      reason,
      'Underlying error (domain=IXUserPresentableErrorDomain, code=1):',
      `\tUnable To Install “${name}”`,
      '\tPlease try again later.',
      '',
    ].join('\n'),
    code: 1,
  };
};

/** Usage lines of go-ios's main.go (3ebc297) for the commands the driver and the tests run. */
const GO_IOS_USAGE = [
  'ios apps [--system] [--all] [--list] [--filesharing] [options]',
  'ios devmode (enable | get | reveal) [--enable-post-restart] [options]',
  'ios forward [options] [<hostPort> <targetPort>] [--port=<mapping>]...',
  'ios info [display | lockdown] [options]',
  'ios install --path=<ipaOrAppFolder> [options]',
  'ios kill (<bundleIDs>... | --pid=<processID> | --process=<processName>) [--watch] [options]',
  'ios launch <bundleID> [--wait] [--kill-existing] [--arg=<a>]... [--env=<e>]... [options]',
  'ios list [options] [--details]',
  'ios runwda [--bundleid=<bundleid>] [--testrunnerbundleid=<testbundleid>] [--xctestconfig=<xctestconfig>] [options]',
  'ios tunnel ls [options]',
  'ios tunnel start [options] [--pair-record-path=<pairrecordpath>] [--userspace]',
  'ios uninstall <bundleID> [options]',
];

/** Whether `lacked` ("verb", "verb sub" or "verb --option") covers this command line. */
function goIosLacks(lacked: string, positional: string[], args: string[]): boolean {
  const [verb, what] = lacked.split(' ');
  if (positional[0] !== verb) return false;
  if (!what) return true;
  return what.startsWith('--') ? args.some((a) => a === what || a.startsWith(`${what}=`)) : positional[1] === what;
}

/**
 * docopt-go's answer to arguments no usage line matches (docopt.go parse → handleError, PrintHelpAndExit): the
 * doc's "Usage:" section on stderr, exit 1. An unknown option is no error of its own there: parseLong adds it,
 * and the match then fails, so it is answered the same way. The section lists what this go-ios knows.
 */
function goIosUsage(lacks: string[]): Answer {
  const known = GO_IOS_USAGE.map((line) => {
    const words = line.split(' ');
    for (const lacked of lacks) {
      const [verb, what] = lacked.split(' ');
      if (words[1] !== verb) continue;
      if (!what || words[2] === what) return undefined;
      line = line.replace(new RegExp(`\\s*\\[${what}(=[^\\]]*)?\\]`), '');
    }
    return line;
  }).filter((l) => l !== undefined);
  return { stderr: `Usage:\n${known.map((l) => `  ${l}`).join('\n')}\n`, code: 1 };
}

/** simctl's answer to a subcommand it does not have (Xcode 26.4): one line on stderr, its usage on stdout, exit 1. */
const SIMCTL_UNRECOGNIZED = (verb: string): Answer => ({
  stderr: `Unrecognized subcommand: ${verb}\n`,
  stdout: 'usage: simctl [--set <path>] [--profiles <path>] <subcommand> ...\n       simctl help [subcommand]\nCommand line utility to control the Simulator\n',
  code: 1,
});

/** CFBundleSupportedPlatforms of an .ipa's or .app's XML Info.plist, as installd reads it; undefined when it has none. */
async function builtFor(path: string): Promise<string[] | undefined> {
  const plist = (await stat(path).catch(() => undefined))?.isDirectory() ? await readFile(join(path, 'Info.plist')).catch(() => undefined) : await readIpaInfoPlist(path).catch(() => undefined);
  const m = /<key>CFBundleSupportedPlatforms<\/key>\s*<array>([\s\S]*?)<\/array>/.exec(plist?.toString('utf8') ?? '');
  return m ? [...m[1].matchAll(/<string>([^<]*)<\/string>/g)].map((x) => x[1]) : undefined;
}

export class FakeIosTools {
  private server: http.Server | undefined;
  /** Every command run, as "tool arg arg…". */
  readonly calls: string[] = [];

  /** The phones' usbmuxd: its `address` is the driver's USBMUXD_SOCKET_ADDRESS. */
  readonly usbmuxd: EmulatedUsbmuxd;

  constructor(readonly config: FakeToolsConfig) {
    this.usbmuxd = new EmulatedUsbmuxd(() => this.config.phones);
  }

  url = '';

  async start(): Promise<void> {
    await this.usbmuxd.start();
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { tool, args, env } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { tool: string; args: string[]; env?: Record<string, string> };
        this.calls.push([tool, ...args].join(' '));
        this.answer(tool, args, env ?? {})
          .catch((err: unknown): Answer => ({ stderr: `harness error: ${(err as Error).message}\n`, code: 99 }))
          .then((a) => res.end(JSON.stringify(a)));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await this.usbmuxd.stop();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Environment for the process under test: the fakes first on PATH (and optionally without one of them). */
  env(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
    return { ...base, PATH: `${FAKE_BIN}:${base.PATH ?? ''}`, MB_IOS_HARNESS: this.url, USBMUXD_SOCKET_ADDRESS: this.usbmuxd.address };
  }

  /** Pulls the cable: the phone leaves `ios list` and usbmuxd's list, and the connections usbmuxd carried to it close. */
  unplug(udid: string): void {
    const phone = this.config.phones.find((p) => p.udid === udid)!;
    phone.unplugged = true;
    phone.plugged = (phone.plugged ?? 0) + 1;
    this.usbmuxd.unplugged(udid);
  }

  /** Plugs it back in: listed again, under a new usbmuxd device id. */
  replug(udid: string): void {
    this.config.phones.find((p) => p.udid === udid)!.unplugged = false;
  }

  private answer(tool: string, args: string[], env: Record<string, string>): Promise<Answer> {
    if (tool === 'xcrun') return this.xcrun(args, env);
    return this.goIos(args).then((a) => {
      // cli_setup.go warnIfAgentIsNotRunning (slog builds): every command warns first while no tunnel agent runs.
      if (goIosLogStyle !== 'slog' || this.config.phones.some((p) => p.tunnel)) return a;
      const warn = logLine('warn', "go-ios agent is not running. You might need to start it with 'ios tunnel start' for ios17+. Use ENABLE_GO_IOS_AGENT=user for userspace tunnel or ENABLE_GO_IOS_AGENT=kernel for kernel tunnel for the experimental daemon mode.");
      return { ...a, stderr: warn + (a.stderr ?? '') };
    });
  }

  // ---- xcrun simctl ----------------------------------------------------------------------

  private async xcrun(args: string[], env: Record<string, string>): Promise<Answer> {
    if (args[0] !== 'simctl') return { stderr: `xcrun: error: unable to find utility "${args[0]}", not a developer tool or in PATH\n`, code: 72 };
    if (this.config.xcodeSelected === false) return { stderr: 'xcrun: error: unable to find utility "simctl", not a developer tool or in PATH\n', code: 72 };
    const [verb, ...rest] = args.slice(1);
    if (this.config.simctlLacks?.includes(verb)) return SIMCTL_UNRECOGNIZED(verb);
    if (verb === 'list') return { stdout: this.simList() };
    const sim = this.config.simulators.find((s) => s.udid === rest[0] || (rest[0] === 'booted' && s.state === 'Booted'));
    if (!sim) return { stderr: `Invalid device: ${rest[0]}\n`, code: 148 };
    if (sim.state !== 'Booted') return simError('com.apple.CoreSimulator.SimError', 405, [`Unable to lookup in current state: ${sim.state}`]);
    const d = sim.device;
    const id = rest[1];
    try {
      switch (verb) {
        case 'listapps':
          return { stdout: this.listApps(d) };
        case 'install':
          try {
            // Whether and how a real simctl refuses a device build is not verified (it sometimes installs one that
            // then dies at launch: facebook/idb#261); this fake refuses, in installd's layout, with a reason of its own.
            const platforms = await builtFor(id);
            if (platforms && !platforms.includes('iPhoneSimulator')) throw new Error(`The application is built for ${platforms.join(', ')}, which this simulator does not run.`);
            await d.installApp(id, ctx());
          } catch (err) {
            return installRefused(id, err instanceof ToolError ? err.message : String(err));
          }
          return {};
        case 'uninstall':
          if (d.installedApps.some((a) => a.package === id)) await d.uninstallApp(id, ctx());
          return {};
        case 'get_app_container':
          // The bundle's path; for an app that is not installed the wording of simctl's failure is a guess.
          if (!d.installedApps.some((a) => a.package === id)) return simError('NSPOSIXErrorDomain', 2, ['No such file or directory']);
          return { stdout: `/Users/test/Library/Developer/CoreSimulator/Devices/${sim.udid}/data/Containers/Bundle/Application/${id}.app\n` };
        case 'launch':
          if (!d.installedApps.some((a) => a.package === id)) {
            return simError('FBSOpenApplicationServiceErrorDomain', 4, [`The request to open "${id}" failed.`, 'Underlying error (domain=FBSOpenApplicationErrorDomain, code=4):', `\tThe operation couldn’t be completed. Application info provider (FBSApplicationLibrary) returned nil for "${id}"`]);
          }
          if (this.config.onLaunch?.[id]) await this.config.onLaunch[id]({ udid: sim.udid, env: childEnv(env) });
          else await d.launchApp(id, ctx());
          if (this.config.crashOnLaunch?.includes(id)) await d.terminateApp(id, ctx());
          return { stdout: `${id}: ${40000 + (id.length % 97)}\n` };
        case 'terminate':
          // As simctl prints it (Xcode 15; wix/Detox#4415): exit code 3, NSPOSIXErrorDomain (ESRCH).
          // Any running app is terminated, in front or in the background; only one not running finds nothing.
          if (!(id in d.snapshot().tasks)) {
            return simError('NSPOSIXErrorDomain', 3, ['Simulator device returned an error for the requested operation.', 'found nothing to terminate', 'Underlying error (domain=NSPOSIXErrorDomain, code=3):', `\tThe request to terminate "${id}" failed. found nothing to terminate`, '\tfound nothing to terminate']);
          }
          await d.terminateApp(id, ctx());
          return {};
        case 'openurl':
          await d.openUrl(id, ctx());
          return {};
      }
    } catch (err) {
      return simError('NSPOSIXErrorDomain', 1, [err instanceof ToolError ? err.message : String(err)]);
    }
    return { stderr: `simctl: unknown subcommand ${verb}\n`, code: 64 };
  }

  private simList(): string {
    const devices: Record<string, object[]> = {};
    for (const s of this.config.simulators) {
      (devices[`com.apple.CoreSimulator.SimRuntime.${s.runtime}`] ??= []).push({
        dataPath: `/Users/test/Library/Developer/CoreSimulator/Devices/${s.udid}/data`,
        logPath: `/Users/test/Library/Logs/CoreSimulator/${s.udid}`,
        udid: s.udid,
        isAvailable: true,
        deviceTypeIdentifier: `com.apple.CoreSimulator.SimDeviceType.${s.name.replace(/ /g, '-')}`,
        state: s.state,
        name: s.name,
      });
    }
    return JSON.stringify({ devices }, null, 2) + '\n';
  }

  private listApps(d: VirtualDevice): string {
    const entries = d.installedApps
      .filter((a) => a.package !== d.profile.launcher)
      .map((a) => {
        const lines = [
          `    ${q(a.package)} =     {`,
          `        ApplicationType = ${a.system ? 'System' : 'User'};`,
          `        Bundle = ${q(`file:///Applications/${a.name}.app/`)};`,
          `        CFBundleDisplayName = ${q(a.name)};`,
          `        CFBundleIdentifier = ${q(a.package)};`,
          `        CFBundleName = ${q(a.name)};`,
          `        CFBundleShortVersionString = ${q(a.version)};`,
          `        CFBundleVersion = 1;`,
          `        SBAppTags =         (`,
          `        );`,
          `    };`,
        ];
        return lines.join('\n');
      });
    return `{\n${entries.join('\n')}\n}\n`;
  }

  // ---- go-ios -----------------------------------------------------------------------------

  private async goIos(args: string[]): Promise<Answer> {
    goIosLogStyle = this.config.goIosLogs ?? 'logrus';
    const udidArg = args.find((a) => a.startsWith('--udid='))?.slice(7);
    const positional = args.filter((a) => !a.startsWith('--'));
    const [verb, ...rest] = positional;
    if (this.config.goIosLacks?.some((lacked) => goIosLacks(lacked, positional, args))) return goIosUsage(this.config.goIosLacks);
    if (verb === 'list') {
      const listed = this.config.phones.filter((p) => !p.unplugged).flatMap((p) => (p.wifi ? [p, p] : [p]));
      // main.go printDeviceList: without --details only the UDIDs usbmuxd knows, every phone included.
      if (!args.includes('--details')) return { stdout: JSON.stringify({ deviceList: listed.map((p) => p.udid) }) + '\n' };
      // outputDetailedList: GetValues per phone, exitIfError at the first that fails, before anything is printed.
      if (listed.some((p) => p.untrusted)) return fatal('failed getting values', NOT_PAIRED);
      const deviceList = listed.map((p, i) => {
        const entry = { Udid: p.udid, ProductName: 'iPhone OS', ProductType: p.productType, ProductVersion: p.version };
        // main.go detailsEntry: ConnectionType is always there (ConnectionTypeLabel: usbmuxd's "USB" or "Network").
        return { ...entry, ConnectionType: p.wifi && listed[i - 1] === p ? 'Network' : 'USB' };
      });
      return { stdout: JSON.stringify({ deviceList }) + '\n' };
    }
    if (verb === 'tunnel' && rest[0] === 'ls') {
      // cmd_tunnel.go asks the tunnel agent's HTTP API (tunnel_api.go ListRunningTunnels, 127.0.0.1:60105); without an
      // agent (modelled here as: no phone has a tunnel) that request is refused and the command fails.
      if (!this.config.phones.some((p) => p.tunnel)) {
        return fatal('failed to get tunnel infos', 'TunnelInfoForDevice: failed to get tunnel info: Get "http://127.0.0.1:60105/tunnels": dial tcp 127.0.0.1:60105: connect: connection refused');
      }
      const tunnels = this.config.phones.filter((p) => p.tunnel).map((p, i) => ({ address: `fd35:3a1c:9b5e::${i + 1}`, rsdPort: 58783 + i, udid: p.udid, userspaceTun: false, userspaceTunPort: 0 }));
      return { stdout: JSON.stringify(tunnels) + '\n' };
    }
    // cli_device_resolution.go resolveDevice: exitIfError("Device not found: "+udid, err) with ios/utils.go's error.
    const attached = this.config.phones.filter((p) => !p.unplugged);
    const phone = udidArg ? attached.find((p) => p.udid === udidArg) : attached[0];
    if (!phone) return fatal(`Device not found: ${udidArg ?? ''}`, udidArg ? `Device '${udidArg}' not found. Is it attached to the machine?` : 'no iOS devices are attached to this host');
    // Every lockdown session reads the pair record first; each command fails at its first service (main.go, cmd_device_*.go).
    const firstService: Record<string, string> = {
      info: 'failed getting info',
      apps: 'failed to connect to installationproxy',
      install: 'failed connecting to zipconduit, dev image installed?',
      uninstall: 'failed connecting to installationproxy',
      launch: 'processcontrol failed',
      kill: 'failed creating installationproxy',
    };
    if (phone.untrusted) return fatal(firstService[verb ?? ''] ?? `${verb} failed`, NOT_PAIRED);
    if (verb === 'info') {
      // printDeviceInfo: GetValuesPlist's map as JSON (some of its keys).
      return { stdout: JSON.stringify({ DeviceClass: 'iPhone', DeviceName: 'iPhone', ProductName: 'iPhone OS', ProductType: phone.productType, ProductVersion: phone.version, UniqueDeviceID: phone.udid }) + '\n' };
    }
    // iOS 17+ offers instruments (process control) only through a tunnel; lockdown services (apps, install,
    // uninstall, info) need none (ios/connect.go ConnectToService).
    const instruments = phone.noDeveloperImage || phone.developerMode === false || (Number.parseInt(phone.version, 10) >= 17 && !phone.tunnel);
    if (verb === 'devmode' && rest[0] === 'get') {
      // cmd_device_management.go runDevModeCommand: IsDevModeEnabled over lockdown (its error dropped), printed as JSON on stdout.
      return { stdout: JSON.stringify({ DeveloperModeEnabled: phone.developerMode !== false }) + '\n' };
    }
    const d = phone.device;
    try {
      switch (verb) {
        case 'apps': {
          const system = args.includes('--system');
          const apps = d.installedApps.filter((a) => Boolean(a.system) === system).map((a) => ({ ApplicationType: system ? 'System' : 'User', CFBundleDisplayName: a.name, CFBundleIdentifier: a.package, CFBundleName: a.name, CFBundleShortVersionString: a.version, CFBundleVersion: '1' }));
          return { stdout: JSON.stringify(apps) + '\n' };
        }
        case 'install': {
          // main.go installApp: "installing" {appPath, device}, then zipconduit's "installation successful"; a refused
          // package fails in SendFile: exitIfError("failed writing", err).
          const path = args.find((a) => a.startsWith('--path='))?.slice(7) ?? '';
          const start = logLine('info', 'installing', { appPath: path, device: phone.udid });
          try {
            // A phone's installd refuses a simulator build (signed to run locally, not for the device): zipconduit
            // plists.go turns its ApplicationVerificationFailed into this text; the errorDescription is a guess.
            const platforms = await builtFor(path);
            if (platforms && !platforms.includes('iPhoneOS')) {
              throw new Error(`your app is not properly signed for this device, check your codesigning and provisioningprofile. original error: 'ApplicationVerificationFailed' errorDescription:'Failed to verify code signature of ${path} : 0xe8008014 (The executable contains an invalid signature.)'`);
            }
            await d.installApp(path, ctx());
          } catch (err) {
            return { stderr: start + logLine('fatal', 'failed writing', { err: err instanceof Error ? err.message : String(err) }), code: 1 };
          }
          return { stderr: start + logLine('info', 'installation successful', { module: 'zipconduit' }) };
        }
        case 'uninstall': {
          // main.go uninstallApp: "uninstalling" (appPath is the bundle id there), then exitIfError("failed uninstalling", err).
          const start = logLine('info', 'uninstalling', { appPath: rest[0], device: phone.udid });
          try {
            await d.uninstallApp(rest[0], ctx());
          } catch (err) {
            return { stderr: start + logLine('fatal', 'failed uninstalling', { err: err instanceof Error ? err.message : String(err) }), code: 1 };
          }
          return { stderr: start };
        }
        case 'launch':
          // cmd_device_apps.go runLaunchCommand: process control first (it needs the developer image), then the launch.
          if (instruments) return fatal('processcontrol failed', noInstruments(phone));
          if (!d.installedApps.some((a) => a.package === rest[0])) return launchRefused(rest[0]);
          // The wording of the phone's refusal is not from go-ios (it quotes what the phone says) and is a guess here.
          if (phone.wda.locked) return fatal('launch app command failed', `Unable to launch ${rest[0]} because the device was not, or could not be, unlocked.`);
          await d.launchApp(rest[0], ctx());
          if (this.config.crashOnLaunch?.includes(rest[0])) await d.terminateApp(rest[0], ctx());
          return { stderr: logLine('info', 'Process launched', { pid: 4321 }) };
        case 'kill': {
          // cmd_device_apps_kill.go: the bundle id is looked up among all apps (BrowseAllApps, system ones too), then
          // its process; each miss is logged at error level (no err field) and exits 1. Before 1.1: logrus lines
          // "<id> not installed" / "process of <id> not found".
          const id = rest[0];
          const slog = goIosLogStyle === 'slog';
          if (!d.installedApps.some((a) => a.package === id)) return failure(slog ? 'not installed' : `${id} not installed`, { bundleID: id });
          if (instruments) return fatal('processcontrol failed', noInstruments(phone));
          if (!(id in d.snapshot().tasks) && d.foregroundPackage !== id) return failure(slog ? 'process not found' : `process of ${id} not found`, { bundleID: id });
          await d.terminateApp(id, ctx());
          return { stderr: logLine('info', 'killed', { bundleID: id, pid: 4321 }) };
        }
      }
    } catch (err) {
      return fatal(`${verb} failed`, err instanceof Error ? err.message : String(err));
    }
    return fatal('unknown command', verb ?? '');
  }
}
