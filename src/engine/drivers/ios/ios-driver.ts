import type { CallContext, DeviceHandle, Driver } from '../../driver.js';
import { ToolError } from '../../errors.js';
import type { DeviceInfo } from '../../types.js';
import { RealDeviceControl, SimulatorControl } from './app-control.js';
import { GoIos, majorVersion, phoneGone, type RealDeviceInfo } from './go-ios.js';
import { IosDevice } from './ios-device.js';
import { Simctl, simulatorGone, type SimulatorInfo } from './simctl.js';
import type { DeviceRelay } from './usbmux/device-relay.js';
import { openPhoneRelay, usbmuxProblem } from './usbmux/phone-relay.js';
import { WdaClient } from './wda-client.js';
import { WdaEndpoint } from './wda-endpoint.js';
import { SimulatorWdaStarter, simulatorStartHint, type WdaStartConfig } from './wda-launcher.js';

export interface IosDriverOptions {
  /** WebDriverAgent of simulators (they share the Mac's network). Default http://127.0.0.1:8100. */
  wdaUrl?: string;
  /** Per-simulator WebDriverAgent URLs when several simulators run their own WDA (udid → URL). */
  wdaUrls?: Record<string, string>;
  /** Port WebDriverAgent listens on inside a real iPhone (reached through usbmuxd). Default 8100. */
  deviceWdaPort?: number;
  /** How to start WebDriverAgent on a simulator when nothing answers. */
  wdaStart?: WdaStartConfig;
  /** Executables, for unusual installs and the test harness. Defaults: xcrun, ios. */
  xcrun?: string;
  goIos?: string;
  /** Deadline of each spawned command (ms). Default 60 s (installs get longer). */
  commandTimeoutMs?: number;
  /** How long opening a real iPhone waits for WebDriverAgent to answer through usbmuxd (ms). Default 10 s. */
  forwardWaitMs?: number;
  /** WebDriverAgent's MJPEG server of simulators. Default: the WDA URL's host, port 9100. */
  mjpegUrl?: string;
  /** Per-simulator MJPEG server URLs (udid → URL). */
  mjpegUrls?: Record<string, string>;
  /** Port of the MJPEG server inside a real iPhone (reached through usbmuxd). Default 9100. */
  deviceMjpegPort?: number;
  /** Where the driver reports what it did on its own (a relay reopened). Default: stderr. */
  log?: (message: string) => void;
  /** Where usbmuxd listens (USBMUXD_SOCKET_ADDRESS's forms, go-ios's rules). Default: that variable, else the platform's socket. */
  usbmuxd?: string;
}

/** WebDriverAgent's default `mjpegServerPort` (FBConfiguration.m DefaultMjpegServerPort). */
const MJPEG_PORT = 9100;

type Listed = SimulatorInfo | RealDeviceInfo;

const LISTING_TTL_MS = 1500;

/** simctl udids are upper-case UUIDs; iPhone UDIDs are 8+16 hex digits (2018+) or 40 hex digits (older). */
const SIMULATOR_UDID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const PHONE_UDID = /^([0-9A-F]{8}-[0-9A-F]{16}|[0-9a-f]{40})$/;

const strip = ({ kind: _kind, ...info }: Listed): DeviceInfo => info;

/**
 * iOS simulators (xcrun simctl) and real iPhones (go-ios), both driven through WebDriverAgent.
 * A missing tool only hides its half: on Linux neither exists and the driver lists nothing, quietly.
 */
export class IosDriver implements Driver {
  readonly name = 'ios';
  private readonly simctl: Simctl;
  private readonly goIos: GoIos;
  private readonly open_ = new Map<string, IosDevice>();
  private recent: { devices: Listed[]; at: number } | undefined;

  constructor(private readonly options: IosDriverOptions = {}) {
    this.simctl = new Simctl(options.xcrun ?? 'xcrun', options.commandTimeoutMs);
    this.goIos = new GoIos(options.goIos ?? 'ios', options.commandTimeoutMs);
  }

  async listDevices(ctx: CallContext): Promise<DeviceInfo[]> {
    return (await this.listed(ctx.signal)).map(strip);
  }

  async open(id: string, ctx: CallContext): Promise<DeviceHandle | undefined> {
    const existing = this.open_.get(id);
    if (existing) return existing;
    const reused = this.recent !== undefined && performance.now() - this.recent.at < LISTING_TTL_MS;
    let found = (await this.listed(ctx.signal)).find((d) => d.id === id);
    // A listing reused from the last moments may be from before the simulator finished booting or the phone was plugged in.
    if (!found && reused) {
      this.recent = undefined;
      found = (await this.listed(ctx.signal)).find((d) => d.id === id);
    }
    if (!found) {
      await this.explainMissingTool(id, ctx.signal);
      return undefined;
    }
    // Listed so the user sees it and what to do, but nothing can be done with it until it is trusted.
    if (found.state === 'unauthorized') throw new ToolError('PERMISSION_DENIED', found.message ?? `iPhone ${id} has not trusted this computer`);
    const device = found.kind === 'simulator' ? this.openSimulator(found) : this.openPhone(found);
    this.open_.set(id, device);
    return device;
  }

  async close(): Promise<void> {
    for (const device of this.open_.values()) device.close();
    this.open_.clear();
  }

  /**
   * An id shaped like a simulator or iPhone UDID that is not listed: when the tool itself is missing, say so
   * (with its install command); a simulator simctl knows but that is not booted (still booting, shut down, its
   * runtime gone) is DEVICE_NOT_FOUND saying so and what to do, instead of a bare "device not found".
   */
  private async explainMissingTool(id: string, signal?: AbortSignal): Promise<void> {
    const probe = SIMULATOR_UDID.test(id) ? this.simctl.notReady(id, signal) : PHONE_UDID.test(id) ? this.goIos.devices(signal) : undefined;
    const outcome = await probe?.then((value) => ({ value }), (err: unknown) => ({ err }));
    if (outcome && 'err' in outcome && outcome.err instanceof ToolError && outcome.err.code === 'UNSUPPORTED') {
      throw new ToolError('UNSUPPORTED', `device ${id} looks like an iOS ${SIMULATOR_UDID.test(id) ? 'simulator' : 'device'} id, but ${outcome.err.message}`);
    }
    if (outcome && 'value' in outcome && typeof outcome.value === 'string') throw new ToolError('DEVICE_NOT_FOUND', outcome.value);
  }

  private async listed(signal?: AbortSignal): Promise<Listed[]> {
    // Opening a device right after listing (the usual order) reuses the listing instead of spawning both tools again.
    if (this.recent && performance.now() - this.recent.at < LISTING_TTL_MS) return this.recent.devices;
    // A tool that is absent or broken hides only its own devices; messages surface when a device is used.
    const [sims, phones] = await Promise.all([
      this.simctl.bootedSimulators(signal).catch((): Listed[] => []),
      this.goIos.devices(signal).catch((): Listed[] => []),
    ]);
    const devices = [...sims, ...phones];
    this.recent = { devices, at: performance.now() };
    return devices;
  }

  /**
   * A simulator WebDriverAgent stopped answering for may have been shut down (or deleted) with it: then it is gone,
   * as the app tools say, not a WDA to start. The listing of the last LISTING_TTL_MS is used when it has the
   * simulator missing; otherwise simctl is asked (an error path, and a listing from before the shutdown would still
   * show it booted). simctl failing tells nothing.
   */
  private async simulatorGone(udid: string, signal?: AbortSignal): Promise<ToolError | undefined> {
    const fresh = this.recent && performance.now() - this.recent.at < LISTING_TTL_MS ? this.recent.devices : undefined;
    const booted = fresh?.some((d) => d.id === udid) === false ? fresh : await this.simctl.bootedSimulators(signal).catch(() => undefined);
    if (!booted || booted.some((d) => d.id === udid)) return undefined;
    return simulatorGone(udid, 'simctl no longer lists it as booted, and its WebDriverAgent does not answer');
  }

  private async requireConnected(udid: string, label: string, signal?: AbortSignal): Promise<void> {
    this.recent = undefined;
    const listed = await this.goIos.devices(signal);
    if (!listed.some((d) => d.id === udid)) throw phoneGone(label);
  }

  private openSimulator(info: SimulatorInfo): IosDevice {
    // simctl prints UDIDs in upper case; the CLI stores them so, an API caller may not.
    const perSimulator = (urls?: Record<string, string>) => urls?.[info.id] ?? urls?.[info.id.toUpperCase()];
    const dedicated = perSimulator(this.options.wdaUrls);
    const url = dedicated ?? this.options.wdaUrl ?? 'http://127.0.0.1:8100';
    const label = `simulator ${info.model} (${info.id})`;
    const clientFor = (u: string) => new WdaClient(u, { deviceLabel: label, startHint: simulatorStartHint(info.id) });
    const starter = new SimulatorWdaStarter(
      { sim: info, dedicated: dedicated !== undefined, booted: (signal) => this.simctl.bootedSimulators(signal), clientFor },
      this.options.wdaStart ?? {},
      this.simctl,
    );
    const endpoint: WdaEndpoint = new WdaEndpoint(clientFor(url), (signal) => starter.ensure(endpoint, signal), () => starter.stop());
    const ownMjpeg = perSimulator(this.options.mjpegUrls);
    // Simulators share the Mac's loopback: every WDA without MJPEG_SERVER_PORT tries 9100, only the first gets it
    // (FBWebServer.m logs "Cannot init screenshots broadcaster service" and runs without video). So a simulator
    // whose WDA has a URL of its own on another port streams nothing from 9100 but another simulator's screen.
    const sharedMjpeg = dedicated !== undefined && (new URL(dedicated).port || '80') !== '8100' ? undefined : this.options.mjpegUrl ?? `http://${new URL(url).hostname}:${MJPEG_PORT}`;
    const mjpeg = ownMjpeg ?? sharedMjpeg;
    const at = mjpeg === undefined ? undefined : new URL(mjpeg);
    const target = at && { host: at.hostname, port: Number(at.port || 80), label };
    // A WDA started on ports of its own (another simulator's held the shared URL) has its MJPEG server there too.
    const video = async () => {
      if (starter.ownMjpegPort) return { host: '127.0.0.1', port: starter.ownMjpegPort, label };
      if (target) return target;
      throw new ToolError('UNSUPPORTED', `${label} has a WebDriverAgent URL of its own (${dedicated}) but no MJPEG URL: port ${MJPEG_PORT} is another simulator's WDA's video; start its WDA with MJPEG_SERVER_PORT=<port> and pass --mjpeg-url ${info.id}=http://127.0.0.1:<port>`);
    };
    return new IosDevice(strip(info), new SimulatorControl(this.simctl, info.id), endpoint, video, (signal) => this.simulatorGone(info.id, signal));
  }

  private openPhone(info: RealDeviceInfo): IosDevice {
    const devicePort = this.options.deviceWdaPort ?? 8100;
    const control = new RealDeviceControl(this.goIos, info.id, info.version);
    const usbmuxd = this.options.usbmuxd ?? process.env.USBMUXD_SOCKET_ADDRESS;
    let relay: DeviceRelay | undefined;
    let linked = false;
    const log = this.options.log ?? ((m: string) => process.stderr.write(`mobilebridge: ${m}\n`));
    const tunnel = majorVersion(info.version) >= 17 ? ' while `sudo ios tunnel start` runs' : '';
    const reach = `mobilebridge reaches its port ${devicePort} through usbmuxd`;
    const hint =
      `Install WebDriverAgentRunner on the iPhone (build it once with Xcode for your team) and start it with \`ios runwda --udid=${info.id}\`${tunnel} ` +
      `(adding --bundleid=<id> --testrunnerbundleid=<id> --xctestconfig=WebDriverAgentRunner.xctest when it was signed under a bundle id of your own); ${reach}`;
    // Once WDA is found missing, the installed runner (if any) turns the hint into the exact command.
    const runnerHint = async (signal?: AbortSignal): Promise<string> => {
      const apps = await this.goIos.apps(info.id, signal).catch(() => undefined);
      if (!apps) return hint;
      const runner = installedRunner(apps.map((a) => a.package));
      if (!runner) return `WebDriverAgentRunner is not installed on it (no *.xctrunner app in \`ios apps\`): build and install it once with Xcode for your team, then start it with ${runwdaCommand(info.id, '<its bundle id>')}${tunnel}; ${reach}`;
      return `WebDriverAgentRunner is installed as ${runner}: start it with ${runwdaCommand(info.id, runner)}${tunnel}; ${reach}`;
    };
    const label = `iPhone ${info.model} (${info.id})`;

    // The URL is only known once the relay's port is chosen; the endpoint's client is swapped in then.
    const endpoint = new WdaEndpoint(
      new WdaClient('http://127.0.0.1:1', { deviceLabel: label, startHint: hint }),
      async (signal) => {
        // A replugged iPhone gets a new usbmuxd device id: the old relay never reaches it again.
        if (linked) await this.requireConnected(info.id, label, signal);
        // No tunnel check: usbmuxd carries TCP to the phone on every iOS version, and a WebDriverAgent
        // started by Xcode needs no go-ios tunnel; `ios runwda` on iOS 17+ does, as the hint says.
        relay?.close();
        relay = await openPhoneRelay(usbmuxd, info.id, devicePort, label, signal);
        const client = new WdaClient(`http://127.0.0.1:${relay.port}`, { deviceLabel: label, startHint: hint });
        endpoint.use(client);
        await waitForWda(client, relay, this.options.forwardWaitMs ?? 10_000, label, runnerHint, signal);
        if (linked) log(`${label}: device reconnected, relay reopened (127.0.0.1:${relay.port} → ${devicePort})`);
        linked = true;
      },
      () => relay?.close(),
      true,
    );
    const mjpegPort = this.options.deviceMjpegPort ?? MJPEG_PORT;
    // Each video stream gets its own relay, closed with the stream.
    const mjpeg = async (signal?: AbortSignal) => {
      const video = await openPhoneRelay(usbmuxd, info.id, mjpegPort, label, signal);
      return { host: '127.0.0.1', port: video.port, label, release: () => video.close() };
    };
    return new IosDevice(strip(info), control, endpoint, mjpeg);
  }
}

/**
 * `ios runwda` without flags runs com.facebook.WebDriverAgentRunner.xctrunner with WebDriverAgentRunner.xctest
 * (go-ios cmd_device_testing.go runWDACommand); a runner signed for another team has its own bundle id, and
 * then all three must be given.
 */
const GO_IOS_DEFAULT_RUNNER = 'com.facebook.WebDriverAgentRunner.xctrunner';

function runwdaCommand(udid: string, runner: string): string {
  if (runner === GO_IOS_DEFAULT_RUNNER) return `\`ios runwda --udid=${udid}\``;
  return `\`ios runwda --bundleid=${runner} --testrunnerbundleid=${runner} --xctestconfig=WebDriverAgentRunner.xctest --udid=${udid}\``;
}

/** The WebDriverAgent runner among installed bundle ids (Xcode names a UI test runner <test bundle id>.xctrunner). */
function installedRunner(bundleIds: string[]): string | undefined {
  const runners = bundleIds.filter((id) => id.endsWith('.xctrunner'));
  return runners.find((id) => id === GO_IOS_DEFAULT_RUNNER) ?? runners.find((id) => /WebDriverAgent/i.test(id)) ?? runners[0];
}

async function waitForWda(client: WdaClient, relay: DeviceRelay, waitMs: number, label: string, missingHint: (signal?: AbortSignal) => Promise<string>, signal?: AbortSignal): Promise<void> {
  const until = Date.now() + waitMs;
  while (Date.now() < until) {
    if (signal?.aborted) throw signal.reason;
    try {
      await client.status(signal);
      return;
    } catch (err) {
      if (signal?.aborted) throw err;
    }
    // Nothing listening on the phone's port is worth waiting for (WDA starting); a gone phone or no usbmuxd is not.
    if (relay.failure && relay.failure.kind !== 'refused') throw usbmuxProblem(relay.failure, label);
    await new Promise((r) => setTimeout(r, 250));
  }
  const why = relay.failure?.kind === 'refused' ? relay.failure.message : `nothing answered at ${client.baseUrl}`;
  throw new ToolError('UNSUPPORTED', `WebDriverAgent is not running on ${label}: ${why} for ${waitMs} ms. ${await missingHint(signal)}`);
}
