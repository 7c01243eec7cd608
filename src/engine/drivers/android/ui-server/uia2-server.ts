import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Duplex } from 'node:stream';
import { timeoutSignal } from '../../../deadline.js';
import { ToolError } from '../../../errors.js';
import { execOnDevice, openDeviceStream, shellQuote, type AdbDeviceClient } from '../adb-client.js';
import { pushBytes } from '../sync-push.js';
import {
  sourceAsDump, uia2Request, Uia2Error, UIA2_DEVICE_PORT, UIA2_INSTRUMENT_COMMAND, UIA2_SERVER_PACKAGE, UIA2_TEST_PACKAGE,
} from './uia2-protocol.js';

/** What the server manager needs from the device; each is one adb round trip (or a stream kept open). */
export interface UiServerDevice {
  readonly serial: string;
  run(command: string, signal: AbortSignal): Promise<string>;
  /** A shell command left running (its stream open) until the returned stream is ended. */
  spawn(command: string, signal: AbortSignal): Promise<Duplex>;
  connect(port: number, signal: AbortSignal): Promise<Duplex>;
  install(path: string, signal: AbortSignal): Promise<void>;
}

export interface UiServerApks {
  /** appium-uiautomator2-server-v*.apk */
  server: string;
  /** appium-uiautomator2-server-debug-androidTest.apk */
  test: string;
}

const START_WAIT_MS = 20_000;
/** Installing the two server APKs (a few MB) may take this long before the device counts as stuck. */
const INSTALL_WAIT_MS = 120_000;
const POLL_MS = 200;
const RETRY_AFTER_MS = 5 * 60_000;
/** `am force-stop` of the server, which is what frees the UiAutomation connection for a dump. */
const STOP_WAIT_MS = 5_000;

export interface UiServerLimits {
  /**
   * How long one request to the running server may take (a warm /source is about 0.1–1 s) before
   * the server counts as wedged: it is stopped and the call dumps instead.
   */
  requestMs: number;
}
const DEFAULT_LIMITS: UiServerLimits = { requestMs: 10_000 };
/**
 * Listings in a row whose callers gave up while the server had not answered: with a tool deadline
 * under `requestMs` a wedged server never reaches that limit, so this many give-ups count as wedged.
 */
const ABANDONED_LIMIT = 2;

type State = { kind: 'idle' } | { kind: 'starting' } | { kind: 'running'; session: string } | { kind: 'unavailable'; until: number; why: string };

/**
 * The UiAutomator2 server kept running on the device between calls: `uiautomator dump` starts a JVM,
 * waits for the UI to idle and writes a file each time (1.5–3 s on phones), while the running server
 * answers /source from its warm accessibility connection. The server is started in the background on
 * first use — that call still dumps — and a failure only means dumping, with another try later.
 */
export class Uia2Server {
  private state: State = { kind: 'idle' };
  private instrument: Duplex | undefined;
  private readonly stopping = new AbortController();
  private starting: Promise<void> | undefined;
  private abandoned = 0;

  constructor(
    private readonly device: UiServerDevice,
    private readonly apks: UiServerApks | undefined,
    private readonly limits: UiServerLimits = DEFAULT_LIMITS,
  ) {}

  /** Why the server is not in use, for docs and diagnostics. */
  get status(): string {
    return this.state.kind === 'unavailable' ? `unavailable: ${this.state.why}` : this.state.kind;
  }

  /** The hierarchy as uiautomator dump XML, or undefined when the server is not (yet) usable. */
  async source(signal: AbortSignal): Promise<string | undefined> {
    if (!this.session()) return undefined;
    try {
      const xml = await this.inSession(() => this.sessionRequest('GET', '/source', undefined, signal), signal);
      // Anything but the XML leaves the server holding UiAutomation for nothing: given up like a failure.
      if (typeof xml !== 'string') throw new Uia2Error('unknown error', `/source answered ${JSON.stringify(xml)?.slice(0, 120)}`);
      this.abandoned = 0;
      return sourceAsDump(xml);
    } catch (err) {
      if (signal.aborted) {
        // Stopped in the background: the caller has gone, and the next listing dumps meanwhile.
        if (++this.abandoned >= ABANDONED_LIMIT) void this.lost();
        throw err;
      }
      await this.lost();
      return undefined;
    }
  }

  /**
   * Types into the focused field through the server (any Unicode text). Resolves false when the
   * server is not usable, so the caller can fall back; throws INVALID_PARAMETER when nothing is focused.
   */
  async typeText(text: string, signal: AbortSignal): Promise<boolean> {
    // SendKeysToElement takes text ending in a backslash and "n" as "press Enter after it" (and still
    // sets the backslash and n): the last character goes on its own, so the text is typed as written.
    if (text.length >= 2 && text.endsWith('\\n')) {
      const head = text.slice(0, -1);
      if (!(await this.typeText(head, signal))) return false;
      // The head is in the field: falling back now would type it twice, so a failure says what is there.
      const typed = await this.typeText('n', signal).catch((err: unknown) => err as Error);
      if (typed === true) return true;
      const why = typed === false ? 'the UiAutomator2 server stopped' : typed.message;
      throw new ToolError('INTERNAL', `typed ${JSON.stringify(head)} on ${this.device.serial}, but not the final "n" (${why}); type "n" to finish`);
    }
    for (let attempt = 1; ; attempt++) {
      const typed = await this.typeIntoActive(text, signal);
      if (typed !== 'stale') return typed;
      // The field found as focused went away before the text reached it (a re-rendered form, focus
      // moving on): nothing was typed, so asking again for what has focus now is safe. Twice is a screen still changing.
      if (attempt === 2) throw new ToolError('INVALID_PARAMETER', `the focused field on ${this.device.serial} was replaced twice between finding it and typing into it; nothing was typed: wait for the screen to settle, tap the field, then type`);
    }
  }

  /** One `element/active` + `value` round; 'stale' when the element found was gone by the time the text was sent. */
  private async typeIntoActive(text: string, signal: AbortSignal): Promise<boolean | 'stale'> {
    if (!this.session()) return false;
    let element: string | undefined;
    try {
      element = await this.inSession(async () => {
        try {
          const active = (await this.sessionRequest('GET', '/element/active', undefined, signal)) as Record<string, unknown> | null;
          return String(active?.ELEMENT ?? active?.['element-6066-11e4-a52e-4f735466cecf'] ?? '') || undefined;
        } catch (err) {
          if (err instanceof Uia2Error && err.error === 'no such element') return undefined;
          throw err;
        }
      }, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      return this.lost();
    }
    if (!element) throw new ToolError('INVALID_PARAMETER', `no text field is focused on ${this.device.serial}: tap a field first, then type`);
    try {
      await this.sessionRequest('POST', `/element/${encodeURIComponent(element)}/value`, { text, replace: false }, signal);
      return true;
    } catch (err) {
      if (signal.aborted) throw err;
      if (err instanceof Uia2Error && err.error === 'invalid element state') {
        // SendKeysToElement: setText refused by what has focus, which is not an editable field.
        throw new ToolError('INVALID_PARAMETER', `the focused element on ${this.device.serial} does not take text (${err.message}): tap a text field first, then type`);
      }
      if (err instanceof Uia2Error && err.error === 'invalid argument') {
        // SendKeysToElement sets a progress control (a SeekBar) from the text parsed as a number; other text throws IllegalArgumentException.
        throw new ToolError('INVALID_PARAMETER', `the focused element on ${this.device.serial} does not take this text (${err.message}); it is a slider or other progress control: tap a text field first, then type`);
      }
      // ElementsCache.get: a view that left the tree is "stale element reference"; one dropped from the cache "no such element".
      if (err instanceof Uia2Error && (err.error === 'stale element reference' || err.error === 'no such element')) return 'stale';
      if (err instanceof Uia2Error) throw new ToolError('INTERNAL', `the UiAutomator2 server on ${this.device.serial} could not type: ${err.message}`);
      return this.lost();
    }
  }

  /**
   * Stops the server if this manager started it. Ending the `am instrument` stream is not enough:
   * the instrumentation runs in its own process, which would keep the UiAutomation connection (no
   * `uiautomator dump` works) and its 24-hour wake lock (ServerInstrumentation.MAX_TEST_DURATION).
   */
  async close(): Promise<void> {
    const ours = this.instrument !== undefined || this.state.kind === 'running';
    this.stopping.abort();
    if (ours) await this.stopServer();
    this.instrument?.end();
    this.instrument?.destroy();
    this.instrument = undefined;
  }

  /** The live session id, or undefined (and a start begun in the background when none runs). */
  private session(): string | undefined {
    if (this.state.kind === 'running') return this.state.session;
    if (this.state.kind === 'unavailable' && Date.now() < this.state.until) return undefined;
    if (this.state.kind !== 'starting' && !this.stopping.signal.aborted) {
      this.state = { kind: 'starting' };
      this.starting = this.start().catch((err: unknown) => this.unavailable((err as Error).message));
    }
    return undefined;
  }

  /** Waits for a background start to settle (tests and benchmarks use this to begin warm). */
  async ready(): Promise<boolean> {
    this.session();
    await this.starting;
    return this.state.kind === 'running';
  }

  private async start(): Promise<void> {
    const signal = this.stopping.signal;
    // A server still running (left by an earlier run, or another client's) would answer our first
    // /status polls and take our session until ActivityManager replaces it, once `am` has started:
    // stopped first, as appium-uiautomator2-driver's cleanupAutomationLeftovers does.
    const installed = await this.device.run(`pm path ${UIA2_SERVER_PACKAGE} && pm path ${UIA2_TEST_PACKAGE}; am force-stop ${UIA2_SERVER_PACKAGE}`, signal);
    if ((installed.match(/^package:/gm) ?? []).length < 2) {
      if (!this.apks) return this.unavailable(`${UIA2_SERVER_PACKAGE} is not installed and no server APKs were given`);
      const installing = AbortSignal.any([signal, timeoutSignal(INSTALL_WAIT_MS)]);
      await this.device.install(this.apks.server, installing);
      await this.device.install(this.apks.test, installing);
    }
    const instrument = await this.device.spawn(UIA2_INSTRUMENT_COMMAND, AbortSignal.any([signal, timeoutSignal(START_WAIT_MS)]));
    this.instrument = instrument;
    let output = '';
    let ended = false;
    instrument.on('data', (c: Buffer) => (output += c.toString('utf8')));
    instrument.on('error', () => undefined);
    instrument.on('close', () => {
      ended = true;
      // `am` exits when the instrumentation's process has ended: nothing is left to stop.
      if (this.instrument !== instrument) return;
      this.instrument = undefined;
      if (this.state.kind === 'running') this.state = { kind: 'idle' };
    });
    const until = Date.now() + START_WAIT_MS;
    for (;;) {
      if (signal.aborted) return;
      if (ended || /INSTRUMENTATION_FAILED|INSTRUMENTATION_STATUS: Error/.test(output)) {
        return this.unavailable(`am instrument ended: ${output.trim().split('\n').pop() || 'no output'}`);
      }
      const status = (await this.request('GET', '/status', undefined, signal).catch(() => undefined)) as { ready?: unknown } | undefined;
      if (status?.ready === true) break;
      if (Date.now() > until) return this.unavailable(`the server did not answer within ${START_WAIT_MS} ms`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    const session = await this.createSession(signal);
    if (!session) return this.unavailable('POST /session gave no session id');
    this.state = { kind: 'running', session };
  }

  private async createSession(signal: AbortSignal): Promise<string | undefined> {
    const created = (await this.request('POST', '/session', { capabilities: { alwaysMatch: {}, firstMatch: [{}] } }, signal)) as { sessionId?: unknown } | null;
    return typeof created?.sessionId === 'string' ? created.sessionId : undefined;
  }

  /**
   * Runs `work` once more in a new session when the server no longer knows ours (404 "invalid
   * session id": another client's POST /session replaced it; the server keeps one). The server is
   * up and holds UiAutomation, so a new session is all it takes; dropping it would mean a restart.
   */
  private async inSession<T>(work: () => Promise<T>, signal: AbortSignal): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (signal.aborted || !(err instanceof Uia2Error) || err.error !== 'invalid session id' || this.state.kind !== 'running') throw err;
      const session = await this.createSession(this.bounded(signal));
      if (!session) throw err;
      this.state = { kind: 'running', session };
      return work();
    }
  }

  /** A request in our session, bounded by `requestMs` as well as by the caller. */
  private sessionRequest(method: string, path: string, body: unknown, signal: AbortSignal): Promise<unknown> {
    if (this.state.kind !== 'running') return Promise.reject(new Uia2Error('invalid session id', 'the server is not running'));
    return this.request(method, `/session/${this.state.session}${path}`, body, this.bounded(signal));
  }

  /** The caller's signal, also ending after `requestMs`: a wedged server must not hold every listing until its deadline. */
  private bounded(signal: AbortSignal): AbortSignal {
    return AbortSignal.any([signal, timeoutSignal(this.limits.requestMs)]);
  }

  private request(method: string, path: string, body: unknown, signal: AbortSignal): Promise<unknown> {
    return uia2Request(() => this.device.connect(UIA2_DEVICE_PORT, signal), method, path, body, signal);
  }

  /**
   * The server failed mid-use (gone, wedged, or without its UiAutomation connection): stopped, so
   * that the dump this call falls back to can connect UiAutomation; restarted on a later call.
   */
  private async lost(): Promise<false> {
    this.abandoned = 0;
    const running = this.state.kind === 'running';
    if (running) this.state = { kind: 'idle' };
    const instrument = this.instrument;
    this.instrument = undefined;
    instrument?.destroy();
    if (running || instrument) await this.stopServer();
    return false;
  }

  private unavailable(why: string): void {
    const instrument = this.instrument;
    this.instrument = undefined;
    instrument?.destroy();
    this.state = { kind: 'unavailable', until: Date.now() + RETRY_AFTER_MS, why };
    // A start that gave up may have left the instrumentation running (it holds UiAutomation).
    if (instrument) void this.stopServer();
  }

  /** `am force-stop` of the target package ends the instrumentation's process, as appium-uiautomator2-driver does on cleanup. */
  private async stopServer(): Promise<void> {
    await this.device.run(`am force-stop ${UIA2_SERVER_PACKAGE}`, timeoutSignal(STOP_WAIT_MS)).catch(() => undefined);
  }
}

/** The server manager for one adbkit device: shell commands, a kept-open shell, `tcp:` connections and installs. */
export function uiServerFor(device: AdbDeviceClient, serial: string, apks: UiServerApks | undefined, limits?: UiServerLimits): Uia2Server {
  return new Uia2Server({
    serial,
    run: async (command, signal) => (await execOnDevice(device, command, signal)).toString('utf8'),
    spawn: (command, signal) => openDeviceStream(device, `shell:${command}`, signal),
    connect: (port, signal) => openDeviceStream(device, `tcp:${port}`, signal),
    install: (path, signal) => installApk(device, path, signal),
  }, apks, limits);
}

/** `adb install -r` the way adb's legacy path does it: push to /data/local/tmp, `pm install -r`, remove. */
async function installApk(device: AdbDeviceClient, path: string, signal: AbortSignal): Promise<void> {
  const remote = `/data/local/tmp/${basename(path).replace(/[^\w.-]/g, '_')}`;
  await pushBytes(device, await readFile(path), remote, 0o644, signal);
  const out = (await execOnDevice(device, `pm install -r ${shellQuote(remote)}; rm -f ${shellQuote(remote)}`, signal)).toString('utf8');
  if (!/^Success/m.test(out)) throw new Error(`pm install ${basename(path)}: ${out.trim().split('\n').pop() || 'no output'}`);
}
