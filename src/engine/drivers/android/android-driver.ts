import type { CallContext, DeviceHandle, Driver, DevicesChange } from '../../driver.js';
import { ToolError } from '../../errors.js';
import { timeoutSignal, untilAborted } from '../../deadline.js';
import type { DeviceInfo } from '../../types.js';
import { resolveAdbAddress, type AdbAddress } from './adb-address.js';
import { createAdbClient, execOnDevice, listHostDevices, mapAdbError, serverUnreachable, unauthorizedError, type AdbClient, type AdbEntry } from './adb-client.js';
import { AndroidDevice, type AndroidDeviceOptions } from './android-device.js';
import { bootingError, infoFromGetprop, unusableError, unusableInfo } from './device-list.js';
import { DeviceTracker } from './device-tracker.js';
import { findUiServerApks } from './ui-server/apks.js';

export interface AndroidDriverOptions extends Partial<AndroidDeviceOptions> {
  /** Explicit `host:port` of the adb server (like adb -H/-P); else ADB_SERVER_SOCKET / ANDROID_ADB_SERVER_PORT / 5037. */
  adb?: string;
  host?: string;
  port?: number;
  /** Start a local adb server when none answers, as the adb CLI does. Off by default so tests never start one. */
  startServer?: boolean;
  /** The adb that starts that server (default `adb` on PATH). */
  adbBinary?: string;
  /** Where host and port came from, for messages ("ANDROID_ADB_SERVER_PORT=5038"), when the caller resolved them. */
  origin?: string;
  /** Throw from listDevices when the server cannot be reached (a named source reports itself down) instead of listing nothing. */
  reportUnreachable?: boolean;
  env?: NodeJS.ProcessEnv;
  /** How long one device may take to answer while devices are listed; a slower one is listed as not responding. Default 3 s. */
  probeTimeoutMs?: number;
}

/** Android devices through @devicefarmer/adbkit and the adb server; no adb process per call. */
export class AndroidDriver implements Driver {
  readonly name = 'android';
  private readonly address: AdbAddress | undefined;
  private readonly configError: string | undefined;
  private readonly startServer: string | undefined;
  private madeClient: AdbClient | undefined;
  private madeQuietClient: AdbClient | undefined;
  private readonly deviceOptions: AndroidDeviceOptions;
  private readonly devices = new Map<string, AndroidDevice>();
  private tracker: DeviceTracker | undefined;
  private readonly reportUnreachable: boolean;
  private readonly probeTimeoutMs: number;
  /** Aborted by close(): listings still waiting for a silent adb server let go of their sockets. */
  private closing = new AbortController();
  /**
   * Devices whose getprop outlasted a listing's probe, each with the getprop still waited for (at most
   * ASK_AGAIN_MS, then asked anew): later listings list them as not responding without waiting again,
   * so one frozen phone does not cost every listing its probe time.
   */
  private readonly unanswered = new Map<string, Promise<unknown> | undefined>();

  constructor(options: AndroidDriverOptions = {}) {
    this.reportUnreachable = options.reportUnreachable ?? false;
    this.probeTimeoutMs = options.probeTimeoutMs ?? 3000;
    this.deviceOptions = {
      input: options.input ?? 'monkey',
      screencap: options.screencap ?? 'auto',
      scrcpy: options.scrcpy,
      uiServer: options.uiServer ?? 'auto',
      uiServerApks: options.uiServerApks ?? (options.uiServer === 'off' ? undefined : findUiServerApks()),
      launchWaitMs: options.launchWaitMs,
    };
    try {
      const explicit = options.adb ?? (options.host !== undefined || options.port !== undefined ? `${options.host ?? '127.0.0.1'}:${options.port ?? 5037}` : undefined);
      this.address = resolveAdbAddress(explicit, options.env ?? process.env);
      if (options.origin) this.address = { ...this.address, source: options.origin };
    } catch (err) {
      this.configError = (err as Error).message;
    }
    this.startServer = options.startServer ? (options.adbBinary ?? 'adb') : undefined;
  }

  /** The adb server's client, made on first use: an engine that never asks for Android devices never loads adbkit. */
  private get client(): AdbClient | undefined {
    if (!this.address) return undefined;
    return (this.madeClient ??= createAdbClient(this.address, this.startServer));
  }

  /**
   * A client that never starts a server: the hot-plug feed (a server the user killed to free USB for a
   * flashing tool stays down) and the checks after a failure of whether the device or the server went away.
   */
  private get quietClient(): AdbClient | undefined {
    if (!this.address) return undefined;
    return (this.madeQuietClient ??= this.startServer === undefined ? this.client : createAdbClient(this.address, undefined));
  }

  get adbAddress(): AdbAddress | undefined {
    return this.address;
  }

  /**
   * Without a reachable adb server there are simply no Android devices: no error, no noise. Each
   * device answers under its own deadline, so a stuck one is listed as not responding and never
   * holds back (or hides) the others.
   */
  async listDevices(ctx: CallContext): Promise<DeviceInfo[]> {
    if (this.configError && this.reportUnreachable) throw new ToolError('DEVICE_NOT_FOUND', `Android devices are unavailable: ${this.configError}`);
    const entries = await this.entries(ctx.signal).catch((err: unknown) => {
      if (this.reportUnreachable && this.address) throw serverUnreachable(this.address, err);
      return [] as AdbEntry[];
    });
    // Two phones that ship with the same serial are two lines for one id, which adb cannot address apart.
    const count = new Map<string, number>();
    for (const e of entries) count.set(e.id, (count.get(e.id) ?? 0) + 1);
    const once = entries.filter((e, i) => entries.findIndex((x) => x.id === e.id) === i);
    for (const id of this.unanswered.keys()) if (!entries.some((e) => e.id === id && e.type === 'device')) this.unanswered.delete(id);
    return Promise.all(once.map((e) => ((count.get(e.id) ?? 1) > 1 ? unaddressable(e.id, sharedSerial(e.id, count.get(e.id)!, this.address!)) : this.probe(e, ctx.signal))));
  }

  /**
   * Model and version in one `getprop`, within the listing's probe time. A device that answers with a
   * refusal (adb: "device offline", "more than one device with serial …", "not found" for a device that
   * reports no serial) is listed with that reason; only one that says nothing in time is "not responding".
   */
  private async probe(entry: AdbEntry, outer: AbortSignal): Promise<DeviceInfo> {
    if (entry.id === NO_SERIAL && entry.type === 'device') return unaddressable(entry.id, NO_SERIAL_ADVICE);
    if (this.unanswered.has(entry.id)) {
      if (!this.unanswered.get(entry.id)) this.askAgain(entry);
      return notResponding(entry.id, this.probeTimeoutMs);
    }
    const timeout = timeoutSignal(this.probeTimeoutMs);
    const asked = new AbortController();
    const stop = () => asked.abort(outer.reason);
    outer.addEventListener('abort', stop, { once: true });
    const patience = timeoutSignal(ASK_AGAIN_MS);
    const asking = this.describe(entry, AbortSignal.any([asked.signal, this.closing.signal, patience]));
    asking.catch(() => undefined);
    try {
      return await untilAborted(AbortSignal.any([outer, timeout]), asking);
    } catch (err) {
      if (outer.aborted || !this.address) return notResponding(entry.id, this.probeTimeoutMs);
      if (timeout.aborted) {
        this.waitFor(entry.id, asking, patience);
        return notResponding(entry.id, this.probeTimeoutMs);
      }
      return unaddressable(entry.id, mapAdbError(err, entry.id, this.address, 'reading its properties').message);
    } finally {
      outer.removeEventListener('abort', stop);
    }
  }

  /**
   * A silent device's getprop, awaited past the listing: once it answers or is refused, listings probe it
   * again; given up after ASK_AGAIN_MS, it is asked anew by the next listing.
   */
  private waitFor(id: string, asking: Promise<unknown>, patience: AbortSignal): void {
    const settled: Promise<unknown> = asking.then(
      () => this.unanswered.delete(id),
      () => {
        if (this.unanswered.get(id) !== settled) return;
        if (patience.aborted) this.unanswered.set(id, undefined);
        else this.unanswered.delete(id);
      },
    );
    this.unanswered.set(id, settled);
  }

  private askAgain(entry: AdbEntry): void {
    const patience = timeoutSignal(ASK_AGAIN_MS);
    this.waitFor(entry.id, this.describe(entry, AbortSignal.any([this.closing.signal, patience])), patience);
  }

  async open(id: string, ctx: CallContext): Promise<DeviceHandle | undefined> {
    if (!this.client || !this.address) {
      if (this.configError && /:\d+$|^emulator-/.test(id)) throw new ToolError('DEVICE_NOT_FOUND', `Android devices are unavailable: ${this.configError}`);
      return undefined;
    }
    const entries = await this.entries(ctx.signal).catch(() => [] as AdbEntry[]);
    const entry = entries.find((e) => e.id === id);
    if (!entry) return undefined;
    if (entry.type === 'unauthorized') throw unauthorizedError(id);
    // Offline devices get a handle whose calls explain what to do; the engine drops it after each failure.
    if (entry.type !== 'device') return unusableHandle(unusableInfo(entry), unusableError(entry));
    const cached = this.devices.get(id);
    if (cached) return cached;
    if (id === NO_SERIAL) throw new ToolError('UNSUPPORTED', NO_SERIAL_ADVICE);
    // Within the call's deadline, not the listing's probe time: a slow phone is still usable.
    const address = this.address;
    const info = await this.describe(entry, ctx.signal).catch((err: unknown) => {
      if (ctx.signal.aborted) throw err;
      throw mapAdbError(err, id, address, 'reading its properties');
    });
    if (info.state !== 'ready') throw bootingError(id);
    const device = new AndroidDevice(info, this.client.getDevice(id), this.address, this.deviceOptions, this.quietClient!.getDevice(id));
    this.devices.set(id, device);
    return device;
  }

  watch(listener: (change: DevicesChange) => void): () => void {
    if (!this.quietClient) return () => undefined;
    // The feed reconnects on its own a few hundred ms after the server goes away: with a starting client it
    // would bring back a server the user killed at once. Listings and calls still start one when none
    // answers, as the adb CLI does; the feed then reconnects.
    this.tracker ??= new DeviceTracker(this.quietClient, (entry) => this.describe(entry), (removed) => removed.forEach((id) => this.dropDevice(id)));
    return this.tracker.subscribe(listener);
  }

  async close(): Promise<void> {
    this.closing.abort(new ToolError('DEVICE_NOT_FOUND', 'the Android driver was closed'));
    this.closing = new AbortController();
    this.tracker?.stop();
    this.unanswered.clear();
    const devices = [...this.devices.values()];
    this.devices.clear();
    await Promise.all(devices.map((d) => d.close().catch(() => undefined)));
  }

  private dropDevice(id: string): void {
    void this.devices.get(id)?.close().catch(() => undefined);
    this.devices.delete(id);
  }

  private async entries(signal: AbortSignal): Promise<AdbEntry[]> {
    if (!this.client) return [];
    return listHostDevices(this.client, AbortSignal.any([signal, this.closing.signal]));
  }

  /** Ready devices get model and version from one `getprop`; the rest are described by their state. */
  private async describe(entry: AdbEntry, signal: AbortSignal = AbortSignal.timeout(this.probeTimeoutMs)): Promise<DeviceInfo> {
    if (entry.type !== 'device' || !this.client) return unusableInfo(entry);
    const known = this.devices.get(entry.id)?.info;
    if (known) return known;
    const out = await execOnDevice(this.client.getDevice(entry.id), 'getprop', signal);
    return infoFromGetprop(entry.id, out.toString('utf8'));
  }
}

/** How long a silent device's getprop is awaited after the listing that gave up on it, before it is asked anew. */
const ASK_AGAIN_MS = 30_000;

/** How adb lists a device whose firmware reports no serial (transport.cpp); `host:transport:` cannot name it. */
const NO_SERIAL = '(no serial number)';
const NO_SERIAL_ADVICE =
  'adb lists a device that reports no serial number and cannot address it ("adb -s" does not reach it); connect it over Wi-Fi (adb tcpip 5555 while it is the only device, then adb connect <its ip>) so that it has an address of its own';

function sharedSerial(id: string, n: number, address: AdbAddress): string {
  return `${n} devices connected to the adb server at ${address.host}:${address.port} answer to the serial ${id}, so adb cannot tell them apart; unplug all but one, or connect them over Wi-Fi (adb tcpip 5555, then adb connect <its ip>) so that each has an address of its own`;
}

/** A device adb lists but that cannot be used, with the reason. */
function unaddressable(id: string, message: string): DeviceInfo {
  return { id, os: 'Android', model: 'unknown', version: '', state: 'offline', message };
}

function notResponding(id: string, ms: number): DeviceInfo {
  return {
    id, os: 'Android', model: 'unknown', version: '', state: 'offline',
    message: `not responding: ${id} did not answer within ${ms} ms (the device may be frozen or its USB link stuck); replug it or run "adb -s ${id} reconnect"`,
  };
}

function unusableHandle(info: DeviceInfo, error: ToolError): DeviceHandle {
  return new Proxy({ info } as DeviceHandle, {
    get: (target, prop) => (prop === 'info' ? target.info : prop === 'then' ? undefined : () => Promise.reject(error)),
  });
}
