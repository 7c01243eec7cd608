import * as v from 'valibot';

import { ToolError } from '../../errors.js';
import type { DeviceInfo, InstalledApp } from '../../types.js';
import { parseOpenStepPlist, type PlistValue } from './openstep-plist.js';
import { parseToolJson, unexpectedShape } from './parse-json.js';
import { describe, lastLine, MissingExecutableError, runCommand, type CommandResult } from './run-command.js';
import { ToolLacks } from './tool-lacks.js';

/*
 * `xcrun simctl list devices --json` prints (Xcode 11+):
 *   {"devices": {"com.apple.CoreSimulator.SimRuntime.iOS-17-5": [
 *     {"udid": "…", "name": "iPhone 15", "state": "Booted", "isAvailable": true,
 *      "deviceTypeIdentifier": "com.apple.CoreSimulator.SimDeviceType.iPhone-15", "dataPath": "…", "logPath": "…"}]}}
 * Sample kept in test/fixtures/ios/simctl-list-devices.json.
 */
const SimDevice = v.object({
  udid: v.string(),
  name: v.optional(v.string()),
  state: v.string(),
  isAvailable: v.optional(v.boolean()),
  availabilityError: v.optional(v.string()),
  deviceTypeIdentifier: v.optional(v.string()),
});
type SimEntry = v.InferOutput<typeof SimDevice>;
// Entries are checked one by one: one odd simulator (a runtime half-removed, a device from a newer
// Xcode) must not hide the others, which it did when the whole list was one schema.
const SimList = v.object({ devices: v.record(v.string(), v.array(v.unknown())) });

export const XCODE_FIX =
  'install Xcode from the App Store (or https://developer.apple.com/xcode/), open it once to install its components, then run `sudo xcode-select -s /Applications/Xcode.app/Contents/Developer`';

export interface SimulatorInfo extends DeviceInfo {
  kind: 'simulator';
}

/** Runtime keys look like com.apple.CoreSimulator.SimRuntime.iOS-17-5; only iOS runtimes are phones we drive. */
export function runtimeVersion(runtime: string): string | undefined {
  const m = /SimRuntime\.iOS-(\d+)-(\d+)(?:-(\d+))?$/.exec(runtime);
  if (!m) return undefined;
  return [m[1], m[2], m[3]].filter((p) => p !== undefined).join('.');
}

/** Every readable entry of `simctl list devices --json` with its runtime key. */
function listedSimulators(json: string): { runtime: string; device: SimEntry }[] {
  const command = 'xcrun simctl list devices --json';
  const list = parseToolJson(SimList, json, command);
  const out: { runtime: string; device: SimEntry }[] = [];
  let odd: v.BaseIssue<unknown>[] | undefined;
  for (const [runtime, devices] of Object.entries(list.devices)) {
    for (const entry of devices) {
      const parsed = v.safeParse(SimDevice, entry);
      if (parsed.success) out.push({ runtime, device: parsed.output });
      else odd ??= parsed.issues;
    }
  }
  // Not one entry readable: the format changed, which is worth an error rather than "no simulators".
  if (odd && out.length === 0) throw unexpectedShape(command, odd, '(entry)');
  return out;
}

export function parseBootedSimulators(json: string): SimulatorInfo[] {
  const out: SimulatorInfo[] = [];
  for (const { runtime, device: d } of listedSimulators(json)) {
    const version = runtimeVersion(runtime);
    if (!version || d.state !== 'Booted' || d.isAvailable === false) continue;
    out.push({ kind: 'simulator', id: d.udid, os: 'iOS', model: d.name ?? 'iOS Simulator', version, state: 'ready' });
  }
  return out;
}

/**
 * Why a simulator simctl lists cannot be driven now, and what to do: CoreSimulator's states other than Booted
 * (Creating, Shutdown, Booting, Shutting Down), a device whose runtime is gone (isAvailable false, with simctl's
 * availabilityError), one of another platform. Undefined for a booted iOS simulator or a UDID simctl does not list.
 */
export function simulatorNotReady(json: string, udid: string): string | undefined {
  const found = listedSimulators(json).find((e) => e.device.udid.toUpperCase() === udid.toUpperCase());
  if (!found) return undefined;
  const { runtime, device: d } = found;
  const which = `simulator ${d.name ?? 'iOS Simulator'} (${d.udid})`;
  const platform = /SimRuntime\.([A-Za-z]+)-/.exec(runtime)?.[1];
  if (platform && platform !== 'iOS') return `${which} is a ${platform} simulator; only iOS simulators (iPhone, iPad) can be driven`;
  if (d.isAvailable === false) {
    return `${which} is unavailable (simctl: ${d.availabilityError ?? 'isAvailable false'}): install its iOS runtime in Xcode (Settings › Platforms), or use another simulator`;
  }
  const boot = `\`xcrun simctl boot ${d.udid}\`, or open it in Simulator`;
  switch (d.state) {
    case 'Booted':
      return undefined;
    case 'Booting':
      return `${which} is still booting: repeat the call once it is booted (\`xcrun simctl bootstatus ${d.udid}\` waits for that)`;
    case 'Shutdown':
      return `${which} is shut down: boot it (${boot}), then repeat the call`;
    case 'Shutting Down':
      return `${which} is shutting down: once it is shut down, boot it again (${boot}) and repeat the call`;
    case 'Creating':
      return `${which} is still being created: boot it once simctl lists it as Shutdown (${boot})`;
    default:
      return `${which} is in state ${JSON.stringify(d.state)}, not Booted: boot it (${boot}), then repeat the call`;
  }
}

function str(dict: { [key: string]: PlistValue }, key: string): string | undefined {
  const value = dict[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * `xcrun simctl listapps <udid>` prints an old-style plist keyed by bundle id, each entry with
 * ApplicationType (User/System), CFBundleIdentifier, CFBundleDisplayName, CFBundleName,
 * CFBundleShortVersionString, CFBundleVersion, SBAppTags (e.g. ("hidden")) and paths.
 * Sample kept in test/fixtures/ios/simctl-listapps.txt.
 */
export function parseSimctlListApps(text: string): InstalledApp[] {
  return listedApps(text).map(({ system: _system, ...app }) => app);
}

/** Bundle ids whose ApplicationType is System: iOS refuses to uninstall those. */
export function parseSimctlSystemApps(text: string): string[] {
  return listedApps(text).filter((a) => a.system).map((a) => a.package);
}

function listedApps(text: string): (InstalledApp & { system: boolean })[] {
  let root: PlistValue;
  try {
    root = parseOpenStepPlist(text);
  } catch (err) {
    throw new ToolError('INTERNAL', `xcrun simctl listapps printed output that could not be read: ${(err as Error).message}`);
  }
  if (typeof root !== 'object' || Array.isArray(root)) {
    throw new ToolError('INTERNAL', 'xcrun simctl listapps printed something other than a dictionary of apps');
  }
  const apps: (InstalledApp & { system: boolean })[] = [];
  for (const [bundleId, entry] of Object.entries(root)) {
    if (typeof entry !== 'object' || Array.isArray(entry)) continue;
    const tags = entry.SBAppTags;
    if (Array.isArray(tags) && tags.includes('hidden')) continue;
    apps.push({
      package: str(entry, 'CFBundleIdentifier') ?? bundleId,
      name: str(entry, 'CFBundleDisplayName') ?? str(entry, 'CFBundleName') ?? bundleId,
      version: str(entry, 'CFBundleShortVersionString') ?? str(entry, 'CFBundleVersion') ?? '',
      installed: true,
      system: str(entry, 'ApplicationType') === 'System',
    });
  }
  return apps.sort((a, b) => a.package.localeCompare(b.package));
}

const SIMCTL_HEADER = /^An error was encountered processing the command \(([^)]*)\):\s*$/;
const UNDERLYING = /^Underlying error\b/;
const TRY_LATER = /^Please try again later\.$/;
/** simctl's generic first line of failures inside the simulator; quoted only when nothing else is said. */
const GENERIC = /^Simulator device returned an error for the requested operation\.$/;

/**
 * What a simctl failure says, as one line. simctl prints (Xcode 11+)
 *   An error was encountered processing the command (domain=IXUserPresentableErrorDomain, code=1):
 *   Simulator device returned an error for the requested operation.
 *   Please try again later.
 *   <the reason>
 *   Underlying error (domain=…, code=…):
 *   \t<generic text>
 * (NyaMisty/ipatool-py#74, Xcode 15.2): the reason is in the middle, and the last line is often "Please try again
 * later.", which is never the reason. So the lines between the header and the first "Underlying error" are quoted
 * once each, without "Please try again later." (and the generic first line when another says more), then the
 * header's domain and code; with nothing there, the underlying error's lines; without a header, the last line.
 */
export function simctlReason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim());
  const start = lines.findIndex((l) => SIMCTL_HEADER.test(l));
  if (start < 0) return lastLine(stderr);
  const after = lines.slice(start + 1);
  const end = after.findIndex((l) => UNDERLYING.test(l));
  const said = (part: string[]) => [...new Set(part.filter((l) => l && !TRY_LATER.test(l) && !UNDERLYING.test(l)))];
  const body = said(end < 0 ? after : after.slice(0, end));
  const specific = body.filter((l) => !GENERIC.test(l));
  const text = specific.length ? specific : body.length ? body : said(after);
  return [...text, `(${SIMCTL_HEADER.exec(lines[start])![1]})`].join(' ');
}

/**
 * simctl's refusals for a simulator that is not running: "Unable to lookup in current state: Shutdown"
 * (CoreSimulator SimError 405, also "Shutting Down") once it was shut down, "Invalid device: <udid>" once it was deleted.
 */
const SIMULATOR_GONE = /Unable to lookup in current state: (Shutdown|Shutting Down)|^Invalid device: /m;

/** A simulator shut down or deleted since it was opened: gone, with how to bring it back. */
export function simulatorGone(udid: string, why: string): ToolError {
  return new ToolError('DEVICE_NOT_FOUND', `simulator ${udid} is no longer running (${why}): boot it again (\`xcrun simctl boot ${udid}\`, or open it in Simulator), then repeat the call`);
}

/**
 * xcrun refuses every tool, simctl included, in two states a Mac reaches by itself: an Xcode installed or
 * updated whose license was never accepted (exit 69, "Agreeing to the Xcode/iOS license requires admin
 * privileges, please run “sudo xcodebuild -license” and then retry this command."; before Xcode 9 "…please
 * re-run as root via sudo."), and a developer directory that is gone, typically the Command Line Tools
 * after a macOS upgrade ("xcrun: error: invalid active developer path (…), missing xcrun at: …").
 * Either hides every simulator; said as such, with the fix, instead of an INTERNAL listing failure.
 */
function unusableXcode(result: CommandResult): string | undefined {
  if (result.code === 0) return undefined;
  if (/Xcode\/iOS license|Xcode license agreement/i.test(result.stderr)) {
    return `Xcode's license has not been accepted, so xcrun runs no developer tool (xcrun: ${lastLine(result.stderr)}): run \`sudo xcodebuild -license accept\` (or open Xcode once and agree), then repeat the call`;
  }
  const path = /invalid active developer path \(([^)]*)\)/.exec(result.stderr);
  if (path) {
    return `the selected developer directory ${path[1]} is missing (xcrun: ${lastLine(result.stderr)}), so iOS simulators cannot be driven: ${XCODE_FIX}`;
  }
  return undefined;
}

/**
 * simctl's answer to a subcommand it does not have (measured with Xcode 26.4): "Unrecognized subcommand: <name>" on
 * stderr, its usage on stdout, exit 1. `listapps` has been there since Xcode 9, so only an emulation or a very
 * old Xcode lacks the subcommands used here.
 */
const UNRECOGNIZED = /^Unrecognized subcommand\b/m;

export class SimctlLacks extends ToolLacks {
  constructor(subcommand: string) {
    super(subcommand, `the installed simctl does not know \`simctl ${subcommand}\` (it answered "Unrecognized subcommand"), so nothing was done: update Xcode; ${XCODE_FIX}`);
  }
}

/** `xcrun simctl …` with a deadline; every failure names the simulator and quotes simctl. */
export class Simctl {
  /** Subcommands this simctl did not know: refused from then on without running it again. */
  private readonly lacking = new Set<string>();

  constructor(private readonly xcrun = 'xcrun', private readonly timeoutMs = 60_000) {}

  private async run(args: string[], signal?: AbortSignal, timeoutMs = this.timeoutMs, env?: Record<string, string>): Promise<CommandResult> {
    if (this.lacking.has(args[0])) throw new SimctlLacks(args[0]);
    try {
      const result = await runCommand(this.xcrun, ['simctl', ...args], { signal, timeoutMs, env: env && { ...process.env, ...env } });
      if (/unable to find utility "simctl"/.test(result.stderr)) {
        throw new ToolError('UNSUPPORTED', `Xcode is not selected (only the Command Line Tools are): ${XCODE_FIX}`);
      }
      const unusable = unusableXcode(result);
      if (unusable) throw new ToolError('UNSUPPORTED', unusable);
      if (result.code !== 0 && UNRECOGNIZED.test(result.stderr)) {
        this.lacking.add(args[0]);
        throw new SimctlLacks(args[0]);
      }
      // Every verb but list names the simulator second; one shut down or deleted since it was listed is gone, not broken.
      if (result.code !== 0 && args[0] !== 'list' && args[1] && SIMULATOR_GONE.test(result.stderr)) {
        throw simulatorGone(args[1], `simctl: ${simctlReason(result.stderr)}`);
      }
      return result;
    } catch (err) {
      if (err instanceof MissingExecutableError) {
        throw new ToolError('UNSUPPORTED', `Xcode is not installed (xcrun is not on PATH), so iOS simulators cannot be driven: ${XCODE_FIX}`);
      }
      throw err;
    }
  }

  private async ok(args: string[], what: string, signal?: AbortSignal, timeoutMs?: number): Promise<string> {
    const r = await this.run(args, signal, timeoutMs);
    if (r.code !== 0) throw new ToolError('INTERNAL', `${what} failed: ${simctlReason(r.stderr) || `${describe('xcrun simctl', args)} exited with ${r.code}`}`);
    return r.stdout;
  }

  async bootedSimulators(signal?: AbortSignal): Promise<SimulatorInfo[]> {
    return parseBootedSimulators(await this.list(signal));
  }

  /** Why simctl's simulator `udid` cannot be driven now (simulatorNotReady); undefined when it is booted or unknown. */
  async notReady(udid: string, signal?: AbortSignal): Promise<string | undefined> {
    return simulatorNotReady(await this.list(signal), udid);
  }

  private list(signal?: AbortSignal): Promise<string> {
    return this.ok(['list', 'devices', '--json'], 'listing simulators (xcrun simctl list devices --json)', signal, 20_000);
  }

  async listApps(udid: string, signal?: AbortSignal): Promise<InstalledApp[]> {
    return parseSimctlListApps(await this.ok(['listapps', udid], `listing the apps of simulator ${udid}`, signal));
  }

  async systemApps(udid: string, signal?: AbortSignal): Promise<string[]> {
    return parseSimctlSystemApps(await this.ok(['listapps', udid], `listing the apps of simulator ${udid}`, signal));
  }

  /**
   * Whether `bundleId` is installed, by `simctl get_app_container` (the app's bundle path, or a failure when there
   * is none): one app asked where listapps would list them all, for a simctl without listapps.
   */
  async hasApp(udid: string, bundleId: string, signal?: AbortSignal): Promise<boolean> {
    return (await this.run(['get_app_container', udid, bundleId], signal)).code === 0;
  }

  async install(udid: string, path: string, signal?: AbortSignal): Promise<void> {
    const r = await this.run(['install', udid, path], signal, 170_000);
    if (r.code !== 0) {
      throw new ToolError('INVALID_PARAMETER', `simulator ${udid} refused to install ${path}: ${simctlReason(r.stderr)} (a simulator needs an .app or .ipa built for the iOS Simulator)`);
    }
  }

  async uninstall(udid: string, bundleId: string, signal?: AbortSignal): Promise<void> {
    await this.ok(['uninstall', udid, bundleId], `uninstalling ${bundleId} from simulator ${udid}`, signal);
  }

  /** simctl prints "<bundle id>: <pid>" on success. `env` (SIMCTL_CHILD_<name>) reaches the app as <name>. */
  async launch(udid: string, bundleId: string, signal?: AbortSignal, env?: Record<string, string>): Promise<CommandResult> {
    return this.run(['launch', udid, bundleId], signal, undefined, env);
  }

  async terminate(udid: string, bundleId: string, signal?: AbortSignal): Promise<CommandResult> {
    return this.run(['terminate', udid, bundleId], signal);
  }

  async openUrl(udid: string, url: string, signal?: AbortSignal): Promise<void> {
    const r = await this.run(['openurl', udid, url], signal);
    if (r.code !== 0) throw new ToolError('INVALID_PARAMETER', `simulator ${udid} could not open ${url}: ${simctlReason(r.stderr)} (is an app installed that handles this URL scheme?)`);
  }
}
