import type { CallContext } from '../../../src/engine/driver.js';
import type { Answer, FakePhone, FakeToolsConfig } from './fake-tools-config.js';
import { builtFor } from './package-platforms.js';

/*
 * The fake go-ios `ios`: its answers from the virtual phones' state, its logrus or slog JSON log lines, its
 * refusals (untrusted phone, no developer image, no tunnel) and docopt's usage for what an older build lacks.
 * Apart from fake-tools.ts, which serves the fake executables and hands each command to this or to simctl's.
 */

const ctx = (): CallContext => ({ signal: new AbortController().signal });
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

async function goIos(config: FakeToolsConfig, args: string[]): Promise<Answer> {
  goIosLogStyle = config.goIosLogs ?? 'logrus';
  const udidArg = args.find((a) => a.startsWith('--udid='))?.slice(7);
  const positional = args.filter((a) => !a.startsWith('--'));
  const [verb, ...rest] = positional;
  if (config.goIosLacks?.some((lacked) => goIosLacks(lacked, positional, args))) return goIosUsage(config.goIosLacks);
  if (verb === 'list') {
    const listed = config.phones.filter((p) => !p.unplugged).flatMap((p) => (p.wifi ? [p, p] : [p]));
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
    if (!config.phones.some((p) => p.tunnel)) {
      return fatal('failed to get tunnel infos', 'TunnelInfoForDevice: failed to get tunnel info: Get "http://127.0.0.1:60105/tunnels": dial tcp 127.0.0.1:60105: connect: connection refused');
    }
    const tunnels = config.phones.filter((p) => p.tunnel).map((p, i) => ({ address: `fd35:3a1c:9b5e::${i + 1}`, rsdPort: 58783 + i, udid: p.udid, userspaceTun: false, userspaceTunPort: 0 }));
    return { stdout: JSON.stringify(tunnels) + '\n' };
  }
  // cli_device_resolution.go resolveDevice: exitIfError("Device not found: "+udid, err) with ios/utils.go's error.
  const attached = config.phones.filter((p) => !p.unplugged);
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
        if (config.crashOnLaunch?.includes(rest[0])) await d.terminateApp(rest[0], ctx());
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

/** `ios <args>`; slog builds print a warning first while no tunnel agent runs. */
export function answerIos(config: FakeToolsConfig, args: string[]): Promise<Answer> {
  return goIos(config, args).then((a) => {
    // cli_setup.go warnIfAgentIsNotRunning (slog builds): every command warns first while no tunnel agent runs.
    if (goIosLogStyle !== 'slog' || config.phones.some((p) => p.tunnel)) return a;
    const warn = logLine('warn', "go-ios agent is not running. You might need to start it with 'ios tunnel start' for ios17+. Use ENABLE_GO_IOS_AGENT=user for userspace tunnel or ENABLE_GO_IOS_AGENT=kernel for kernel tunnel for the experimental daemon mode.");
    return { ...a, stderr: warn + (a.stderr ?? '') };
  });
}
