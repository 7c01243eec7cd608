import * as v from 'valibot';

import { ToolError } from '../../errors.js';
import type { DeviceInfo, InstalledApp } from '../../types.js';
import { parseToolJson } from './parse-json.js';
import { MissingExecutableError, runCommand, type CommandResult } from './run-command.js';
import { ToolLacks, unlessLacking } from './tool-lacks.js';

/*
 * go-ios (github.com/danielpaulus/go-ios) prints JSON on stdout by default and logs logrus JSON lines on stderr
 * ({"level":"fatal","msg":"…","err":"…"} then exit 1 on failure). Formats used here, samples in test/fixtures/ios/:
 *   ios list --details  → {"deviceList":[{"Udid","ProductName","ProductType","ProductVersion"(,"ConnectionType")}]}
 *   ios apps            → [{"CFBundleIdentifier","CFBundleName","CFBundleDisplayName","CFBundleShortVersionString",…}]
 *   ios tunnel ls       → [{"address","rsdPort","udid","userspaceTun","userspaceTunPort"}]  (iOS 17+ launch and kill need one)
 *   ios list            → {"deviceList":["<udid>",…]}   ios info → {"ProductType","ProductVersion",… lockdown values}
 */
const DetailsList = v.object({
  deviceList: v.array(
    v.object({
      Udid: v.string(),
      ProductName: v.optional(v.string()),
      ProductType: v.optional(v.string()),
      ProductVersion: v.string(),
      ConnectionType: v.optional(v.string()),
    }),
  ),
});
const AppList = v.array(
  v.looseObject({
    CFBundleIdentifier: v.string(),
    CFBundleName: v.optional(v.string()),
    CFBundleDisplayName: v.optional(v.string()),
    CFBundleShortVersionString: v.optional(v.string()),
    CFBundleVersion: v.optional(v.string()),
  }),
);
/** `ios list` without --details: UDIDs only, read from usbmuxd without talking to the phones (listdevices.go). */
const UdidList = v.object({ deviceList: v.array(v.string()) });
/** `ios info`: the phone's lockdown values (GetValuesPlist), of which these are used. */
const LockdownValues = v.looseObject({ ProductType: v.optional(v.string()), ProductName: v.optional(v.string()), ProductVersion: v.optional(v.string()) });
const TunnelList = v.array(v.looseObject({ udid: v.string(), address: v.optional(v.string()), rsdPort: v.optional(v.number()) }));

export const GO_IOS_FIX = 'install go-ios (`npm install -g go-ios`, or a release from https://github.com/danielpaulus/go-ios/releases) so that `ios` is on PATH, then check `ios list`';
export const TUNNEL_FIX = 'start the go-ios tunnel agent and keep it running: `sudo ios tunnel start` (check with `ios tunnel ls`)';

export interface RealDeviceInfo extends DeviceInfo {
  kind: 'device';
}

/**
 * An iPhone on USB and on Wi-Fi at once appears twice in `ios list` (ConnectionType "USB" and "Network"),
 * under one UDID: one entry per device, the USB one preferred (faster; the usbmuxd relay prefers it too).
 */
export function parseDeviceDetails(json: string): RealDeviceInfo[] {
  const byUdid = new Map<string, v.InferOutput<typeof DetailsList>['deviceList'][number]>();
  for (const d of parseToolJson(DetailsList, json, 'ios list --details').deviceList) {
    const seen = byUdid.get(d.Udid);
    if (!seen || (seen.ConnectionType !== 'USB' && d.ConnectionType === 'USB')) byUdid.set(d.Udid, d);
  }
  return [...byUdid.values()].map((d) => ({
    kind: 'device',
    id: d.Udid,
    os: 'iOS',
    model: d.ProductType ?? d.ProductName ?? 'iPhone',
    version: d.ProductVersion,
    state: 'ready',
  }));
}

export function parseUdidList(json: string): string[] {
  return [...new Set(parseToolJson(UdidList, json, 'ios list').deviceList)];
}

/** What to do about a phone go-ios sees but cannot query (not paired, or "Trust This Computer" not yet tapped). */
export const TRUST_FIX = 'unlock it and tap Trust on the phone (Trust This Computer), then list again';

export function unqueriedPhone(udid: string, why: string): RealDeviceInfo {
  return { kind: 'device', id: udid, os: 'iOS', model: 'unknown', version: '', state: 'unauthorized', message: `iPhone ${udid} could not be queried (${why}): ${TRUST_FIX}` };
}

/**
 * Until go-ios 1.0.178 (installationproxy.go, #602 "make AppInfo a map") an app was a Go struct, so `ios apps`
 * printed every field, "" where the app has none (CFBundleDisplayName is often missing): empty means absent.
 */
export function parseGoIosApps(json: string): InstalledApp[] {
  return parseToolJson(AppList, json, 'ios apps')
    .map((a) => ({
      package: a.CFBundleIdentifier,
      name: a.CFBundleDisplayName || a.CFBundleName || a.CFBundleIdentifier,
      version: a.CFBundleShortVersionString || a.CFBundleVersion || '',
      installed: true,
    }))
    .sort((a, b) => a.package.localeCompare(b.package));
}

export function parseTunnels(json: string): string[] {
  return parseToolJson(TunnelList, json.trim() || '[]', 'ios tunnel ls').map((t) => t.udid);
}

interface LogEntry {
  level: string;
  msg: string;
  err: string;
}

/**
 * One go-ios log line in any of its forms: logrus JSON before 1.1 ({"level":"fatal","msg","err"}),
 * slog JSON from 1.1 ({"time","level":"ERROR","msg","err"}), or slog text (level=ERROR msg="…" err="…").
 */
export function parseGoIosLogLine(line: string): LogEntry | undefined {
  const text = line.trim();
  if (text.startsWith('{')) {
    try {
      const entry = JSON.parse(text) as Record<string, unknown>;
      const field = (k: string) => (typeof entry[k] === 'string' ? (entry[k] as string) : '');
      return { level: field('level').toLowerCase(), msg: field('msg'), err: field('err') || field('error') };
    } catch {
      return undefined;
    }
  }
  if (!/(^|\s)level=\w+/.test(text)) return undefined;
  const fields = new Map<string, string>();
  for (const m of text.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S*)/g)) fields.set(m[1], m[2].startsWith('"') ? m[2].slice(1, -1).replace(/\\(.)/g, '$1') : m[2]);
  return { level: (fields.get('level') ?? '').toLowerCase(), msg: fields.get('msg') ?? '', err: fields.get('err') ?? fields.get('error') ?? '' };
}

const FAILURE_LEVELS = new Set(['fatal', 'error', 'panic']);

/**
 * Whether go-ios failed because the phone is not attached: every per-device command resolves --udid
 * first and exits with "Device not found: <udid>" / "Device '<udid>' not found. Is it attached to the
 * machine?" (cli_device_resolution.go resolveDevice, ios/utils.go GetDeviceWithAddress at go-ios 3ebc297);
 * older builds said "device not found: <udid>".
 */
export function phoneDetached(result: CommandResult): boolean {
  return result.code !== 0 && /\bdevice (?:'[^']*' )?not found\b/i.test(goIosError(result));
}

/** The answer for a call on a phone that left usbmuxd's list (unplugged, or its Wi-Fi pairing dropped). */
export function phoneGone(label: string): ToolError {
  return new ToolError('DEVICE_NOT_FOUND', `${label} is no longer connected (unplugged, or its Wi-Fi pairing dropped); plug it in again and unlock it, then repeat the call`);
}

/** go-ios reports failures as log lines on stderr; quote the msg and err of the last failure, never a raw JSON line. */
export function goIosError(result: CommandResult): string {
  const entries: LogEntry[] = [];
  const plain: string[] = [];
  for (const line of `${result.stderr}\n${result.stdout}`.split('\n')) {
    if (!line.trim()) continue;
    const entry = parseGoIosLogLine(line);
    if (entry) entries.push(entry);
    else plain.push(line.trim());
  }
  const describe = (e: LogEntry) => [e.msg, e.err].filter(Boolean).join(': ');
  const failure = [...entries].reverse().find((e) => FAILURE_LEVELS.has(e.level) && describe(e));
  if (failure) return describe(failure);
  // A Go crash prints "panic: <why>" (or the runtime's "fatal error: <why>") and then a goroutine stack
  // whose last line is a source path: the why is what to quote.
  const crash = plain.find((l) => /^(panic|fatal error): /.test(l));
  if (crash) return `go-ios crashed (${crash})`;
  if (plain.length) return plain[plain.length - 1];
  const last = [...entries].reverse().find((e) => describe(e));
  return last ? describe(last) : `exit code ${result.code}`;
}

/**
 * Whether go-ios did not know the command: its docopt parser (docopt.ParseDoc) prints the "Usage:" section
 * of main.go, one `ios …` line per command, and exits 1 when no usage line matches the arguments.
 */
export function unknownCommand(result: CommandResult): boolean {
  return result.code !== 0 && /^Usage:\s*\n\s+ios /m.test(`${result.stderr}\n${result.stdout}`);
}

const UPDATE_GO_IOS = 'update go-ios (`npm install -g go-ios@latest`, or a release from https://github.com/danielpaulus/go-ios/releases)';

/** A command (or option) the installed go-ios answered with its usage text: it does not have it. */
export class GoIosLacks extends ToolLacks {
  constructor(command: string) {
    super(command, `the installed go-ios does not know \`ios ${command}\` (it answered with its usage text), so nothing was done: ${UPDATE_GO_IOS}`);
  }
}

export function majorVersion(version: string): number {
  return Number.parseInt(version.split('.')[0] ?? '0', 10) || 0;
}

/** Runs `ios …` (go-ios) with deadlines; a missing binary becomes one precise error naming the install command. */
export class GoIos {
  /** Commands this go-ios answered with its usage text (GoIosLacks): their stand-ins are used without asking again. */
  private readonly lacking = new Set<string>();

  constructor(readonly executable = 'ios', private readonly timeoutMs = 60_000) {}

  /** Commands this go-ios answered otherwise (whether they succeeded or not): it has them. */
  private readonly known = new Set<string>();

  lacks(command: string): boolean {
    return this.lacking.has(command);
  }

  knows(command: string): boolean {
    return this.known.has(command);
  }

  async run(args: string[], signal?: AbortSignal, timeoutMs = this.timeoutMs): Promise<CommandResult> {
    try {
      return await runCommand(this.executable, args, { signal, timeoutMs });
    } catch (err) {
      if (err instanceof MissingExecutableError) throw new ToolError('UNSUPPORTED', `go-ios is not installed (\`${this.executable}\` is not on PATH), so real iPhones cannot be driven: ${GO_IOS_FIX}`);
      throw err;
    }
  }

  /**
   * Runs a per-phone command, or refuses one this go-ios was found not to know. The command is named by its verb
   * and options (`uninstall`, `apps --system`), without the values given to it.
   */
  private async runKnown(args: string[], signal?: AbortSignal, timeoutMs?: number): Promise<CommandResult> {
    const command = args.filter((a, i) => i === 0 || (a.startsWith('--') && !a.includes('='))).join(' ');
    if (this.lacking.has(command)) throw new GoIosLacks(command);
    const r = await this.run(args, signal, timeoutMs);
    if (!unknownCommand(r)) {
      this.known.add(command);
      return r;
    }
    this.lacking.add(command);
    throw new GoIosLacks(command);
  }

  private async ok(udid: string, args: string[], what: string, signal?: AbortSignal, timeoutMs?: number): Promise<string> {
    const r = await this.runKnown([...args, `--udid=${udid}`], signal, timeoutMs);
    if (r.code !== 0) await this.throwIfGone(udid, r, signal);
    if (r.code !== 0) throw new ToolError('INTERNAL', `${what} failed: ${goIosError(r)}`);
    return r.stdout;
  }

  /**
   * A phone unplugged while a command runs makes go-ios fail with whatever the broken connection gave
   * ("failed writing: EOF" from zipconduit, "browsing user apps failed: EOF" from the plist codec), never
   * "Device not found", which is only said when the command starts. So after a failure, usbmuxd's list
   * tells whether the phone is still there: if not, that is the answer, not the text of the failure.
   */
  private async throwIfGone(udid: string, failed: CommandResult, signal?: AbortSignal): Promise<void> {
    if (phoneDetached(failed)) throw phoneGone(`iPhone ${udid}`);
    const attached = await this.run(['list'], signal, 20_000);
    if (attached.code !== 0) return; // usbmuxd itself unreachable: the failure's own text says more
    let listed: string[];
    try {
      listed = parseUdidList(attached.stdout);
    } catch {
      return;
    }
    if (!listed.includes(udid)) throw phoneGone(`iPhone ${udid}`);
  }

  /**
   * `ios list --details` asks every phone for its values and exits 1 at the first one that does not answer
   * (main.go outputDetailedList: exitIfError("failed getting values"), e.g. "could not retrieve PairRecord"
   * from a phone not trusted yet), printing nothing. Then the UDIDs come from plain `ios list` and each
   * phone is asked on its own (`ios info`): those that answer are listed as usual, the others as
   * unauthorized with what to do, so one untrusted phone never hides the rest.
   */
  async devices(signal?: AbortSignal): Promise<RealDeviceInfo[]> {
    // A go-ios without --details (an emulation of a few commands) is listed the second way from then on.
    const r = this.lacking.has('list --details') ? undefined : await this.run(['list', '--details'], signal, 20_000);
    if (r?.code === 0) return parseDeviceDetails(r.stdout);
    if (r && unknownCommand(r)) this.lacking.add('list --details');
    const plain = await this.run(['list'], signal, 20_000);
    if (plain.code !== 0) {
      // The first failure says more, unless it was only go-ios's usage text.
      const [command, failed] = r && !this.lacking.has('list --details') ? ['ios list --details', r] : ['ios list', plain];
      throw new ToolError('INTERNAL', `listing iPhones (${command}) failed: ${goIosError(failed)}`);
    }
    return Promise.all(parseUdidList(plain.stdout).map((udid) => this.describe(udid, signal)));
  }

  /**
   * A go-ios that knows neither `list --details` nor `info` (an emulation of a few commands) cannot tell a phone's
   * model or version, nor whether it trusts this computer: listed as usable with both unknown, which says why.
   */
  private async describe(udid: string, signal?: AbortSignal): Promise<RealDeviceInfo> {
    const r = this.lacking.has('info') ? undefined : await this.run(['info', `--udid=${udid}`], signal, 20_000);
    if (!r || unknownCommand(r)) {
      this.lacking.add('info');
      const lacked = this.lacking.has('list --details') ? 'knows neither `ios list --details` nor `ios info`' : 'does not know `ios info`, and `ios list --details` failed';
      const message = `its model and iOS version are unknown: the installed go-ios ${lacked}`;
      return { kind: 'device', id: udid, os: 'iOS', model: 'iPhone', version: '', state: 'ready', message };
    }
    if (r.code !== 0) return unqueriedPhone(udid, goIosError(r));
    const values = parseToolJson(LockdownValues, r.stdout, `ios info --udid=${udid}`);
    if (!values.ProductVersion) return unqueriedPhone(udid, 'ios info printed no ProductVersion');
    return { kind: 'device', id: udid, os: 'iOS', model: values.ProductType ?? values.ProductName ?? 'iPhone', version: values.ProductVersion, state: 'ready' };
  }

  async apps(udid: string, signal?: AbortSignal): Promise<InstalledApp[]> {
    return parseGoIosApps(await this.ok(udid, ['apps'], `listing the apps of ${udid} (ios apps)`, signal));
  }

  /** `ios apps --system`: the apps that ship with iOS (never part of `ios apps`); undefined from a go-ios without the option (or without `ios apps`). */
  async systemApps(udid: string, signal?: AbortSignal): Promise<string[] | undefined> {
    if (this.lacking.has('apps --system') || this.lacking.has('apps')) return undefined;
    const listed = await unlessLacking(this.ok(udid, ['apps', '--system'], `listing the system apps of ${udid} (ios apps --system)`, signal));
    return listed === undefined ? undefined : parseGoIosApps(listed).map((a) => a.package);
  }

  async install(udid: string, path: string, signal?: AbortSignal): Promise<void> {
    const r = await this.runKnown(['install', `--path=${path}`, `--udid=${udid}`], signal, 170_000);
    if (r.code !== 0) await this.throwIfGone(udid, r, signal);
    if (r.code !== 0) throw new ToolError('INVALID_PARAMETER', `${udid} refused to install ${path}: ${goIosError(r)} (a device needs an .ipa or .app signed for it)`);
  }

  async uninstall(udid: string, bundleId: string, signal?: AbortSignal): Promise<void> {
    await this.ok(udid, ['uninstall', bundleId], `uninstalling ${bundleId} from ${udid}`, signal);
  }

  /**
   * `ios devmode get` (cmd_device_management.go runDevModeCommand) prints {"DeveloperModeEnabled": <bool>} from the
   * image mounter's QueryDeveloperModeStatus (imagemounter.go IsDevModeEnabled), over lockdown: no tunnel, no
   * developer image needed. go-ios drops the query's error and prints false then too, so false means "off, or
   * could not be asked". Undefined when the command fails or prints something else.
   */
  async developerMode(udid: string, signal?: AbortSignal): Promise<boolean | undefined> {
    const r = await this.run(['devmode', 'get', `--udid=${udid}`], signal, 20_000).catch(() => undefined);
    if (!r || r.code !== 0) return undefined;
    for (const line of r.stdout.split('\n').reverse()) {
      try {
        const value = (JSON.parse(line) as { DeveloperModeEnabled?: unknown } | null)?.DeveloperModeEnabled;
        if (typeof value === 'boolean') return value;
      } catch {
        // not the JSON line
      }
    }
    return undefined;
  }

  launch(udid: string, bundleId: string, signal?: AbortSignal): Promise<CommandResult> {
    return this.runKnown(['launch', bundleId, `--udid=${udid}`], signal);
  }

  kill(udid: string, bundleId: string, signal?: AbortSignal): Promise<CommandResult> {
    return this.runKnown(['kill', bundleId, `--udid=${udid}`], signal);
  }

  /**
   * iOS 17+ offers developer services (instruments: launching and killing apps, and `ios runwda`) only through
   * a tunnel that `ios tunnel start` keeps open; without one go-ios fails with "processcontrol failed"
   * (ios/instruments/helper.go connectInstruments). Lockdown services (apps, install, uninstall) and usbmuxd's TCP connections need none.
   * A go-ios that knows `ios tunnel start` but not `ios tunnel ls` cannot be asked: then the launch or kill runs, and its failure tells.
   */
  async requireTunnel(udid: string, signal?: AbortSignal): Promise<void> {
    if (!this.lacking.has('tunnel ls')) {
      const r = await this.run(['tunnel', 'ls'], signal, 10_000);
      if (r.code === 0 && parseTunnels(r.stdout).includes(udid)) return;
      if (!unknownCommand(r)) {
        // A phone that was unplugged loses its tunnel too: say that, not "start the tunnel".
        const attached = await this.run(['list'], signal, 20_000);
        if (attached.code === 0 && !parseUdidList(attached.stdout).includes(udid)) throw phoneGone(`iPhone ${udid}`);
        throw new ToolError('UNSUPPORTED', `no go-ios tunnel to ${udid}, which runs iOS 17 or later and needs one to launch or stop apps: ${TUNNEL_FIX}`);
      }
      // docopt's answer lists every command this go-ios knows: one that starts tunnels but cannot list them
      // (an emulation of a few commands) may have one up, which only the launch itself can tell.
      this.lacking.add('tunnel ls');
      if (!/^\s+ios tunnel start\b/m.test(`${r.stderr}\n${r.stdout}`)) this.lacking.add('tunnel start');
    }
    if (this.lacking.has('tunnel start')) {
      // `ios tunnel` came with go-ios 1.0.122 (February 2024): an older one has no tunnel to start either.
      throw new ToolError('UNSUPPORTED', `${udid} runs iOS 17 or later, whose apps go-ios launches and stops only through a tunnel, and the installed go-ios is too old to have one (it does not know \`ios tunnel ls\`, which came with go-ios 1.0.122): ${UPDATE_GO_IOS}, then ${TUNNEL_FIX}`);
    }
  }
}
